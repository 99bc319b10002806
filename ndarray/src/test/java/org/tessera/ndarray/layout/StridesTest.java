package org.tessera.ndarray.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StridesTest {
    @Test
    void contiguousStridesFollowTheOrder() {
        assertArrayEquals(new long[] {96, 32, 8}, Strides.contiguous(new long[] {2, 3, 4}, 8, Order.C));
        assertArrayEquals(new long[] {8, 16, 48}, Strides.contiguous(new long[] {2, 3, 4}, 8, Order.F));
    }

    @Test
    void axesOfLengthOneDoNotAffectContiguity() {
        assertTrue(Strides.isCContiguous(new long[] {3, 1, 4}, new long[] {32, 12345, 8}, 8));
        assertTrue(Strides.isFContiguous(new long[] {1, 5}, new long[] {0, 8}, 8));
        assertFalse(Strides.isCContiguous(new long[] {3, 4}, new long[] {8, 24}, 8));
    }

    @Test
    void anEmptyArrayIsContiguousWhateverItsStrides() {
        assertTrue(Strides.isCContiguous(new long[] {0, 4}, new long[] {7, 3}, 8));
        assertTrue(Strides.isFContiguous(new long[] {4, 0}, new long[] {7, 3}, 8));
    }

    @Test
    void mergingContiguousAxesIsAView() {
        assertArrayEquals(new long[] {8}, Strides.reshapeView(new long[] {3, 4}, new long[] {32, 8}, new long[] {12}, 8, Order.C));
        assertArrayEquals(new long[] {32, 16, 8}, Strides.reshapeView(new long[] {6, 2}, new long[] {16, 8}, new long[] {3, 2, 2}, 8, Order.C));
    }

    @Test
    void mergingAxesOfATransposeNeedsACopyInCOrderButNotInFOrder() {
        long[] shape = {4, 3};
        long[] strides = {8, 32};
        assertNull(Strides.reshapeView(shape, strides, new long[] {12}, 8, Order.C));
        assertArrayEquals(new long[] {8}, Strides.reshapeView(shape, strides, new long[] {12}, 8, Order.F));
    }

    @Test
    void splittingAStridedAxisKeepsItsStep() {
        assertArrayEquals(new long[] {48, 16}, Strides.reshapeView(new long[] {6}, new long[] {16}, new long[] {2, 3}, 8, Order.C));
    }

    @Test
    void resolvingMinusOneComputesTheMissingLength() {
        assertArrayEquals(new long[] {3, 4}, Shapes.resolveUnknownLength(12, new long[] {-1, 4}));
    }
}
