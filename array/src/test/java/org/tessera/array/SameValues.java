package org.tessera.array;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.tessera.ndarray.NDArray;

/** Assertions that two arrays hold the same values, for tests of paths that must agree bit for bit. */
public final class SameValues {
    private SameValues() {
    }

    /** The same shape and, element by element in C order, the same float64 values. */
    public static void assertSameValues(NDArray expected, NDArray actual, String label) {
        assertArrayEquals(expected.shape(), actual.shape(), label);
        NDArray flatExpected = expected.reshape(-1);
        NDArray flatActual = actual.reshape(-1);
        for (long position = 0; position < expected.size(); position++) {
            assertEquals(flatExpected.getDouble(position), flatActual.getDouble(position), label + " at " + position);
        }
    }
}
