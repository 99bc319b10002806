package org.tessera.ndarray.ufunc;

import java.util.function.LongBinaryOperator;

import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.kernel.Lanes;

/**
 * Integer semantics on long-lane values (narrow types sign- or zero-extended, uint64 as raw bits):
 * results are computed on the extended values and wrap when stored, which is C's wrapping for every
 * width. Only uint64 needs unsigned Java operations. Division by zero gives 0, as in NumPy 2.
 */
final class IntegerMath {
    private IntegerMath() {}

    static long floorDivide(DType dtype, long a, long b) {
        return divide(dtype, a, b, Math::floorDiv, Long::divideUnsigned);
    }

    static long remainder(DType dtype, long a, long b) {
        return divide(dtype, a, b, Math::floorMod, Long::remainderUnsigned);
    }

    private static long divide(DType dtype, long a, long b, LongBinaryOperator signed, LongBinaryOperator unsigned) {
        if (b == 0) {
            return 0;
        }
        return (dtype == DType.UINT64 ? unsigned : signed).applyAsLong(a, b);
    }

    /** Exponentiation by squaring, wrapping; a negative exponent is NumPy's ValueError. */
    static long power(DType dtype, long base, long exponent) {
        if (exponent < 0 && dtype.kind() == DType.Kind.SIGNED) {
            throw new IllegalArgumentException("Integers to negative integer powers are not allowed.");
        }
        long result = 1;
        long factor = base;
        long remaining = exponent;
        while (remaining != 0) {
            if ((remaining & 1) != 0) {
                result *= factor;
            }
            factor *= factor;
            remaining >>>= 1;
        }
        return result;
    }

    static int compare(DType dtype, long a, long b) {
        return dtype == DType.UINT64 ? Long.compareUnsigned(a, b) : Long.compare(a, b);
    }

    static long maximum(DType dtype, long a, long b) {
        return compare(dtype, a, b) >= 0 ? a : b;
    }

    static long minimum(DType dtype, long a, long b) {
        return compare(dtype, a, b) <= 0 ? a : b;
    }

    static long absolute(DType dtype, long a) {
        return dtype.isUnsigned() ? a : Math.abs(a);
    }

    static long sign(DType dtype, long a) {
        return dtype.isUnsigned() ? (a != 0 ? 1 : 0) : Long.signum(a);
    }

    /** C's {@code 1.0 / a} converted back to the integer type (x86-64 truncation for 1/0). */
    static long reciprocal(DType dtype, long a) {
        double value = dtype == DType.UINT64 ? Lanes.unsignedToDouble(a) : a;
        return Lanes.toInteger(1.0 / value, dtype);
    }

    /** Shifts of the type's width or more give 0, as NumPy defines them (C leaves them undefined). */
    static long leftShift(DType dtype, long a, long b) {
        return Long.compareUnsigned(b, dtype.byteSize() * 8L) < 0 ? a << b : 0;
    }

    /** Arithmetic for signed types (a negative value shifted out gives -1), logical for unsigned. */
    static long rightShift(DType dtype, long a, long b) {
        if (Long.compareUnsigned(b, dtype.byteSize() * 8L) < 0) {
            return dtype == DType.UINT64 ? a >>> b : a >> b;
        }
        return a < 0 && !dtype.isUnsigned() ? -1 : 0;
    }

    static long clip(DType dtype, long a, long low, long high) {
        return minimum(dtype, maximum(dtype, a, low), high);
    }
}
