package org.tessera.ndarray.ufunc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Reductions.Options;

class StatisticsTest {

    @Test
    void pairwiseSumOfAMillionElementsIsAccurate() {
        Random random = new Random(42);
        int count = 1_000_000;
        double[] values = new double[count];
        double naive = 0;
        for (int i = 0; i < count; i++) {
            values[i] = random.nextDouble() * 1e3 + 0.1;
            naive += values[i];
        }
        double sum = Statistics.sum(NDArrays.array(values), Options.all()).getDouble();
        double reference = compensatedSum(values);
        double pairwiseError = Math.abs(sum - reference) / reference;
        // Pairwise summation errs by O(log n) ulps; the naive loop by O(n).
        assertTrue(pairwiseError < 1e-15, "relative error " + pairwiseError);
        assertTrue(pairwiseError <= Math.abs(naive - reference) / reference, "pairwise no worse than the naive loop");
    }

    /** Neumaier's compensated (Kahan-Babuska) sum: within an ulp or two of the exact sum. */
    private static double compensatedSum(double[] values) {
        double sum = 0;
        double compensation = 0;
        for (double value : values) {
            double next = sum + value;
            compensation += Math.abs(sum) >= Math.abs(value) ? (sum - next) + value : (value - next) + sum;
            sum = next;
        }
        return sum + compensation;
    }

    @Test
    void compensatedReferenceAgreesWithExactArithmetic() {
        double[] values = new Random(7).doubles(10_000, 0, 1e3).toArray();
        BigDecimal exact = BigDecimal.ZERO;
        for (double value : values) {
            exact = exact.add(new BigDecimal(value));
        }
        assertEquals(exact.round(MathContext.DECIMAL64).doubleValue(), compensatedSum(values), Math.ulp(exact.doubleValue()));
    }

    @Test
    void pairwiseSumAlongStridedRowsMatchesTheReference() {
        NDArray matrix = NDArrays.linspace(0, 1, 3000).reshape(1000, 3);
        NDArray columns = Statistics.sum(matrix, Options.axes(0));
        double expected = 0;
        for (int row = 0; row < 1000; row++) {
            expected += matrix.getDouble(row, 2);
        }
        assertEquals(expected, columns.getDouble(2), 1e-12 * expected);
    }

    @Test
    void meanVarianceAndStandardDeviation() {
        NDArray x = NDArrays.array(new int[] {1, 2, 3, 4});
        assertEquals(DType.FLOAT64, Statistics.mean(x, Options.all()).dtype());
        assertEquals(2.5, Statistics.mean(x, Options.all()).getDouble());
        assertEquals(1.25, Statistics.var(x, Options.all(), 0).getDouble(), 1e-15);
        assertEquals(5.0 / 3, Statistics.var(x, Options.all(), 1).getDouble(), 1e-15);
        assertEquals(Math.sqrt(1.25), Statistics.std(x, Options.all(), 0).getDouble(), 1e-15);
    }

    @Test
    void meanOfFloat16StaysFloat16() {
        NDArray halves = NDArrays.array(1.0, 2.0).astype(DType.FLOAT16);
        NDArray mean = Statistics.mean(halves, Options.all());
        assertEquals(DType.FLOAT16, mean.dtype());
        assertEquals(1.5, mean.getDouble());
    }

    @Test
    void varianceAlongAnAxisWithKeptDimensions() {
        NDArray x = NDArrays.array(new double[][] {{1, 3}, {5, 11}});
        NDArray variance = Statistics.var(x, Options.axes(1).withKeepdims(true), 0);
        assertArrayEquals(new long[] {2, 1}, variance.shape());
        assertEquals(1.0, variance.getDouble(0, 0));
        assertEquals(9.0, variance.getDouble(1, 0));
    }

