package org.tessera.array.creation;

import java.util.SplittableRandom;

import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.ChunkNormalization;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Ufuncs;

/** Arrays made from nothing but their parameters, or read from a source region by region. */
public final class Creation {
    private Creation() {
    }

    /** An array over a source; each block reads its region (a view for an in-memory NDArray). */
    public static ChunkedArray fromSource(RegionSource source, ChunkSpec spec) {
        Chunks chunks = ChunkNormalization.normalize(spec, source.shape(), source.dtype());
        String name = Tokens.name("array", source.identity(), chunks);
        return CreationLayer.create(name, chunks, ChunkedArray.metaOf(source.dtype(), chunks.ndim()), "read",
                (index, shape, start) -> source.read(start, shape));
    }

    public static ChunkedArray full(long[] shape, double value, DType dtype, ChunkSpec spec) {
        Chunks chunks = ChunkNormalization.normalize(spec, shape, dtype);
        return CreationLayer.create(Tokens.name("full", shape, value, dtype.numpyName(), chunks), chunks, ChunkedArray.metaOf(dtype, shape.length), "full",
                (index, blockShape, start) -> NDArrays.full(dtype, value, blockShape));
    }

    /** {@code start, start + step, ...} below {@code stop}, as NumPy's arange with float steps. */
    public static ChunkedArray arange(double start, double stop, double step, DType dtype, ChunkSpec spec) {
        if (step == 0) {
            throw new IllegalArgumentException("arange: step must not be 0 (start " + start + ", stop " + stop + ")");
        }
        long length = Math.max(0, (long) Math.ceil((stop - start) / step));
        long[] shape = {length};
        Chunks chunks = ChunkNormalization.normalize(spec, shape, dtype);
        return CreationLayer.create(Tokens.name("arange", start, stop, step, dtype.numpyName(), chunks), chunks, ChunkedArray.metaOf(dtype, 1), "arange",
                (index, blockShape, blockStart) -> positions(blockStart[0], blockShape[0], start, step).astype(dtype));
    }

    /** {@code count} values from {@code start} to {@code stop}, as NumPy's linspace (endpoint included). */
    public static ChunkedArray linspace(double start, double stop, long count, ChunkSpec spec) {
        long[] shape = {count};
        Chunks chunks = ChunkNormalization.normalize(spec, shape, DType.FLOAT64);
        double step = count > 1 ? (stop - start) / (count - 1) : 0;
        return CreationLayer.create(Tokens.name("linspace", start, stop, count, chunks), chunks, ChunkedArray.metaOf(DType.FLOAT64, 1), "linspace",
                (index, blockShape, blockStart) -> {
                    NDArray values = positions(blockStart[0], blockShape[0], start, step);
                    if (count > 1 && blockStart[0] + blockShape[0] == count) {
                        values.setDouble(stop, blockShape[0] - 1);
                    }
                    return values;
                });
    }

    /** {@code start + (first + i) * step} for i below {@code length}, computed as NumPy computes it. */
    private static NDArray positions(long first, long length, double start, double step) {
        NDArray offsets = NDArrays.arange(first, first + length, 1).astype(DType.FLOAT64);
        return Ufuncs.ADD.apply(Ufuncs.MULTIPLY.apply(offsets, step), start);
    }

    /** Ones on the k-th diagonal of a rows x columns array. */
    public static ChunkedArray eye(long rows, long columns, long k, DType dtype, ChunkSpec spec) {
        long[] shape = {rows, columns};
        Chunks chunks = ChunkNormalization.normalize(spec, shape, dtype);
        return CreationLayer.create(Tokens.name("eye", rows, columns, k, dtype.numpyName(), chunks), chunks, ChunkedArray.metaOf(dtype, 2), "eye",
                (index, blockShape, start) -> {
                    NDArray block = NDArray.zeros(dtype, blockShape);
                    for (long row = 0; row < blockShape[0]; row++) {
                        long column = start[0] + row + k - start[1];
                        if (column >= 0 && column < blockShape[1]) {
                            block.setDouble(1, row, column);
                        }
                    }
                    return block;
                });
    }

    /** Blocks computed by {@code maker} from their index, shape and start. */
    public static ChunkedArray fromFunction(BlockMaker maker, long[] shape, DType dtype, ChunkSpec spec, String label) {
        Chunks chunks = ChunkNormalization.normalize(spec, shape, dtype);
        return CreationLayer.create(Tokens.name(label, maker.getClass().getName(), shape, dtype.numpyName(), chunks), chunks,
                ChunkedArray.metaOf(dtype, shape.length), label, maker);
    }

    /** Which distribution a random array draws from. */
    public enum Distribution { UNIFORM, NORMAL }

    /**
     * Random values with one generator per block, seeded from the seed and the block index, so the
     * values do not depend on the scheduler, the thread count or the order blocks run in.
     */
    public static ChunkedArray random(long seed, Distribution distribution, long[] shape, ChunkSpec spec) {
        Chunks chunks = ChunkNormalization.normalize(spec, shape, DType.FLOAT64);
        int[] counts = chunks.blockCounts();
        return CreationLayer.create(Tokens.name("random-" + distribution.name().toLowerCase(java.util.Locale.ROOT), seed, shape, chunks), chunks,
                ChunkedArray.metaOf(DType.FLOAT64, shape.length), "random", (index, blockShape, start) -> {
                    SplittableRandom generator = blockGenerator(seed, index, counts);
                    NDArray block = NDArray.zeros(DType.FLOAT64, blockShape);
                    long size = block.size();
                    java.lang.foreign.MemorySegment segment = block.segment();
                    long offset = block.byteOffset();
                    for (long element = 0; element < size; element++) {
                        double value = distribution == Distribution.UNIFORM ? generator.nextDouble() : generator.nextGaussian();
                        segment.set(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, offset + element * 8, value);
                    }
                    return block;
                });
    }

    /** Random integers in {@code [low, high)}, seeded per block as {@link #random}. */
    public static ChunkedArray randomIntegers(long seed, long low, long high, long[] shape, ChunkSpec spec) {
        if (high <= low) {
            throw new IllegalArgumentException("random integers: low " + low + " must be below high " + high);
        }
        Chunks chunks = ChunkNormalization.normalize(spec, shape, DType.INT64);
        int[] counts = chunks.blockCounts();
        return CreationLayer.create(Tokens.name("random-integers", seed, low, high, shape, chunks), chunks, ChunkedArray.metaOf(DType.INT64, shape.length),
                "random", (index, blockShape, start) -> {
                    SplittableRandom generator = blockGenerator(seed, index, counts);
                    NDArray block = NDArray.zeros(DType.INT64, blockShape);
                    for (long element = 0; element < block.size(); element++) {
                        block.segment().set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, block.byteOffset() + element * 8, generator.nextLong(low, high));
                    }
                    return block;
                });
    }

    private static SplittableRandom blockGenerator(long seed, int[] index, int[] counts) {
        long linear = 0;
        for (int axis = 0; axis < index.length; axis++) {
            linear = linear * counts[axis] + index[axis];
        }
        // SplittableRandom mixes its seed (SplitMix64), so neighbouring seeds give unrelated streams.
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + linear);
    }
}
