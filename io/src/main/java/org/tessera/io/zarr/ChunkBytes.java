package org.tessera.io.zarr;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;

import org.tessera.io.codec.ByteCodec;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Order;

/**
 * The raw bytes of a chunk: its elements in C or F order, each in a given byte order. NDArrays
 * hold native little-endian data, so big-endian chunks are swapped element part by element part
 * (a complex number swaps its two halves separately, as NumPy does).
 */
final class ChunkBytes {
    private ChunkBytes() {
    }

    /** The bytes of {@code array} laid out in {@code order}, each element in {@code byteOrder}. */
    static byte[] encode(NDArray array, ByteOrder byteOrder, Order order) {
        NDArray contiguous = order == Order.F ? array.asfortranarray() : array.ascontiguousarray();
        long byteSize = contiguous.byteSize();
        if (byteSize > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a chunk of shape " + Arrays.toString(array.shape()) + " and dtype " + array.dtype()
                    + " holds " + byteSize + " bytes, more than one chunk may hold (2 GiB); choose smaller chunks");
        }
        byte[] bytes = new byte[(int) byteSize];
        encodeInto(contiguous, byteOrder, order, MemorySegment.ofArray(bytes));
        return bytes;
    }

    /**
     * Whether {@code array}'s own memory already holds, byte for byte, what {@link #encodeInto}
     * would write: contiguous in {@code order}, with no byte swap (NDArrays hold little-endian
     * values). Such an array can be encoded from where it is.
     */
    static boolean holdsBytes(NDArray array, ByteOrder byteOrder, Order order) {
        return byteOrder != ByteOrder.BIG_ENDIAN && (order == Order.F ? array.isFContiguous() : array.isCContiguous());
    }

    /** {@link #encode} into {@code target}, which must hold exactly the array's bytes. */
    static void encodeInto(NDArray array, ByteOrder byteOrder, Order order, MemorySegment target) {
        NDArray contiguous = order == Order.F ? array.asfortranarray() : array.ascontiguousarray();
        long byteSize = contiguous.byteSize();
        if (target.byteSize() != byteSize) {
            throw new IllegalArgumentException("a chunk of shape " + Arrays.toString(array.shape()) + " and dtype " + array.dtype() + " holds "
                    + byteSize + " bytes, not the " + target.byteSize() + " given for it");
        }
        MemorySegment.copy(contiguous.segment(), contiguous.byteOffset(), target, 0, byteSize);
        if (byteOrder == ByteOrder.BIG_ENDIAN) {
            swap(target, array.dtype().realType().byteSize());
        }
    }

    /** A new array of {@code shape} from chunk bytes; {@code where} names the chunk in messages. */
    static NDArray decode(byte[] bytes, DType dtype, long[] shape, ByteOrder byteOrder, Order order, String where) throws IOException {
        return decode(MemorySegment.ofArray(bytes), dtype, shape, byteOrder, order, where);
    }

    /** {@link #decode(byte[], DType, long[], ByteOrder, Order, String)} from bytes in a segment (a mapped file), left unchanged. */
    static NDArray decode(MemorySegment bytes, DType dtype, long[] shape, ByteOrder byteOrder, Order order, String where) throws IOException {
        long expected = 1;
        try {
            // Checked: a chunk shape of (2**32, 2**32) bytes would otherwise wrap around to 0 and match an empty chunk.
            for (long length : shape) {
                expected = Math.multiplyExact(expected, length);
            }
            expected = Math.multiplyExact(expected, (long) dtype.byteSize());
        } catch (ArithmeticException overflow) {
            throw new ZarrFormatException(where + ": a chunk of shape " + Arrays.toString(shape) + " and dtype " + dtype + " holds more than 2^63 bytes");
        }
        if (bytes.byteSize() != expected) {
            throw new ZarrFormatException(where + ": decoded to " + bytes.byteSize() + " bytes, but a chunk of shape " + Arrays.toString(shape)
                    + " and dtype " + dtype + " has " + expected);
        }
        NDArray result = NDArray.zeros(dtype, order, shape);
        MemorySegment.copy(bytes, 0, result.segment(), result.byteOffset(), expected);
        if (byteOrder == ByteOrder.BIG_ENDIAN) {
            swap(result.segment().asSlice(result.byteOffset(), expected), dtype.realType().byteSize());
        }
        return result;
    }

    /**
     * A new array of {@code shape} decoded by {@code codec} from the stored bytes straight into its
     * memory (the codec must {@linkplain ByteCodec#decodesInto() decode into memory}).
     */
    static NDArray decodeInto(ByteCodec codec, MemorySegment stored, DType dtype, long[] shape, ByteOrder byteOrder, Order order, String where)
            throws ZarrFormatException {
        // The codec writes every byte (or throws), so the block's old bytes never show.
        NDArray result = NDArray.emptyBlock(dtype, order, shape);
        MemorySegment target = result.segment().asSlice(result.byteOffset(), result.size() * dtype.byteSize());
        try {
            codec.decodeInto(stored, target);
        } catch (IOException corrupt) {
            throw new ZarrFormatException(where + ": " + corrupt.getMessage(), corrupt);
        }
        if (byteOrder == ByteOrder.BIG_ENDIAN) {
            swap(target, dtype.realType().byteSize());
        }
        return result;
    }

    /** Reverses the byte order of every part of {@code partSize} bytes, in place. */
    static void swap(MemorySegment segment, int partSize) {
        long end = segment.byteSize() - partSize;
        switch (partSize) {
            case 1 -> {
            }
            case 2 -> {
                for (long offset = 0; offset <= end; offset += 2) {
                    segment.set(ValueLayout.JAVA_SHORT_UNALIGNED, offset, Short.reverseBytes(segment.get(ValueLayout.JAVA_SHORT_UNALIGNED, offset)));
                }
            }
            case 4 -> {
                for (long offset = 0; offset <= end; offset += 4) {
                    segment.set(ValueLayout.JAVA_INT_UNALIGNED, offset, Integer.reverseBytes(segment.get(ValueLayout.JAVA_INT_UNALIGNED, offset)));
                }
            }
            case 8 -> {
                for (long offset = 0; offset <= end; offset += 8) {
                    segment.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, Long.reverseBytes(segment.get(ValueLayout.JAVA_LONG_UNALIGNED, offset)));
                }
            }
            default -> throw new IllegalArgumentException("no byte swap for parts of " + partSize + " bytes");
        }
    }
}
