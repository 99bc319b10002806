package org.tessera.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.tessera.array.chunks.Chunks;
import org.tessera.ndarray.dtype.DType;

/**
 * What {@code tessera info} says about one stored array.
 *
 * @param name         the array's path inside its file or hierarchy ("/" for a lone array)
 * @param format       e.g. "Zarr v2", "HDF5", ".npy"
 * @param chunkShape   the stored chunk shape; empty for contiguous storage (the whole array is one block)
 * @param compressor   the codecs applied to each chunk, "none" when there are none
 * @param bytesOnDisk  the bytes its files or objects take, {@link #SHARED_FILE} where they cannot be told apart
 *                     from other arrays' (HDF5), {@link #UNKNOWN_SIZE} where the store cannot list them (HTTP)
 */
record ArrayInfo(String name, String format, long[] shape, DType dtype, Optional<long[]> chunkShape, String compressor, long bytesOnDisk) {
    /** The size of an array that shares its file with others. */
    static final long SHARED_FILE = -1;
    /** The size of an array in a store that cannot list its keys, so its chunks cannot be found to be counted. */
    static final long UNKNOWN_SIZE = -2;

    ArrayInfo {
        shape = shape.clone();
        chunkShape = chunkShape.map(long[]::clone);
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public Optional<long[]> chunkShape() {
        return chunkShape.map(long[]::clone);
    }

    /** The bytes the whole array takes in memory, uncompressed. */
    long bytesInMemory() {
        return Arrays.stream(shape).reduce(1, Math::multiplyExact) * dtype.byteSize();
    }

    /** The chunk grid: the stored chunks, or one block for contiguous storage. */
    Chunks grid() {
        return Chunks.regular(shape, chunkShape.orElseGet(() -> Arrays.stream(shape).map(length -> Math.max(length, 1)).toArray()));
    }

    long blockCount() {
        return Arrays.stream(grid().blockCounts()).asLongStream().reduce(1, Math::multiplyExact);
    }

    /** The lines {@code tessera info} prints for it. */
    List<String> lines() {
        return List.of(
                name + "  (" + format + ")",
                "  shape       " + tuple(shape),
                "  dtype       " + dtype.numpyName(),
                "  chunks      " + chunkShape.map(ArrayInfo::tuple).orElse("none (contiguous)"),
                "  compressor  " + compressor,
                "  on disk     " + onDisk(bytesOnDisk),
                "  in memory   " + ByteSize.format(bytesInMemory()),
                "  blocks      " + blockCount() + " (" + Arrays.stream(grid().blockCounts()).mapToObj(Integer::toString).collect(Collectors.joining(" x ")) + ")");
    }

    /** How a size on disk reads: the bytes, or why they are not known. */
    static String onDisk(long bytes) {
        return bytes == SHARED_FILE ? "(shared file)" : bytes == UNKNOWN_SIZE ? "unknown (HTTP has no listing)" : ByteSize.format(bytes);
    }

    /** NumPy's way of writing a shape: {@code (3, 4)}, {@code (5,)}, {@code ()}. */
    static String tuple(long[] values) {
        return values.length == 1 ? "(" + values[0] + ",)"
                : "(" + String.join(", ", Arrays.stream(values).mapToObj(Long::toString).toList()) + ")";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ArrayInfo that && name.equals(that.name) && format.equals(that.format) && Arrays.equals(shape, that.shape)
                && dtype == that.dtype && Arrays.equals(chunkShape.orElse(null), that.chunkShape.orElse(null))
                && compressor.equals(that.compressor) && bytesOnDisk == that.bytesOnDisk;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(name, format, Arrays.hashCode(shape), dtype, compressor, bytesOnDisk);
    }

    @Override
    public String toString() {
        return String.join("\n", lines());
    }
}
