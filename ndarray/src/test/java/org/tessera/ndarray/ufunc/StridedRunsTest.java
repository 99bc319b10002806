package org.tessera.ndarray.ufunc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * Operands that are rows with gaps between them (the interior of a block, a column band) run each
 * row through the contiguous kernel, and a full reduction of such a view folds row by row as
 * NumPy's iterator does: the values must be those of the element-by-element definition, and the
 * gaps must be left alone.
 */
class StridedRunsTest {
    private static final List<Ufunc> UFUNCS = List.of(Ufuncs.ADD, Ufuncs.SUBTRACT, Ufuncs.MULTIPLY, Ufuncs.TRUE_DIVIDE);

    private static NDArray random(DType dtype, long rows, long columns, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        NDArray array = NDArray.zeros(dtype, rows, columns);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < columns; j++) {
                if (dtype.isInteger()) {
                    array.setLong(random.nextLong(1, 1000), i, j);
                } else {
                    array.setDouble(random.nextDouble(-10, 10), i, j);
                }
            }
        }
        return array;
    }

    /** Rows 1..rows-2 and columns 2..columns-2 (rows of columns-3 elements with gaps between them). */
    private static NDArray interior(NDArray array) {
        return array.slice(0, 1, 1, array.shape(0) - 2).slice(1, 2, 1, array.shape(1) - 3);
    }

    @Test
    void ufuncsOverRowsWithGapsGiveTheElementwiseValues() {
        for (DType dtype : List.of(DType.FLOAT64, DType.INT64)) {
            // 1000 columns: runs long enough for the vector kernels, with a tail; 7: shorter than a vector.
            for (long columns : new long[] {1000, 7}) {
                NDArray x = interior(random(dtype, 6, columns, 1));
                NDArray y = interior(random(dtype, 6, columns, 2));
                for (Ufunc ufunc : UFUNCS) {
                    if (dtype.isInteger() && ufunc == Ufuncs.TRUE_DIVIDE) {
                        continue;
                    }
                    NDArray target = random(dtype, 6, columns, 3);
                    NDArray before = target.copy();
                    NDArray out = interior(target);
                    ufunc.apply(new Object[] {x, y}, new NDArray[] {out}, null, org.tessera.ndarray.dtype.Casting.SAME_KIND);
                    for (long i = 0; i < 6; i++) {
                        for (long j = 0; j < columns; j++) {
                            boolean inside = i >= 1 && i < 5 && j >= 2 && j < columns - 1;
                            String where = ufunc.name() + " " + dtype + " at (" + i + ", " + j + ")";
                            if (!inside) {
                                assertEquals(before.getDouble(i, j), target.getDouble(i, j), "a gap, " + where);
                            } else if (dtype.isInteger()) {
                                long a = x.getLong(i - 1, j - 2);
                                long b = y.getLong(i - 1, j - 2);
                                long expected = ufunc == Ufuncs.ADD ? a + b : ufunc == Ufuncs.SUBTRACT ? a - b : a * b;
                                assertEquals(expected, target.getLong(i, j), where);
                            } else {
                                double a = x.getDouble(i - 1, j - 2);
                                double b = y.getDouble(i - 1, j - 2);
                                double expected = ufunc == Ufuncs.ADD ? a + b : ufunc == Ufuncs.SUBTRACT ? a - b : ufunc == Ufuncs.MULTIPLY ? a * b : a / b;
                                assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(target.getDouble(i, j)), where);
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void theSumOfAViewWithGapsFoldsItsRowsInOrder() {
        NDArray x = interior(random(DType.FLOAT64, 300, 1000, 4));
        // NumPy hands its inner loop one row at a time: each row's pairwise sum, added in turn.
        double expected = 0;
        for (long row = 0; row < x.shape(0); row++) {
            expected += Statistics.sum(x.slice(0, row, 1, 1).copy(), Reductions.Options.all()).getDouble();
        }
        assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(Statistics.sum(x, Reductions.Options.all()).getDouble()));
        long integers = 0;
        NDArray whole = interior(random(DType.INT64, 50, 40, 5));
        for (long i = 0; i < whole.shape(0); i++) {
            for (long j = 0; j < whole.shape(1); j++) {
                integers += whole.getLong(i, j);
            }
        }
        assertEquals(integers, Statistics.sum(whole, Reductions.Options.all()).getLong());
    }
}
