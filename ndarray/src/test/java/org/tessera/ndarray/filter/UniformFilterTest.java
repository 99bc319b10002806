package org.tessera.ndarray.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;

/**
 * The uniform filter against its definition: the mean of the window, the input extended by the
 * edge mode, summed first along the first axis. Both the one-pass 2-D path and the axis-by-axis
 * path must give it bit for bit, and agree with each other.
 */
class UniformFilterTest {
    private static final List<EdgeMode> MODES = List.of(EdgeMode.REFLECT, EdgeMode.MIRROR, EdgeMode.NEAREST, EdgeMode.WRAP, EdgeMode.constant(-2.5));

    private static NDArray random(long rows, long columns, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        NDArray array = NDArray.zeros(DType.FLOAT64, rows, columns);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < columns; j++) {
                array.setDouble(random.nextDouble(-5, 5), i, j);
            }
        }
        return array;
    }

    /** The definition, element by element: the window's columns each summed down its rows, then across. */
    private static double expected(NDArray x, long i, long j, int windowRows, int windowColumns, EdgeMode mode) {
        long rows = x.shape(0);
        long columns = x.shape(1);
        double constant = mode instanceof EdgeMode.Constant(double value) ? value : 0;
        double total = 0;
        for (int c = 0; c < windowColumns; c++) {
            long column = mode.sourceIndex(j - windowColumns / 2 + c, columns);
            double down = 0;
            for (int r = 0; r < windowRows; r++) {
                long row = mode.sourceIndex(i - windowRows / 2 + r, rows);
                double value = row < 0 || column < 0 ? constant : x.getDouble(row, column);
                down = r == 0 ? value : down + value;
            }
            total = c == 0 ? down : total + down;
        }
        return total / (windowRows * windowColumns);
    }

    @Test
    void everyElementIsTheMeanOfItsExtendedWindow() {
        NDArray x = random(9, 13, 1);
        for (EdgeMode mode : MODES) {
            for (int[] window : new int[][] {{3, 3}, {1, 4}, {5, 2}, {12, 30}}) {
                NDArray filtered = UniformFilter.apply(x, new long[] {window[0], window[1]}, mode);
                assertEquals(DType.FLOAT64, filtered.dtype());
                for (long i = 0; i < 9; i++) {
                    for (long j = 0; j < 13; j++) {
                        assertEquals(expected(x, i, j, window[0], window[1], mode), filtered.getDouble(i, j),
                                mode + " window " + window[0] + " x " + window[1] + " at (" + i + ", " + j + ")");
                    }
                }
            }
        }
    }

    @Test
    void theRowPassAndTheAxisByAxisPassAgreeBitForBit() {
        NDArray x = random(40, 1000, 2);
        for (EdgeMode mode : MODES) {
            NDArray rows = UniformFilter.apply(x, 3, mode);
            NDArray axes = UniformFilter.apply(x.reshape(1, 40, 1000), new long[] {1, 3, 3}, mode).reshape(40, 1000);
            for (long i = 0; i < 40; i++) {
                for (long j = 0; j < 1000; j++) {
                    assertEquals(Double.doubleToRawLongBits(rows.getDouble(i, j)), Double.doubleToRawLongBits(axes.getDouble(i, j)), mode + " at (" + i + ", " + j + ")");
                }
            }
        }
    }

    @Test
    void oneAndThreeAxesAndOtherDtypesAndViews() {
        NDArray line = NDArrays.array(new double[] {1, 2, 3, 4});
        // scipy.ndimage.uniform_filter([1., 2, 3, 4], 3): reflect gives (1+1+2)/3, (1+2+3)/3, ...
        assertArrayEquals(new double[] {4.0 / 3, 2, 3, 11.0 / 3}, values(UniformFilter.apply(line, 3, EdgeMode.REFLECT)));
        assertArrayEquals(new double[] {5.0 / 3, 2, 3, 10.0 / 3}, values(UniformFilter.apply(line, 3, EdgeMode.MIRROR)));
        assertArrayEquals(new double[] {7.0 / 3, 2, 3, 8.0 / 3}, values(UniformFilter.apply(line, 3, EdgeMode.WRAP)));
        NDArray cube = NDArrays.arange(0, 60, 1).reshape(3, 4, 5);
        NDArray filtered = UniformFilter.apply(cube, 3, EdgeMode.NEAREST);
        double sum = 0;
        for (int a = -1; a <= 1; a++) {
            for (int b = -1; b <= 1; b++) {
                for (int c = -1; c <= 1; c++) {
                    sum += Math.min(Math.max(1 + a, 0), 2) * 20 + Math.min(Math.max(3 + b, 0), 3) * 5 + Math.min(Math.max(4 + c, 0), 4);
                }
            }
        }
        assertEquals(sum / 27, filtered.getDouble(1, 3, 4), 1e-12, "int64 input, three axes, nearest");
        NDArray wide = random(12, 20, 3);
        NDArray view = wide.slice(1, 2, 1, 15).slice(0, 10, -2, 5);
        NDArray copied = view.copy();
        NDArray fromView = UniformFilter.apply(view, 3, EdgeMode.REFLECT);
        NDArray fromCopy = UniformFilter.apply(copied, 3, EdgeMode.REFLECT);
        for (long i = 0; i < 5; i++) {
            for (long j = 0; j < 15; j++) {
                assertEquals(fromCopy.getDouble(i, j), fromView.getDouble(i, j), "a strided view is filtered as its values");
            }
        }
    }

    private static double[] values(NDArray line) {
        double[] values = new double[(int) line.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = line.getDouble(i);
        }
        return values;
    }

    @Test
    void badWindowsAndDtypesAreRefusedByName() {
        NDArray x = random(3, 3, 4);
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> UniformFilter.apply(x, new long[] {3, 0}, EdgeMode.REFLECT));
        assertTrue(zero.getMessage().contains("window size 0 along axis 1"), zero.getMessage());
        IllegalArgumentException count = assertThrows(IllegalArgumentException.class, () -> UniformFilter.apply(x, new long[] {3}, EdgeMode.REFLECT));
        assertTrue(count.getMessage().contains("shape (3,3)"), count.getMessage());
        IllegalArgumentException complex = assertThrows(IllegalArgumentException.class,
                () -> UniformFilter.apply(NDArray.zeros(DType.COMPLEX128, 2, 2), 3, EdgeMode.REFLECT));
        assertTrue(complex.getMessage().contains("complex128"), complex.getMessage());
    }
}
