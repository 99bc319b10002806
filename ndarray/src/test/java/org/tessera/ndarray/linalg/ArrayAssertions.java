package org.tessera.ndarray.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.Complex;
import org.tessera.ndarray.dtype.DType;

/** Dtype, shape and values; floats within a relative tolerance suited to their precision. */
final class ArrayAssertions {
    private ArrayAssertions() {}

    static void assertClose(NDArray expected, NDArray actual) {
        assertEquals(expected.dtype(), actual.dtype(), "dtype");
        assertArrayEquals(expected.shape(), actual.shape(), "shape");
        double tolerance = expected.dtype().realType() == DType.FLOAT64 ? 1e-12 : 1e-5;
        NDArray expectedFlat = expected.copy().reshape(expected.size());
        NDArray actualFlat = actual.copy().reshape(actual.size());
        for (long i = 0; i < expected.size(); i++) {
            switch (expected.dtype().kind()) {
                case BOOL, SIGNED, UNSIGNED -> assertEquals(expectedFlat.getLong(i), actualFlat.getLong(i), "element " + i);
                case FLOAT -> close(expectedFlat.getDouble(i), actualFlat.getDouble(i), tolerance, i);
                case COMPLEX -> {
                    Complex e = expectedFlat.getComplex(i), a = actualFlat.getComplex(i);
                    close(e.real(), a.real(), tolerance, i);
                    close(e.imag(), a.imag(), tolerance, i);
                }
            }
        }
    }

    /** Relative to the magnitude of the sum's terms (about 1 for the random inputs here) scaled by depth. */
    private static void close(double expected, double actual, double tolerance, long index) {
        if (Math.abs(expected - actual) > tolerance * Math.max(1.0, Math.abs(expected)) * 64) {
            fail("element " + index + " is " + actual + ", expected " + expected);
        }
    }
}
