package org.tessera.ndarray.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.ArgumentTypeException;
import org.tessera.ndarray.error.ShapeMismatchException;

/** Boolean scalar indices and the broadcasting of assigned values, as NumPy reads them. */
class CornerIndexingTest {

    /** 0, 1, 2, ... as int64 in shape (3, 4). */
    private static NDArray grid() {
        return NDArrays.arange(12).astype(DType.INT64).reshape(3, 4);
    }

    private static NDArray ints(long... shape) {
        return NDArray.zeros(DType.INT64, shape);
    }

    @Test
    void aBooleanScalarIsANewAxisOfLengthOneOrZero() {
        NDArray x = grid();
        NDArray selected = Indexing.get(x, Index.of(true));
        assertArrayEquals(new long[] {1, 3, 4}, selected.shape());
        assertEquals(7, selected.getLong(0, 1, 3));
        assertArrayEquals(new long[] {0, 3, 4}, Indexing.get(x, Index.of(false)).shape());
        assertArrayEquals(new long[] {3, 4, 1}, Indexing.get(x, Index.ellipsis(), Index.of(true)).shape());
        assertArrayEquals(new long[] {3, 4, 0}, Indexing.get(x, Index.ellipsis(), Index.of(false)).shape());
        // A 0-d boolean array is the same index.
        assertArrayEquals(new long[] {1, 3, 4}, Indexing.get(x, Index.of(NDArray.scalar(true))).shape());
        assertArrayEquals(new long[] {0, 3, 4}, Indexing.get(x, Index.of(NDArray.scalar(false))).shape());
        // On a 0-d array too.
        assertArrayEquals(new long[] {1}, Indexing.get(NDArray.scalar(5L), Index.of(true)).shape());
    }

    @Test
    void aBooleanScalarConsumesNoAxisAndBroadcastsWithTheOtherIndexArrays() {
        NDArray x = grid();
        // True's index array (1,) broadcasts with [0, 2]; both are adjacent, so B = (2,) goes in place.
        NDArray pairs = Indexing.get(x, Index.of(true), Index.of(NDArrays.array(0L, 2L)));
        assertArrayEquals(new long[] {2, 4}, pairs.shape());
        assertEquals(8, pairs.getLong(1, 0));
        // An integer too: x[0, True] is row 0 with a leading axis of 1.
        NDArray row = Indexing.get(x, Index.at(0), Index.of(true));
        assertArrayEquals(new long[] {1, 4}, row.shape());
        assertEquals(3, row.getLong(0, 3));
        // Separated by a slice, the broadcast axes go first.
        assertArrayEquals(new long[] {1, 4}, Indexing.get(x, Index.at(1), Index.all(), Index.of(true)).shape());
        // Two integers and a boolean index a 2-D array completely: no "too many indices".
        assertArrayEquals(new long[] {1}, Indexing.get(x, Index.of(true), Index.at(2), Index.at(3)).shape());
    }

    @Test
    void anIntegerOutOfBoundsRaisesEvenWhenFalseSelectsNothing() {
        NDArray x = grid();
        IndexOutOfBoundsException thrown = assertThrows(IndexOutOfBoundsException.class, () -> Indexing.get(x, Index.of(false), Index.at(9)));
        assertTrue(thrown.getMessage().contains("9"), thrown.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> Indexing.get(x, Index.of(true), Index.at(0), Index.at(0), Index.at(0)));
    }

    @Test
    void aMaskAxisOfLengthZeroMatchesAnyLength() {
        NDArray x = grid();
        assertArrayEquals(new long[] {0, 4}, Indexing.get(x, Index.of(NDArray.zeros(DType.BOOL, 0))).shape());
        assertThrows(IndexOutOfBoundsException.class, () -> Indexing.get(x, Index.of(NDArray.zeros(DType.BOOL, 2))));
    }

    @Test
    void assignmentThroughBooleanScalars() {
        NDArray x = grid();
        Indexing.set(x, NDArray.zeros(DType.INT64, 1, 1, 3, 4), Index.of(true));
        assertEquals(0, NDArrays.sum(x).getLong());
        NDArray y = grid();
        Indexing.set(y, ints(3, 4), Index.of(false));
        assertEquals(66, NDArrays.sum(y).getLong(), "False selects nothing");
        ShapeMismatchException thrown = assertThrows(ShapeMismatchException.class, () -> Indexing.set(y, ints(2, 4), Index.of(false)));
        assertTrue(thrown.getMessage().contains("(2,4)") && thrown.getMessage().contains("(0,3,4)"), thrown.getMessage());
    }

    @Test
    void aValueWithMoreAxesLosesLeadingOnesOrReadsAsItsTrailingAxesThroughAnAdvancedIndex() {
        NDArray x = grid();
        // Basic: leading axes of length 1 go.
        Indexing.set(x, ints(1, 1, 4), Index.at(0));
        assertEquals(0, x.getLong(0, 3));
        // Basic: a leading axis of another length does not, even for an empty selection.
        assertThrows(ShapeMismatchException.class, () -> Indexing.set(grid(), ints(2, 0, 4), Index.range(0L, 0L, null)));
        // Advanced: an empty value fits an empty selection whatever its leading axes.
        NDArray y = grid();
        Indexing.set(y, ints(3, 0, 4), Index.of(ints(0)));
        assertEquals(66, NDArrays.sum(y).getLong());
        // Advanced: but a value with elements must have as many as its trailing axes hold.
        assertThrows(ShapeMismatchException.class, () -> Indexing.set(grid(), ints(2, 1, 4), Index.of(NDArrays.array(0L, 1L))));
    }

    @Test
    void aMaskOverEveryAxisTakesAValueOfAtMostOneAxis() {
        NDArray mask = NDArrays.ones(DType.BOOL, 3, 4);
        NDArray x = grid();
        ArgumentTypeException refused = assertThrows(ArgumentTypeException.class, () -> Indexing.set(x, ints(1, 12), Index.of(mask)));
        assertTrue(refused.getMessage().contains("(1,12)"), refused.getMessage());
        assertThrows(ShapeMismatchException.class, () -> Indexing.set(x, ints(5), Index.of(mask)));
        Indexing.set(x, ints(12), Index.of(mask));
        assertEquals(0, NDArrays.sum(x).getLong());
        // The same value through a mask over the leading axis only broadcasts as usual.
        Indexing.set(grid(), ints(1, 1, 4), Index.of(NDArrays.ones(DType.BOOL, 3)));
    }

    @Test
    void oneIntegerPerAxisTakesOnlyAScalarUnlessTheArrayIsBoolean() {
        ShapeMismatchException thrown = assertThrows(ShapeMismatchException.class, () -> Indexing.set(grid(), ints(1), Index.at(1), Index.at(1)));
        assertTrue(thrown.getMessage().contains("(3,4)"), thrown.getMessage());
        assertThrows(ArgumentTypeException.class, () -> Indexing.set(NDArray.zeros(DType.COMPLEX128, 2), ints(1), Index.at(1)));
        NDArray flags = NDArray.zeros(DType.BOOL, 2, 2);
        Indexing.set(flags, NDArrays.ones(DType.BOOL, 1, 1), Index.at(1), Index.at(0));
        assertTrue(flags.getBoolean(1, 0));
        NDArray x = grid();
        Indexing.set(x, ints(), Index.at(1), Index.at(1));
        assertEquals(0, x.getLong(1, 1));
    }
}
