package org.tessera.ndarray;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;

/** Arrays of more than 2^31 elements: long sizes, offsets and indices throughout. */
class LargeArrayTest {
    private static final long LENGTH = (1L << 31) + 16;

    @Test
    void anOffHeapArrayBeyondTwoToTheThirtyOneElementsCanBeCreatedViewedAndIndexed() {
        NDArray x = NDArray.zerosNative(DType.INT8, LENGTH);
        assertEquals(LENGTH, x.size());
        assertTrue(x.segment().isNative());

        x.setLong(7, LENGTH - 1);
        x.setLong(-3, (1L << 31) + 1);
        assertEquals(7, x.getLong(-1));

        NDArray tail = NDArrays.get(x, Index.range(1L << 31, null, null));
        assertArrayEquals(new long[] {16}, tail.shape());
        assertEquals(-3, tail.getLong(1));
        assertEquals(7, tail.getLong(15));

        NDArray reversed = NDArrays.get(x, Index.range(null, null, -1L));
        assertEquals(7, reversed.getLong(0));

        NDArray grid = x.reshape(LENGTH / 16, 16);
        assertEquals(7, grid.getLong(LENGTH / 16 - 1, 15));
        NDArray column = grid.transpose().take(0, 15);
        assertEquals(LENGTH / 16, column.size());
        assertEquals(7, column.getLong(-1));

        NDArray picked = NDArrays.get(x, Index.of(NDArrays.array(LENGTH - 1, (1L << 31) + 1, 0L)));
        assertEquals(7, picked.getLong(0));
        assertEquals(-3, picked.getLong(1));
        assertEquals(0, picked.getLong(2));
    }
}
