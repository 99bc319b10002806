package org.tessera.ndarray.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.tessera.ndarray.dtype.DType;

/**
 * Loads and stores of one element in its carrier: {@code long} for bool and integers (unsigned
 * values zero-extended, uint64 as its raw bits), {@code double} for floats, two doubles for complex.
 * This is the cold, per-element path (element access, printing, casts of a few values); kernels
 * use their own typed loops. All accesses are native byte order and need no alignment.
 */
public final class Elements {
    private Elements() {}

    static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;
    static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    /** Bool and integer types: the value as a long (unsigned types zero-extended). */
    public static long loadLong(DType dtype, MemorySegment segment, long byteOffset) {
        return switch (dtype) {
            case BOOL -> segment.get(ValueLayout.JAVA_BYTE, byteOffset) != 0 ? 1 : 0;
            case INT8 -> segment.get(ValueLayout.JAVA_BYTE, byteOffset);
            case UINT8 -> Byte.toUnsignedLong(segment.get(ValueLayout.JAVA_BYTE, byteOffset));
            case INT16 -> segment.get(I16, byteOffset);
            case UINT16 -> Short.toUnsignedLong(segment.get(I16, byteOffset));
            case INT32 -> segment.get(I32, byteOffset);
            case UINT32 -> Integer.toUnsignedLong(segment.get(I32, byteOffset));
            case INT64, UINT64 -> segment.get(I64, byteOffset);
            default -> throw notOfKind(dtype, "an integer or bool");
        };
    }

    /** Bool and integer types: stores the low bits of {@code value} (bool stores value != 0). */
    public static void storeLong(DType dtype, MemorySegment segment, long byteOffset, long value) {
        switch (dtype) {
            case BOOL -> segment.set(ValueLayout.JAVA_BYTE, byteOffset, (byte) (value != 0 ? 1 : 0));
            case INT8, UINT8 -> segment.set(ValueLayout.JAVA_BYTE, byteOffset, (byte) value);
            case INT16, UINT16 -> segment.set(I16, byteOffset, (short) value);
            case INT32, UINT32 -> segment.set(I32, byteOffset, (int) value);
            case INT64, UINT64 -> segment.set(I64, byteOffset, value);
            default -> throw notOfKind(dtype, "an integer or bool");
        }
    }

    /** Float types: the value widened to double; complex types: the real part. */
    public static double loadReal(DType dtype, MemorySegment segment, long byteOffset) {
        return switch (dtype) {
            case FLOAT16 -> Float.float16ToFloat(segment.get(I16, byteOffset));
            case FLOAT32, COMPLEX64 -> segment.get(F32, byteOffset);
            case FLOAT64, COMPLEX128 -> segment.get(F64, byteOffset);
            default -> throw notOfKind(dtype, "a float or complex");
        };
    }

    /** Complex types: the imaginary part. */
    public static double loadImag(DType dtype, MemorySegment segment, long byteOffset) {
        return switch (dtype) {
            case COMPLEX64 -> segment.get(F32, byteOffset + 4);
            case COMPLEX128 -> segment.get(F64, byteOffset + 8);
            default -> throw notOfKind(dtype, "a complex");
        };
    }

    /** Float types: stores {@code value} rounded to the type (round half to even). */
    public static void storeReal(DType dtype, MemorySegment segment, long byteOffset, double value) {
        switch (dtype) {
            case FLOAT16 -> segment.set(I16, byteOffset, Float16s.fromDouble(value));
            case FLOAT32 -> segment.set(F32, byteOffset, (float) value);
            case FLOAT64 -> segment.set(F64, byteOffset, value);
            case COMPLEX64 -> storeComplex(dtype, segment, byteOffset, value, 0.0);
            case COMPLEX128 -> storeComplex(dtype, segment, byteOffset, value, 0.0);
            default -> throw notOfKind(dtype, "a float or complex");
        }
    }

    /** Complex types: stores both parts rounded to the part type. */
    public static void storeComplex(DType dtype, MemorySegment segment, long byteOffset, double real, double imag) {
        switch (dtype) {
            case COMPLEX64 -> {
                segment.set(F32, byteOffset, (float) real);
                segment.set(F32, byteOffset + 4, (float) imag);
            }
            case COMPLEX128 -> {
                segment.set(F64, byteOffset, real);
                segment.set(F64, byteOffset + 8, imag);
            }
            default -> throw notOfKind(dtype, "a complex");
        }
    }

    private static IllegalArgumentException notOfKind(DType dtype, String expected) {
        return new IllegalArgumentException("dtype " + dtype + " is not " + expected + " type");
    }
}
