package org.tessera.ndarray.npy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Order;
import org.tessera.ndarray.layout.Shapes;

/**
 * NumPy's {@code .npy} format: read into memory, write, and memory-map. Arrays in memory are in
 * native (little-endian) order, so big-endian files are byte-swapped on read and cannot be mapped.
 */
public final class Npy {
    /** The most bytes of data read in one part before the array is allocated. */
    private static final int READ_PART = 1 << 24;

    private Npy() {}

    /** Reads a whole file into a new array (F-ordered when the file is). */
    public static NDArray read(Path file) throws IOException {
        try (InputStream input = Files.newInputStream(file)) {
            return readFrom(input, file.toString());
        }
    }

    /** Reads one array from a stream positioned at its magic string. */
    public static NDArray readFrom(InputStream input, String source) throws IOException {
        NpyHeader header = readHeader(input, source);
        long byteSize = dataByteSize(header, source);
        // The header's shape is only a claim: the data is read (in parts, growing only as bytes arrive) before the
        // array is allocated, so a short file that claims terabytes is "truncated", not an OutOfMemoryError.
        List<byte[]> parts = new ArrayList<>();
        long found = 0;
        while (found < byteSize) {
            byte[] part = input.readNBytes((int) Math.min(byteSize - found, READ_PART));
            if (part.length == 0) {
                break;
            }
            parts.add(part);
            found += part.length;
        }
        if (found != byteSize) {
            throw new IOException(source + ": truncated .npy data: expected " + byteSize + " bytes for shape "
                    + Shapes.format(header.shape()) + " of " + header.dtype() + ", found " + found);
        }
        NDArray result = NDArray.zeros(header.dtype(), header.fortranOrder() ? Order.F : Order.C, header.shape());
        long at = 0;
        for (byte[] part : parts) {
            MemorySegment.copy(MemorySegment.ofArray(part), 0, result.segment(), result.byteOffset() + at, part.length);
            at += part.length;
        }
        if (header.byteOrder() == ByteOrder.BIG_ENDIAN) {
            swapBytes(result.segment(), result.byteOffset(), byteSize, header.dtype().realType().byteSize());
        }
        return result;
    }

    /** Writes {@code array} little-endian: as stored when C- or F-contiguous, else a C-ordered copy. */
    public static void write(Path file, NDArray array) throws IOException {
        write(file, array, ByteOrder.LITTLE_ENDIAN);
    }

    /** Writes {@code array} in the given byte order. */
    public static void write(Path file, NDArray array, ByteOrder byteOrder) throws IOException {
        try (OutputStream output = Files.newOutputStream(file)) {
            writeTo(output, array, byteOrder);
        }
    }

    /** Writes one array (header and data) to a stream. */
    public static void writeTo(OutputStream output, NDArray array, ByteOrder byteOrder) throws IOException {
        boolean fortran = !array.isCContiguous() && array.isFContiguous();
        NDArray contiguous = fortran ? array : array.ascontiguousarray();
        output.write(new NpyHeader(array.dtype(), byteOrder, fortran, array.shape(), 0).encode());
        int itemSize = array.dtype().realType().byteSize();
        long chunkBytes = 1 << 20;
        for (long start = 0; start < contiguous.byteSize(); start += chunkBytes) {
            long length = Math.min(chunkBytes, contiguous.byteSize() - start);
            byte[] buffer = new byte[(int) length];
            MemorySegment.copy(contiguous.segment(), contiguous.byteOffset() + start, MemorySegment.ofArray(buffer), 0, length);
            if (byteOrder == ByteOrder.BIG_ENDIAN) {
                swapBytes(MemorySegment.ofArray(buffer), 0, length, itemSize);
            }
            output.write(buffer);
        }
    }