    @Test
    void argmaxFindsTheFirstExtremeAndTheFirstNaN() {
        assertEquals(1L, Statistics.argmax(NDArrays.array(1.0, 5.0, 5.0), null, false).getLong());
        assertEquals(2L, Statistics.argmax(NDArrays.array(1.0, 5.0, Double.NaN, Double.NaN), null, false).getLong());
        assertEquals(0L, Statistics.nanargmax(NDArrays.array(9.0, Double.NaN, 5.0), null, false).getLong());
        NDArray perRow = Statistics.argmin(NDArrays.array(new double[][] {{3, 1}, {0, 2}}), 1, true);
        assertArrayEquals(new long[] {2, 1}, perRow.shape());
        assertEquals(0L, perRow.getLong(1, 0));
    }

    @Test
    void nanargmaxOfOnlyNaNIsAValueError() {
        assertThrows(IllegalArgumentException.class, () -> Statistics.nanargmax(NDArrays.array(Double.NaN), null, false));
    }

    @Test
    void nanVariantsTreatNaNAsMissing() {
        NDArray x = NDArrays.array(1.0, Double.NaN, 3.0);
        assertEquals(4.0, Statistics.nansum(x, Options.all()).getDouble());
        assertEquals(3.0, Statistics.nanprod(x, Options.all()).getDouble());
        assertEquals(2.0, Statistics.nanmean(x, Options.all()).getDouble());
        assertEquals(1.0, Statistics.nanvar(x, Options.all(), 0).getDouble());
        assertEquals(Math.sqrt(2.0), Statistics.nanstd(x, Options.all(), 1).getDouble(), 1e-15);
        assertEquals(3.0, Statistics.nanmax(x, Options.all()).getDouble());
        assertEquals(1.0, Statistics.nanmin(x, Options.all()).getDouble());
        assertArrayEquals(new long[] {3}, Statistics.nancumsum(x, null, null).shape());
        assertEquals(4.0, Statistics.nancumsum(x, null, null).getDouble(2));
        assertEquals(3.0, Statistics.nancumprod(x, null, null).getDouble(2));
        assertTrue(Double.isNaN(Statistics.max(x, Options.all()).getDouble()));
    }

    @Test
    void countsAndTruth() {
        NDArray x = NDArrays.array(0.0, Double.NaN, 2.0);
        assertEquals(2L, Statistics.countNonzero(x, Options.all()).getLong());
        assertTrue(Statistics.any(x, Options.all()).getBoolean());
        assertEquals(false, Statistics.all(x, Options.all()).getBoolean());
    }

    @Test
    void cumulativeSumsFlattenWithoutAnAxis() {
        NDArray running = Statistics.cumsum(NDArrays.array(new byte[] {100, 100, 100}), null, null);
        assertEquals(DType.INT64, running.dtype());
        assertEquals(300L, running.getLong(2));
        NDArray grid = NDArrays.arange(6).reshape(2, 3);
        assertArrayEquals(new long[] {6}, Statistics.cumprod(grid, null, null).shape());
    }

    @Test
    void argExtremaScanAcrossBlocks() {
        int count = 3 * Elementwise.BLOCK + 5;
        NDArray x = NDArrays.arange(count).astype(DType.FLOAT64);
        x.setDouble(-1.0, 2L * Elementwise.BLOCK + 1);
        assertEquals(count - 1L, Statistics.argmax(x, null, false).getLong());
        assertEquals(2L * Elementwise.BLOCK + 1, Statistics.argmin(x, null, false).getLong());
        x.setDouble(Double.NaN, count - 2L);
        assertEquals(count - 2L, Statistics.argmin(x, 0, false).getLong());
        NDArray unsigned = NDArrays.arange(count).astype(DType.UINT64);
        unsigned.setLong(-1L, 7);
        assertEquals(7L, Statistics.argmax(unsigned, null, false).getLong());
    }

