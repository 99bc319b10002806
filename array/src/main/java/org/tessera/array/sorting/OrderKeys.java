package org.tessera.array.sorting;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.tessera.ndarray.dtype.DType;

/**
 * NumPy's sort order as one signed 64-bit key per element, for every real dtype and bool: two
 * elements compare as their keys do. Integers are their value (uint64 with the sign bit flipped);
 * floats map so that -0.0 and 0.0 have the same key, every NaN the largest key (NaN sorts last,
 * after +inf), and the rest the order of their values. Keys only compare: the elements themselves
 * are moved as raw bytes ({@link #copy}), so signed zeros and NaN payloads keep their bits.
 */
final class OrderKeys {
    private OrderKeys() {
    }

    /** The key of one element at a byte offset. */
    @FunctionalInterface
    interface KeyReader {
        long key(MemorySegment segment, long byteOffset);
    }

    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;

    /** The key reader of {@code dtype}; complex dtypes have no single key and are refused by the callers first. */
    static KeyReader reader(DType dtype) {
        return switch (dtype) {
            case FLOAT64 -> (segment, offset) -> floatKey(segment.get(F64, offset));
            case FLOAT32 -> (segment, offset) -> floatKey(segment.get(F32, offset));
            case FLOAT16 -> (segment, offset) -> floatKey(Float.float16ToFloat(segment.get(I16, offset)));
            case INT64 -> (segment, offset) -> segment.get(I64, offset);
            case UINT64 -> (segment, offset) -> segment.get(I64, offset) ^ Long.MIN_VALUE;
            case INT32 -> (segment, offset) -> segment.get(I32, offset);
            case UINT32 -> (segment, offset) -> Integer.toUnsignedLong(segment.get(I32, offset));
            case INT16 -> (segment, offset) -> segment.get(I16, offset);
            case UINT16 -> (segment, offset) -> Short.toUnsignedLong(segment.get(I16, offset));
            case INT8 -> (segment, offset) -> segment.get(ValueLayout.JAVA_BYTE, offset);
            case UINT8 -> (segment, offset) -> Byte.toUnsignedLong(segment.get(ValueLayout.JAVA_BYTE, offset));
            case BOOL -> (segment, offset) -> segment.get(ValueLayout.JAVA_BYTE, offset) != 0 ? 1 : 0;
            case COMPLEX64, COMPLEX128 -> throw complex(dtype);
        };
    }

    static UnsupportedOperationException complex(DType dtype) {
        return new UnsupportedOperationException("sorting across chunks orders real numbers and bools; " + dtype.numpyName()
                + " (complex) blocks can be sorted in memory with NDArrays.sort");
    }

    /** NumPy's float order as a signed key: NaN largest, -0.0 equal to 0.0, negatives below positives. */
    static long floatKey(double value) {
        if (value != value) {
            return Long.MAX_VALUE;
        }
        if (value == 0) {
            return 0;
        }
        long bits = Double.doubleToRawLongBits(value);
        return bits < 0 ? bits ^ Long.MAX_VALUE : bits;
    }

    /** Copies one element of {@code itemSize} bytes. */
    static void copy(MemorySegment from, long fromOffset, MemorySegment to, long toOffset, int itemSize) {
        switch (itemSize) {
            case 8 -> to.set(I64, toOffset, from.get(I64, fromOffset));
            case 4 -> to.set(I32, toOffset, from.get(I32, fromOffset));
            case 2 -> to.set(I16, toOffset, from.get(I16, fromOffset));
            case 1 -> to.set(ValueLayout.JAVA_BYTE, toOffset, from.get(ValueLayout.JAVA_BYTE, fromOffset));
            default -> MemorySegment.copy(from, fromOffset, to, toOffset, itemSize);
        }
    }
}
