package org.tessera.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.tessera.ndarray.NDArray;

/** Element-by-element equality of two arrays: same dtype, same shape, same values. */
final class ArrayAssertions {
    private ArrayAssertions() {
    }

    static void assertSameArray(NDArray expected, NDArray actual) {
        assertEquals(expected.dtype(), actual.dtype(), "dtype");
        assertArrayEquals(expected.shape(), actual.shape(), "shape");
        NDArray expectedValues = expected.ravel();
        NDArray actualValues = actual.ravel();
        for (long position = 0; position < expectedValues.size(); position++) {
            double wanted = expectedValues.getDouble(position);
            double found = actualValues.getDouble(position);
            if (Double.compare(wanted, found) != 0) {
                throw new AssertionError("element " + position + " (flat) differs: expected " + wanted + ", found " + found);
            }
        }
    }
}