    @Test
    void meanAndVarianceCountOnlyTheSelectedElements() {
        NDArray x = NDArrays.array(new double[][] {{1, 2, 100}, {3, Double.NaN, 5}});
        NDArray firstTwo = NDArrays.array(true, true, false);
        NDArray means = Statistics.mean(x, Options.axes(1).withWhere(firstTwo));
        assertEquals(1.5, means.getDouble(0));
        assertTrue(Double.isNaN(means.getDouble(1)));
        NDArray nanMeans = Statistics.nanmean(x, Options.axes(1).withWhere(firstTwo));
        assertEquals(3.0, nanMeans.getDouble(1));
        NDArray variances = Statistics.var(x, Options.axes(1).withWhere(firstTwo), 0);
        assertEquals(0.25, variances.getDouble(0));
        NDArray nanVariances = Statistics.nanvar(x, Options.axes(1), 0);
        assertEquals(1.0, nanVariances.getDouble(1));
    }

    /** Scans whose runs after the axis are long go run by run; each element must be the sequential fold of its column, bit for bit. */
    @Test
    void scansOverLongRunsAreTheSequentialFoldOfEachColumn() {
        Random random = new Random(3);
        NDArray floats = NDArray.zeros(DType.FLOAT64, 5, 7, 40);
        NDArray longs = NDArray.zeros(DType.INT64, 5, 7, 40);
        for (long i = 0; i < 5; i++) {
            for (long j = 0; j < 7; j++) {
                for (long k = 0; k < 40; k++) {
                    floats.setDouble((random.nextDouble() - 0.3) * Math.pow(10, random.nextInt(-5, 6)), i, j, k);
                    longs.setLong(random.nextLong(), i, j, k);
                }
            }
        }
        for (int axis : new int[] {0, 1}) {
            NDArray sums = Statistics.cumsum(floats, axis, null);
            NDArray products = Statistics.cumprod(floats, axis, null);
            NDArray wrapped = Statistics.cumsum(longs, axis, null);
            for (long i = 0; i < 5; i++) {
                for (long j = 0; j < 7; j++) {
                    for (long k = 0; k < 40; k++) {
                        double sum = floats.getDouble(axis == 0 ? 0 : i, axis == 0 ? j : 0, k);
                        double product = sum;
                        long total = longs.getLong(axis == 0 ? 0 : i, axis == 0 ? j : 0, k);
                        for (long step = 1; step <= (axis == 0 ? i : j); step++) {
                            long row = axis == 0 ? step : i;
                            long column = axis == 0 ? j : step;
                            sum += floats.getDouble(row, column, k);
                            product *= floats.getDouble(row, column, k);
                            total += longs.getLong(row, column, k);
                        }
                        String at = "axis " + axis + " at " + i + ", " + j + ", " + k;
                        assertEquals(Double.doubleToRawLongBits(sum), Double.doubleToRawLongBits(sums.getDouble(i, j, k)), "cumsum " + at);
                        assertEquals(Double.doubleToRawLongBits(product), Double.doubleToRawLongBits(products.getDouble(i, j, k)), "cumprod " + at);
                        assertEquals(total, wrapped.getLong(i, j, k), "int64 cumsum wraps, " + at);
                    }
                }
            }
        }
    }

