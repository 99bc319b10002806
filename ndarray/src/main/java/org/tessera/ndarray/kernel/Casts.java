package org.tessera.ndarray.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.tessera.ndarray.dtype.DType;

/**
 * Conversion loops between dtypes with NumPy's unsafe-cast results on x86-64: out-of-range and NaN
 * float-to-integer conversions give what the hardware's truncating conversion gives (the lowest
 * value of the 32- or 64-bit register, then the low bits), complex to real drops the imaginary part.
 */
public final class Casts {
    private Casts() {}

    /** Converts {@code count} elements; strides are in bytes and may be 0 or negative. */
    public static void copy(DType from, MemorySegment source, long sourceByteOffset, long sourceByteStride,
                            DType to, MemorySegment target, long targetByteOffset, long targetByteStride, long count) {
        int itemSize = from.byteSize();
        if (from == to && sourceByteStride == itemSize && targetByteStride == itemSize) {
            MemorySegment.copy(source, sourceByteOffset, target, targetByteOffset, count * itemSize);
            return;
        }
        if (from == to && copiesBits(source, sourceByteOffset, sourceByteStride, target, targetByteOffset, targetByteStride, count, itemSize)) {
            return;
        }
        for (long i = 0; i < count; i++) {
            convertElement(from, source, sourceByteOffset + i * sourceByteStride, to, target, targetByteOffset + i * targetByteStride);
        }
    }

    /**
     * A strided copy within one dtype as loads and stores of its bits, one word per element (two for
     * complex128): through {@link MemorySegment#copy} each element paid a bulk copy's checks
     * (placing the transposed 2000 x 2000 block of W2's result: 15 of the run's 65 Java samples).
     * The elements go in the same order as one by one; false for item sizes other than 4, 8, 16.
     */
    private static boolean copiesBits(MemorySegment source, long sourceOffset, long sourceStride, MemorySegment target, long targetOffset, long targetStride,
                                      long count, int itemSize) {
        if (itemSize != Long.BYTES && itemSize != 2 * Long.BYTES && itemSize != Integer.BYTES) {
            return false;
        }
        for (long i = 0; i < count; i++) {
            long from = sourceOffset + i * sourceStride;
            long to = targetOffset + i * targetStride;
            if (itemSize == Integer.BYTES) {
                target.set(ValueLayout.JAVA_INT_UNALIGNED, to, source.get(ValueLayout.JAVA_INT_UNALIGNED, from));
            } else {
                target.set(ValueLayout.JAVA_LONG_UNALIGNED, to, source.get(ValueLayout.JAVA_LONG_UNALIGNED, from));
                if (itemSize == 2 * Long.BYTES) {
                    target.set(ValueLayout.JAVA_LONG_UNALIGNED, to + Long.BYTES, source.get(ValueLayout.JAVA_LONG_UNALIGNED, from + Long.BYTES));
                }
            }
        }
        return true;
    }

    /** Converts one element. */
    public static void convertElement(DType from, MemorySegment source, long sourceOffset, DType to, MemorySegment target, long targetOffset) {
        if (from == to) {
            MemorySegment.copy(source, sourceOffset, target, targetOffset, from.byteSize());
            return;
        }
        if (from.isInexact()) {
            double real = Elements.loadReal(from, source, sourceOffset);
            double imag = from.isComplex() ? Elements.loadImag(from, source, sourceOffset) : 0.0;
            storeInexact(from, real, imag, to, target, targetOffset);
            return;
        }
        storeInteger(from, Elements.loadLong(from, source, sourceOffset), to, target, targetOffset);
    }

    /**
     * Stores a float or complex value of dtype {@code from} (its parts as doubles) as one element of
     * {@code to}: the cast of {@link #convertElement} without a source element in memory, so a Java
     * scalar is written without staging it in a scratch segment first.
     */
    public static void storeInexact(DType from, double real, double imag, DType to, MemorySegment target, long targetOffset) {
        switch (to.kind()) {
            case BOOL -> Elements.storeLong(to, target, targetOffset, real != 0 || imag != 0 || Double.isNaN(real) ? 1 : 0);
            case SIGNED, UNSIGNED -> Elements.storeLong(to, target, targetOffset, truncate(real, to));
            case FLOAT -> Elements.storeReal(to, target, targetOffset, from == DType.FLOAT64 || from == DType.COMPLEX128 ? real : (float) real);
            case COMPLEX -> Elements.storeComplex(to, target, targetOffset, real, imag);
        }
    }

    /** Stores a bool or integer value of dtype {@code from} (uint64 as its bits) as one element of {@code to}. */
    public static void storeInteger(DType from, long value, DType to, MemorySegment target, long targetOffset) {
        switch (to.kind()) {
            case BOOL, SIGNED, UNSIGNED -> Elements.storeLong(to, target, targetOffset, value);
            case FLOAT, COMPLEX -> {
                double converted = from == DType.UINT64 && value < 0 ? unsignedToDouble(value) : (double) value;
                if (to == DType.FLOAT32 || to == DType.COMPLEX64) {
                    converted = from == DType.UINT64 && value < 0 ? unsignedToFloat(value) : (float) value;
                }
                if (to.isComplex()) {
                    Elements.storeComplex(to, target, targetOffset, converted, 0.0);
                } else {
                    Elements.storeReal(to, target, targetOffset, converted);
                }
            }
        }
    }

    private static double unsignedToDouble(long bits) {
        return new java.math.BigInteger(Long.toUnsignedString(bits)).doubleValue();
    }

    private static float unsignedToFloat(long bits) {
        return new java.math.BigInteger(Long.toUnsignedString(bits)).floatValue();
    }

    /** x86-64 truncation: cvttsd2si into a 32-bit register for narrow types, 64-bit otherwise. */
    static long truncate(double value, DType to) {
        boolean inLongRange = value >= -0x1p63 && value < 0x1p63;
        if (to == DType.UINT64) {
            if (value >= 0x1p63 && value < 0x1p64) {
                return (long) (value - 0x1p63) ^ Long.MIN_VALUE;
            }
            return inLongRange ? (long) value : Long.MIN_VALUE;
        }
        if (to == DType.INT64 || to == DType.UINT32) {
            return inLongRange ? (long) value : Long.MIN_VALUE;
        }
        boolean inIntRange = value > -0x1p31 - 1 && value < 0x1p31;
        return inIntRange ? (int) value : Integer.MIN_VALUE;
    }
}
