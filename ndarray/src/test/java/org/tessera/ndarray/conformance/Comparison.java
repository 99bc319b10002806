package org.tessera.ndarray.conformance;

import java.util.Arrays;

import com.fasterxml.jackson.databind.JsonNode;

import org.tessera.ndarray.NDArray;
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
                case FLOAT -> close(expectedFlat.getDouble(i), actualFlat.getDouble(i), relativeTolerance);
                case COMPLEX -> close(expectedFlat.getComplex(i).real(), actualFlat.getComplex(i).real(), relativeTolerance)
                        && close(expectedFlat.getComplex(i).imag(), actualFlat.getComplex(i).imag(), relativeTolerance);
            };
            if (!equal) {
                return "flat element " + i + " is " + actualFlat.reshape(actualFlat.size()).take(0, i).item()
                        + ", expected " + expectedFlat.take(0, i).item();
            }
        }
        return null;
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
}