    /**
     * The squared deviations' column sums are the composition's bit for bit (subtract, multiply,
     * sum over axis 0), and where rows are added one by one, each column is exactly the squares
     * added in row order: values near 1e6 make every other order round differently.
     */
    @Test
    void squaredDeviationSumsAreTheComposedSumsBitForBit() {
        Random random = new Random(11);
        NDArray wide = filled(NDArray.empty(DType.FLOAT64, 66, 2010), random);
        NDArray special = filled(NDArray.empty(DType.FLOAT64, 9, 70), random);
        special.setDouble(Double.NaN, 3, 4);
        special.setDouble(Double.POSITIVE_INFINITY, 5, 6);
        special.setDouble(-0.0, 0, 7);
        NDArray[] matrices = {
            filled(NDArray.empty(DType.FLOAT64, 1, 100), random),
            filled(NDArray.empty(DType.FLOAT64, 37, 64), random),
            wide,
            wide.slice(0, 1, 3, 21),                    // rows three apart
            wide.slice(1, 5, 1, 300),                   // part of each row
            wide.slice(0, 65, -2, 30),                  // rows backwards
            filled(NDArray.zerosNative(DType.FLOAT64, 12, 130), random),   // off the heap: the scalar loops
            filled(NDArray.empty(DType.FLOAT64, 10, 20), random),          // too narrow to add row by row
            filled(NDArray.empty(DType.FLOAT64, 200, 80), random).transpose(),   // columns not unit-strided
            special,
        };
        Options down = new Options(new int[] {0}, null, true, null, null);
        for (NDArray x : matrices) {
            long rows = x.shape(0);
            long columns = x.shape(1);
            NDArray mean = Ufuncs.TRUE_DIVIDE.apply(Statistics.sum(x, down), (double) rows);
            if (x == special) {
                mean.setDouble(Double.NaN, 0, 9);
            }
            NDArray deviation = Ufuncs.SUBTRACT.apply(x, mean);
            NDArray composed = Statistics.sum(Ufuncs.MULTIPLY.apply(deviation, deviation), down);
            NDArray fused = Statistics.squaredDeviationSums(x, mean, down);
            String shape = rows + " x " + columns + " with strides " + x.byteStride(0) + ", " + x.byteStride(1);
            assertArrayEquals(new long[] {1, columns}, fused.shape(), shape);
            for (long j = 0; j < columns; j++) {
                assertEquals(Double.doubleToRawLongBits(composed.getDouble(0, j)), Double.doubleToRawLongBits(fused.getDouble(0, j)),
                        shape + ", column " + j);
                if (columns >= 64 && x.byteStride(1) == Double.BYTES) {
                    double total = 0;
                    for (long i = 0; i < rows; i++) {
                        double d = x.getDouble(i, j) - mean.getDouble(0, j);
                        total = i == 0 ? d * d : total + d * d;
                    }
                    assertEquals(Double.doubleToRawLongBits(total), Double.doubleToRawLongBits(fused.getDouble(0, j)), shape + " in row order, column " + j);
                }
            }
        }
    }

    /** Over other axes, and with other options, the sums are the composition's. */
    @Test
    void squaredDeviationSumsOverOtherAxesAreTheComposition() {
        NDArray x = filled(NDArray.empty(DType.FLOAT64, 40, 90), new Random(13));
        for (Options options : new Options[] {new Options(new int[] {1}, null, true, null, null), new Options(new int[] {0}, null, false, null, null),
                new Options(null, null, true, null, null), new Options(new int[] {0}, DType.FLOAT32, true, null, null)}) {
            NDArray mean = Ufuncs.TRUE_DIVIDE.apply(Statistics.sum(x, options.withKeepdims(true).withDtype(null)),
                    (double) (x.size() / Statistics.sum(x, options.withKeepdims(true).withDtype(null)).size()));
            NDArray deviation = Ufuncs.SUBTRACT.apply(x, mean);
            NDArray composed = Statistics.sum(Ufuncs.MULTIPLY.apply(deviation, deviation), options);
            NDArray fused = Statistics.squaredDeviationSums(x, mean, options);
            assertArrayEquals(composed.shape(), fused.shape(), "axes " + Arrays.toString(options.axes()));
            assertEquals(composed.dtype(), fused.dtype(), "axes " + Arrays.toString(options.axes()));
            for (long i = 0; i < composed.size(); i++) {
                assertEquals(Double.doubleToRawLongBits(composed.ravel().getDouble(i)), Double.doubleToRawLongBits(fused.ravel().getDouble(i)),
                        "axes " + Arrays.toString(options.axes()) + ", keepdims " + options.keepdims() + ", element " + i);
            }
        }
    }

    private static NDArray filled(NDArray matrix, Random random) {
        for (long i = 0; i < matrix.shape(0); i++) {
            for (long j = 0; j < matrix.shape(1); j++) {
                matrix.setDouble(1e6 + random.nextDouble() * (random.nextBoolean() ? 1 : -1e3), i, j);
            }
        }
        return matrix;
    }
}
