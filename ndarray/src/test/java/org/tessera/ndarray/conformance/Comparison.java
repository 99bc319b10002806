package org.tessera.ndarray.conformance;

import java.util.Arrays;

import com.fasterxml.jackson.databind.JsonNode;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;

/**
 * Compares a result with an expected corpus array by FORMAT.md's rules: dtype and shape exactly;
 * values exactly, NaN equal to NaN and the sign of zero ignored, or within a relative tolerance
 * for the suites that allow one.
 */
public final class Comparison {
    private Comparison() {}

    /** A description of the first difference, or null when {@code actual} matches. */
    public static String mismatch(JsonNode expectedNode, NDArray actual, double relativeTolerance) {
        return mismatch(expectedNode, actual, (expected, value, dtype) -> close(expected, value, relativeTolerance));
    }

    /**
     * Like {@link #mismatch(JsonNode, NDArray, double)} for transcendental functions: floats may
     * differ by {@code ulps} units in the last place of their own precision.
     */
    public static String mismatchInUlps(JsonNode expectedNode, NDArray actual, int ulps) {
        return mismatch(expectedNode, actual, (expected, value, dtype) -> withinUlps(expected, value, dtype, ulps));
    }

    /** Whether a float element matches its expected value. */
    @FunctionalInterface
    interface FloatCheck {
        boolean test(double expected, double actual, DType dtype);
    }

    /** A description of the first difference by {@code check} for float elements (others exact). */
    static String mismatch(JsonNode expectedNode, NDArray actual, FloatCheck check) {
        NDArray expected = Decoding.array(expectedNode);
        if (expected.dtype() != actual.dtype()) {
            return "dtype " + actual.dtype() + ", expected " + expected.dtype();
        }
        if (!Arrays.equals(expected.shape(), actual.shape())) {
            return "shape " + Shapes.format(actual.shape()) + ", expected " + Shapes.format(expected.shape());
        }
        NDArray expectedFlat = expected.reshape(expected.size());
        NDArray actualFlat = actual.copy().reshape(actual.size());
        for (long i = 0; i < expected.size(); i++) {
            boolean equal = switch (expected.dtype().kind()) {
                case BOOL, SIGNED, UNSIGNED -> expectedFlat.getLong(i) == actualFlat.getLong(i);
                case FLOAT -> check.test(expectedFlat.getDouble(i), actualFlat.getDouble(i), expected.dtype());
                case COMPLEX -> check.test(expectedFlat.getComplex(i).real(), actualFlat.getComplex(i).real(), expected.dtype().realType())
                        && check.test(expectedFlat.getComplex(i).imag(), actualFlat.getComplex(i).imag(), expected.dtype().realType());
            };
            if (!equal) {
                return "flat element " + i + " is " + actualFlat.reshape(actualFlat.size()).take(0, i).item()
                        + ", expected " + expectedFlat.take(0, i).item();
            }
        }
        return null;
    }

    static boolean withinUlps(double expected, double actual, DType dtype, int ulps) {
        if (Double.isNaN(expected) || Double.isNaN(actual)) {
            return Double.isNaN(expected) && Double.isNaN(actual);
        }
        if (expected == actual) {
            return true;
        }
        if (Double.isInfinite(expected) || Double.isInfinite(actual)) {
            return false;
        }
        return Math.abs(expected - actual) <= ulps * ulp(expected, dtype);
    }

    /** The spacing of {@code dtype}'s values at {@code value}. */
    static double ulp(double value, DType dtype) {
        return switch (dtype) {
            case FLOAT16 -> Math.scalb(1.0, Math.max(Math.getExponent(value), -14) - 10);
            case FLOAT32, COMPLEX64 -> Math.ulp((float) value);
            default -> Math.ulp(value);
        };
    }

    static boolean close(double expected, double actual, double relativeTolerance) {
        if (Double.isNaN(expected) || Double.isNaN(actual)) {
            return Double.isNaN(expected) && Double.isNaN(actual);
        }
        if (expected == actual) {
            return true;
        }
        return Math.abs(expected - actual) <= relativeTolerance * Math.max(Math.abs(expected), 1.0);
    }

    /**
     * FORMAT.md's comparison of transforms: dtype and shape exactly, every real and imaginary part
     * within 1e-12 (float64, complex128), 1e-5 (float32, complex64) or 1e-3 (float16) times the
     * largest modulus of NumPy's result; NaN equal to NaN.
     */
    public static String mismatchRelativeToLargest(JsonNode expectedNode, NDArray actual) {
        NDArray expected = Decoding.array(expectedNode);
        if (expected.dtype() != actual.dtype()) {
            return "dtype " + actual.dtype() + ", expected " + expected.dtype();
        }
        if (!Arrays.equals(expected.shape(), actual.shape())) {
            return "shape " + Shapes.format(actual.shape()) + ", expected " + Shapes.format(expected.shape());
        }
        double tolerance = switch (expected.dtype().realType()) {
            case FLOAT16 -> 1e-3;
            case FLOAT32 -> 1e-5;
            default -> 1e-12;
        };
        NDArray expectedFlat = expected.reshape(expected.size());
        NDArray actualFlat = actual.copy().reshape(actual.size());
        boolean complex = expected.dtype().isComplex();
        double largest = 0;
        for (long i = 0; i < expected.size(); i++) {
            double modulus = complex ? Math.hypot(expectedFlat.getComplex(i).real(), expectedFlat.getComplex(i).imag())
                    : Math.abs(expectedFlat.getDouble(i));
            largest = Double.isNaN(modulus) ? largest : Math.max(largest, modulus);
        }
        double allowed = tolerance * (largest == 0 ? 1.0 : largest);
        for (long i = 0; i < expected.size(); i++) {
            boolean close = complex
                    ? closeWithin(expectedFlat.getComplex(i).real(), actualFlat.getComplex(i).real(), allowed)
                            && closeWithin(expectedFlat.getComplex(i).imag(), actualFlat.getComplex(i).imag(), allowed)
                    : closeWithin(expectedFlat.getDouble(i), actualFlat.getDouble(i), allowed);
            if (!close) {
                return "flat element " + i + " is " + actualFlat.take(0, i).item() + ", expected " + expectedFlat.take(0, i).item()
                        + " (allowed difference " + allowed + ", dtype " + expected.dtype() + ")";
            }
        }
        return null;
    }

    private static boolean closeWithin(double expected, double actual, double allowed) {
        if (Double.isNaN(expected) || Double.isNaN(actual)) {
            return Double.isNaN(expected) && Double.isNaN(actual);
        }
        return expected == actual || Math.abs(expected - actual) <= allowed;
    }

    /** Whether the zeros of a float result carry the signs the expected array gives them, element by element. */
    public static String zeroSignMismatch(JsonNode expectedNode, NDArray actual) {
        NDArray expected = Decoding.array(expectedNode);
        if (!expected.dtype().isFloat()) {
            return null;
        }
        NDArray expectedFlat = expected.reshape(expected.size());
        NDArray actualFlat = actual.copy().reshape(actual.size());
        for (long i = 0; i < expected.size(); i++) {
            double want = expectedFlat.getDouble(i);
            double got = actualFlat.getDouble(i);
            if (want == 0 && (Double.doubleToRawLongBits(want) != 0) != (Double.doubleToRawLongBits(got) != 0)) {
                return "flat element " + i + " is " + got + ", expected " + want + " (a stable sort keeps zeros in input order)";
            }
        }
        return null;
    }
}