    /**
     * Maps a file: READ_ONLY gives a read-only array, READ_WRITE writes through to the file,
     * PRIVATE is copy-on-write. The mapping lives as long as the array is reachable.
     */
    public static NDArray map(Path file, FileChannel.MapMode mode) throws IOException {
        NpyHeader header;
        try (InputStream input = Files.newInputStream(file)) {
            header = readHeader(input, file.toString());
        }
        if (header.byteOrder() == ByteOrder.BIG_ENDIAN && header.dtype().byteSize() > 1) {
            throw new IllegalArgumentException(file + ": big-endian " + header.dtype()
                    + " data cannot be memory-mapped as a native array; use Npy.read, which converts it");
        }
        long[] shape = header.shape();
        long byteSize = dataByteSize(header, file.toString());
        // Java maps PRIVATE (copy-on-write) only through a channel opened for writing too.
        var options = mode != FileChannel.MapMode.READ_ONLY
                ? new StandardOpenOption[] {StandardOpenOption.READ, StandardOpenOption.WRITE}
                : new StandardOpenOption[] {StandardOpenOption.READ};
        try (FileChannel channel = FileChannel.open(file, options)) {
            if (channel.size() < header.dataOffset() + byteSize) {
                throw new IOException(file + ": truncated .npy data: expected " + byteSize + " bytes for shape "
                        + Shapes.format(shape) + " of " + header.dtype() + ", found " + (channel.size() - header.dataOffset()));
            }
            MemorySegment mapped = channel.map(mode, header.dataOffset(), byteSize, Arena.ofAuto());
            return NDArray.wrap(mapped, shape, header.dtype(), header.fortranOrder() ? Order.F : Order.C, mode != FileChannel.MapMode.READ_ONLY);
        }
    }

    /** Creates a zero-filled {@code .npy} file and maps it read-write (NumPy's open_memmap with mode "w+"). */
    public static NDArray create(Path file, DType dtype, long[] shape, Order order) throws IOException {
        byte[] header = new NpyHeader(dtype, ByteOrder.LITTLE_ENDIAN, order == Order.F && shape.length > 1, shape, 0).encode();
        long byteSize = Math.multiplyExact(Shapes.size(shape), (long) dtype.byteSize());
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.wrap(header));
            if (byteSize > 0) {
                // Writing the last byte sizes the file without touching the rest (sparse where the filesystem allows).
                channel.write(java.nio.ByteBuffer.wrap(new byte[1]), header.length + byteSize - 1);
            }
        }
        return map(file, FileChannel.MapMode.READ_WRITE);
    }

    /** The bytes of data the header claims: its shape's size times the item size, an IOException when that overflows. */
    private static long dataByteSize(NpyHeader header, String source) throws IOException {
        try {
            return Math.multiplyExact(Shapes.size(header.shape()), (long) header.dtype().byteSize());
        } catch (ArithmeticException overflow) {
            throw new IOException(source + ": the .npy shape " + Shapes.format(header.shape()) + " of " + header.dtype()
                    + " holds more than 2^63 bytes", overflow);
        }
    }

    static NpyHeader readHeader(InputStream input, String source) throws IOException {
        byte[] prefix = input.readNBytes(8);
        if (prefix.length < 8 || !Arrays.equals(Arrays.copyOf(prefix, 6), NpyHeader.MAGIC)) {
            throw new IOException(source + ": not a .npy file (bad magic string)");
        }
        int major = prefix[6];
        if (major < 1 || major > 3) {
            throw new IOException(source + ": unsupported .npy format version " + major + "." + prefix[7]);
        }
        int lengthBytes = major == 1 ? 2 : 4;
        byte[] lengthField = input.readNBytes(lengthBytes);
        if (lengthField.length < lengthBytes) {
            throw new IOException(source + ": truncated .npy header");
        }
        long length = 0;
        for (int i = lengthBytes - 1; i >= 0; i--) {
            length = (length << 8) | (lengthField[i] & 0xff);
        }
        // A 4-byte length may claim up to 4 GiB; NumPy itself refuses headers past 10,000 bytes unless asked.
        byte[] dictionary = input.readNBytes((int) Math.min(length, Integer.MAX_VALUE - 8));
        if (dictionary.length < length) {
            throw new IOException(source + ": truncated .npy header");
        }
        String text = new String(dictionary, major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        return NpyHeader.parse(text, 8 + lengthBytes + length, source);
    }

    /** Reverses the bytes of every element part of {@code partSize} bytes. */
    private static void swapBytes(MemorySegment segment, long offset, long byteSize, int partSize) {
        for (long part = offset; part < offset + byteSize; part += partSize) {
            for (int i = 0; i < partSize / 2; i++) {
                byte low = segment.get(ValueLayout.JAVA_BYTE, part + i);
                segment.set(ValueLayout.JAVA_BYTE, part + i, segment.get(ValueLayout.JAVA_BYTE, part + partSize - 1 - i));
                segment.set(ValueLayout.JAVA_BYTE, part + partSize - 1 - i, low);
            }
        }
    }

    /** The bytes of a whole .npy file for {@code array}, for containers such as .npz. */
    static byte[] toBytes(NDArray array) throws IOException {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        writeTo(output, array, ByteOrder.LITTLE_ENDIAN);
        return output.toByteArray();
    }
}
