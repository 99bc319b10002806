package org.tessera.ndarray.ufunc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.AxisException;
import org.tessera.ndarray.ufunc.Reductions.Options;

class ReductionsTest {

    /** 0..23 as int64 in shape (2, 3, 4). */
    private static NDArray grid() {
        return NDArrays.arange(24).reshape(2, 3, 4);
    }

    /**
     * Over axes of length 1 a reduction is each element cast to the result dtype (NumPy: an addition
     * starts from its zero, so -0.0 sums to +0.0), whichever ufunc and layout: the expected values
     * come element by element from the ufunc itself.
     */
    @Test
    void aReductionOverAxesOfLengthOneIsEachElementCast() {
        double[] specials = {-0.0, 0.0, Double.NaN, -1.5, Double.POSITIVE_INFINITY, 1e-310};
        for (DType dtype : new DType[] {DType.FLOAT64, DType.FLOAT32, DType.COMPLEX128, DType.INT8, DType.INT64}) {
            NDArray x = NDArray.zeros(dtype, 3, 1, 4);
            for (int i = 0; i < 12; i++) {
                x.setDouble(dtype.isInteger() ? i - 5 : specials[i % specials.length], i / 4, 0, i % 4);
            }
            NDArray elements = x.reshape(3, 4);
            NDArray sum = Statistics.sum(x, Options.axes(1));
            // Tessera's maximum has no complex loop (NumPy orders complex numbers lexicographically): max over a real view there.
            NDArray real = dtype.kind() == DType.Kind.COMPLEX ? x.astype(DType.FLOAT64) : x;
            NDArray max = Statistics.max(NDArrays.get(real, org.tessera.ndarray.index.Index.range(null, null, -1L)), Options.axes(1).withKeepdims(true));
            NDArray any = Statistics.any(x, Options.axes(1));
            assertArrayEquals(new long[] {3, 4}, sum.shape());
            assertArrayEquals(new long[] {3, 1, 4}, max.shape());
            assertEquals(dtype.isInteger() ? DType.INT64 : dtype, sum.dtype(), "sum of " + dtype);
            for (int i = 0; i < 12; i++) {
                long row = i / 4, column = i % 4;
                double element = elements.getDouble(row, column);
                double expectedSum = Ufuncs.ADD.apply(NDArray.zeros(sum.dtype()), elements.astype(sum.dtype())).getDouble(row, column);
                assertEquals(Double.doubleToRawLongBits(expectedSum), Double.doubleToRawLongBits(sum.getDouble(row, column)), dtype + " sum at " + i);
                assertEquals(Double.doubleToRawLongBits(elements.getDouble(2 - row, column)), Double.doubleToRawLongBits(max.getDouble(row, 0, column)),
                        dtype + " max at " + i);
                assertEquals(element != 0, any.getLong(row, column) != 0, dtype + " any at " + i);
            }
        }
    }

    /** NumPy: np.sum(np.full(n, -0.0)) is 0.0 (the sum starts from 0); np.prod and np.max keep -0.0. */
    @Test
    void aSumOfNegativeZerosIsPositiveZeroAsNumPysSumFromItsIdentity() {
        for (int n : new int[] {1, 3, 9, 200}) {
            for (DType dtype : new DType[] {DType.FLOAT64, DType.FLOAT32, DType.FLOAT16, DType.COMPLEX128}) {
                NDArray column = NDArrays.full(dtype, -0.0, n, 2);
                NDArray row = NDArrays.full(dtype, -0.0, 2, n);
                assertEquals(0L, Double.doubleToRawLongBits(Statistics.sum(column, Options.all()).getDouble()), dtype + " n " + n);
                assertEquals(0L, Double.doubleToRawLongBits(Statistics.sum(column, Options.axes(0)).getDouble(1)), dtype + " n " + n);
                assertEquals(0L, Double.doubleToRawLongBits(Statistics.sum(row, Options.axes(1)).getDouble(1)), dtype + " n " + n);
                assertEquals(0L, Double.doubleToRawLongBits(Statistics.sum(NDArrays.get(row, org.tessera.ndarray.index.Index.range(null, null, -1L)), Options.axes(1)).getDouble(0)));
            }
            NDArray negative = NDArrays.full(DType.FLOAT64, -0.0, 1, n);
            assertEquals(Long.MIN_VALUE, Double.doubleToRawLongBits(Statistics.prod(negative, Options.axes(0)).getDouble(0)));
            assertEquals(Long.MIN_VALUE, Double.doubleToRawLongBits(Statistics.max(negative, Options.axes(0)).getDouble(0)));
        }
        // With an initial value the sum starts there: -0.0 + -0.0 is -0.0.
        NDArray zeros = NDArrays.full(DType.FLOAT64, -0.0, 4);
        assertEquals(Long.MIN_VALUE, Double.doubleToRawLongBits(Statistics.sum(zeros, Options.all().withInitial(-0.0)).getDouble()));
        // Any other sum is unchanged: -0.0 + 1.0 - 1.0 is 0.0 either way, and a NaN stays.
        assertTrue(Double.isNaN(Statistics.sum(NDArrays.array(-0.0, Double.NaN), Options.all()).getDouble()));
    }

    @Test
    void reduceOverATupleOfAxesWithKeptDimensions() {
        NDArray sums = Reductions.reduce(Ufuncs.ADD, grid(), Options.axes(0, -1).withKeepdims(true));
        assertArrayEquals(new long[] {1, 3, 1}, sums.shape());
        // Row j sums grid[0, j, :] and grid[1, j, :]: (4j + 6) + (4j + 54).
        assertArrayEquals(new long[] {60, 92, 124}, Flat.longs(sums));
    }

    @Test
    void reduceWithInitialStartsFromIt() {
        NDArray sums = Reductions.reduce(Ufuncs.ADD, grid(), Options.axes(2).withInitial(100L));
        assertArrayEquals(new long[] {2, 3}, sums.shape());
        assertEquals(106L, sums.getLong(0, 0));
    }

    @Test
    void reduceWithWhereSkipsMaskedElements() {
        NDArray mask = NDArrays.array(true, false, false, true);
        NDArray sums = Reductions.reduce(Ufuncs.ADD, grid(), Options.axes(2).withWhere(mask));
        assertArrayEquals(new long[] {0 + 3, 4 + 7, 8 + 11, 12 + 15, 16 + 19, 20 + 23}, Flat.longs(sums));
    }

    @Test
    void maximumWithWhereNeedsAnInitialWhereARowIsEmpty() {
        NDArray mask = NDArrays.array(false, false, false, false);
        assertThrows(IllegalArgumentException.class,
                () -> Reductions.reduce(Ufuncs.MAXIMUM, grid(), Options.axes(2).withWhere(mask)));
        NDArray maxima = Reductions.reduce(Ufuncs.MAXIMUM, grid(), Options.axes(2).withWhere(mask).withInitial(-1L));
        assertArrayEquals(new long[] {-1, -1, -1, -1, -1, -1}, Flat.longs(maxima));
    }

    @Test
    void maxOfAnEmptyArrayIsAValueErrorNamingTheOperation() {
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
                () -> Statistics.max(NDArrays.zeros(DType.FLOAT64, 0), Options.all()));
        assertTrue(thrown.getMessage().contains("maximum") && thrown.getMessage().contains("identity"), thrown.getMessage());
        assertEquals(0.0, Statistics.sum(NDArrays.zeros(DType.FLOAT64, 0), Options.all()).getDouble());
    }

    @Test
    void reduceDtypeRules() {
        assertEquals(DType.INT64, Statistics.sum(NDArrays.array(new byte[] {1, 2}), Options.all()).dtype());
        assertEquals(DType.UINT64, Statistics.sum(NDArrays.array(new byte[] {1, 2}).astype(DType.UINT8), Options.all()).dtype());
        assertEquals(DType.INT64, Statistics.sum(NDArrays.array(true, true), Options.all()).dtype());
        assertEquals(DType.INT8, Reductions.reduce(Ufuncs.MAXIMUM, NDArrays.array(new byte[] {1, 2}), Options.all()).dtype());
        assertEquals(DType.FLOAT32, Statistics.sum(NDArrays.array(new byte[] {1, 2}), Options.all().withDtype(DType.FLOAT32)).dtype());
    }

    @Test
    void aRepeatedOrOutOfRangeAxisIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Statistics.sum(grid(), Options.axes(1, -2)));
        assertThrows(AxisException.class, () -> Statistics.sum(grid(), Options.axes(3)));
    }

    @Test
    void accumulateAlongAnAxis() {
        NDArray running = NDArrays.accumulate(Ufuncs.ADD, NDArrays.arange(6).reshape(2, 3), 0);
        assertArrayEquals(new long[] {0, 1, 2, 3, 5, 7}, Flat.longs(running));
        NDArray products = NDArrays.accumulate(Ufuncs.MULTIPLY, NDArrays.array(1L, 2L, 3L, 4L), -1);
        assertArrayEquals(new long[] {1, 2, 6, 24}, Flat.longs(products));
    }

    @Test
    void reduceatWithDecreasingIndicesTakesTheSingleElement() {
        NDArray x = NDArrays.arange(8);
        NDArray result = NDArrays.reduceat(Ufuncs.ADD, x, new long[] {0, 4, 1, 5, 5, 7}, 0);
        // [0:4] = 6, then 4 > 1 gives x[4], [1:5] = 10, 5 == 5 gives x[5], [5:7] = 11, the last runs to the end: x[7].
        assertArrayEquals(new long[] {6, 4, 10, 5, 11, 7}, Flat.longs(result));
    }

    @Test
    void reduceatAlongTheLastAxisOfAMatrix() {
        NDArray x = NDArrays.arange(8).reshape(2, 4);
        NDArray result = NDArrays.reduceat(Ufuncs.MAXIMUM, x, new long[] {0, 2}, 1);
        assertArrayEquals(new long[] {2, 2}, result.shape());
        assertArrayEquals(new long[] {1, 3, 5, 7}, Flat.longs(result));
    }

    @Test
    void reduceatRefusesAnIndexOutOfRange() {
        IndexOutOfBoundsException thrown = assertThrows(IndexOutOfBoundsException.class,
                () -> NDArrays.reduceat(Ufuncs.ADD, NDArrays.arange(4), new long[] {0, 4}, 0));
        assertTrue(thrown.getMessage().contains("4"), thrown.getMessage());
    }

    @Test
    void onlyBinaryUfuncsReduce() {
        assertThrows(IllegalArgumentException.class, () -> Reductions.reduce(Ufuncs.SQRT, grid(), Options.all()));
    }

    @Test
    void reducingLeadingAxesFoldsWholeSlicesWithTheSameResults() {
        NDArray cube = NDArrays.arange(4 * 5 * 100).reshape(4, 5, 100).astype(DType.INT16);
        NDArray acrossSlices = Reductions.reduce(Ufuncs.ADD, cube, Options.axes(0, 1));
        NDArray alongRows = Reductions.reduce(Ufuncs.ADD, cube.transpose(2, 0, 1), Options.axes(1, 2));
        assertEquals(DType.INT64, acrossSlices.dtype());
        assertArrayEquals(Flat.longs(alongRows), Flat.longs(acrossSlices));
        NDArray maxima = Reductions.reduce(Ufuncs.MAXIMUM, cube, Options.axes(0).withKeepdims(true).withInitial(1990L));
        assertArrayEquals(new long[] {1, 5, 100}, maxima.shape());
        assertEquals(1990L, maxima.getLong(0, 0, 0));
        assertEquals(1999L, maxima.getLong(0, 4, 99));
    }

    @Test
    void reducingAnEmptyLeadingAxisGivesTheIdentityOrFails() {
        NDArray empty = NDArrays.zeros(DType.FLOAT64, 0, 100);
        assertArrayEquals(new double[100], Flat.doubles(Statistics.sum(empty, Options.axes(0))));
        assertThrows(IllegalArgumentException.class, () -> Statistics.max(empty, Options.axes(0)));
    }

    @Test
    void binaryUfuncsCarryTheirMethods() {
        NDArray x = NDArrays.arange(6).reshape(2, 3);
        assertArrayEquals(new long[] {3, 12}, Flat.longs(Ufuncs.ADD.reduce(x, Options.axes(1))));
        assertArrayEquals(new long[] {0, 1, 3, 3, 7, 12}, Flat.longs(Ufuncs.ADD.accumulate(x, 1)));
        assertArrayEquals(new long[] {0, 2, 3, 5}, Flat.longs(Ufuncs.MAXIMUM.reduceat(x, new long[] {0, 1}, 1)));
        assertArrayEquals(new long[] {2, 3, 3}, Ufuncs.ADD.outer(x, NDArrays.arange(3)).shape());
    }

    /** Irregular float64 values (no two sums of a few of them round alike) in {@code shape}. */
    private static NDArray irregular(long... shape) {
        long size = 1;
        for (long length : shape) {
            size *= length;
        }
        return Ufuncs.SIN.apply(Ufuncs.MULTIPLY.apply(NDArrays.arange(size), 0.37)).reshape(shape);
    }

    private static void assertSameBits(NDArray expected, NDArray actual, String what) {
        assertArrayEquals(expected.shape(), actual.shape(), what);
        NDArray flatExpected = expected.reshape(-1), flatActual = actual.reshape(-1);
        for (long position = 0; position < expected.size(); position++) {
            assertEquals(Double.doubleToRawLongBits(flatExpected.getDouble(position)), Double.doubleToRawLongBits(flatActual.getDouble(position)),
                    what + " at " + position);
        }
    }

    @Test
    void theLastSliceOfAScanContinuedFromACarryIsTheWholeScansBitForBit() {
        NDArray x = irregular(6, 40, 33);
        for (Ufunc ufunc : new Ufunc[] {Ufuncs.ADD, Ufuncs.MULTIPLY}) {
            NDArray values = ufunc == Ufuncs.MULTIPLY ? Ufuncs.ADD.apply(x, 1.0) : x;
            for (int axis = 0; axis < 3; axis++) {
                NDArray whole = Reductions.accumulate(ufunc, values, axis, null);
                NDArray expected = whole.slice(axis, values.shape(axis) - 1, 1, 1);
                long split = values.shape(axis) / 2;
                NDArray carry = Reductions.accumulateLast(ufunc, values.slice(axis, 0, 1, split), axis, null);
                NDArray actual = Reductions.accumulateLast(ufunc, values.slice(axis, split, 1, values.shape(axis) - split).copy(), axis, carry);
                String what = ufunc.name() + " along axis " + axis;
                assertSameBits(whole.slice(axis, split - 1, 1, 1), carry, what + ", first half");
                assertSameBits(expected, actual, what);
            }
        }
    }

    @Test
    void theLastSliceOfAnIntegerOrStridedScanIsTheWholeScans() {
        NDArray ints = NDArrays.arange(5 * 20).reshape(5, 20).astype(DType.INT32);
        NDArray carry = Reductions.accumulateLast(Ufuncs.ADD, ints.slice(0, 0, 1, 2), 0, null);
        NDArray last = Reductions.accumulateLast(Ufuncs.ADD, ints.slice(0, 2, 1, 3), 0, carry);
        NDArray whole = Reductions.accumulate(Ufuncs.ADD, ints, 0, null);
        assertArrayEquals(Flat.longs(whole.slice(0, 4, 1, 1).astype(DType.INT64)), Flat.longs(last.astype(DType.INT64)));
        NDArray singles = irregular(9, 40).astype(DType.FLOAT32);
        NDArray singlesCarry = Reductions.accumulateLast(Ufuncs.ADD, singles.slice(0, 0, 1, 4), 0, null);
        assertSameBits(Reductions.accumulate(Ufuncs.ADD, singles, 0, null).slice(0, 8, 1, 1).astype(DType.FLOAT64),
                Reductions.accumulateLast(Ufuncs.ADD, singles.slice(0, 4, 1, 5), 0, singlesCarry).astype(DType.FLOAT64), "float32");
        NDArray strided = irregular(8, 50).slice(1, 0, 2, 25);
        assertSameBits(Reductions.accumulate(Ufuncs.ADD, strided, 0, null).slice(0, 7, 1, 1),
                Reductions.accumulateLast(Ufuncs.ADD, strided, 0, null), "every other column");
    }

    @Test
    void aRunningTotalOfTheWrongShapeIsRefusedNamingBothShapes() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Reductions.accumulateLast(Ufuncs.ADD, irregular(4, 30), 0, irregular(1, 29)));
        assertTrue(refused.getMessage().contains("(1,29)") && refused.getMessage().contains("(4,30)") && refused.getMessage().contains("(1,30)"),
                refused.getMessage());
    }

    @Test
    void theLastSliceOfAComplexProductWithInfinitiesIsTheWholeScans() {
        double inf = Double.POSITIVE_INFINITY;
        double[][] parts = {{inf, 0}, {0, 1}, {-inf, 2}, {1e30, -1e30}, {0, 0}, {Double.NaN, 1}, {3, inf}, {-2, 0.5}};
        for (DType dtype : new DType[] {DType.COMPLEX64, DType.COMPLEX128}) {
            NDArray values = NDArrays.zeros(dtype, parts.length, 3);
            for (int row = 0; row < parts.length; row++) {
                for (int column = 0; column < 3; column++) {
                    double[] part = parts[(row + 3 * column) % parts.length];
                    values.setComplex(new org.tessera.ndarray.dtype.Complex(part[0], part[1]), row, column);
                }
            }
            for (Ufunc ufunc : new Ufunc[] {Ufuncs.MULTIPLY, Ufuncs.ADD}) {
                NDArray whole = Reductions.accumulate(ufunc, values, 0, null);
                NDArray carry = Reductions.accumulateLast(ufunc, values.slice(0, 0, 1, 3), 0, null);
                NDArray last = Reductions.accumulateLast(ufunc, values.slice(0, 3, 1, parts.length - 3), 0, carry);
                for (int column = 0; column < 3; column++) {
                    String what = dtype + " " + ufunc.name() + " column " + column;
                    assertEquals(whole.getComplex(parts.length - 1, column).toString(), last.getComplex(0, column).toString(), what);
                    assertEquals(whole.getComplex(2, column).toString(), carry.getComplex(0, column).toString(), what + ", first three rows");
                }
            }
        }
    }

    /**
     * A fold over the leading axes of a C-ordered array adds one kept-shaped slice after the other
     * into the result, as NumPy's reduction loop does: bit for bit the running sum slice by slice,
     * the maximum with NaN kept, for several reduced axes, for int32 summed into int64 (the slices
     * then go through the elementwise call, with their cast), for slices stored out of order, and
     * for slices that step backwards.
     */
    @Test
    void aFoldOverLeadingAxesAddsSliceAfterSliceInOrder() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(5);
        NDArray x = NDArray.zeros(DType.FLOAT64, 3, 5, 130);
        for (long i = 0; i < x.size(); i++) {
            x.setDouble(i % 97 == 0 ? Double.NaN : (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-8, 9)), i / 650, i / 130 % 5, i % 130);
        }
        NDArray reversed = NDArrays.get(x, org.tessera.ndarray.index.Index.all(), org.tessera.ndarray.index.Index.all(),
                org.tessera.ndarray.index.Index.range(null, null, -1L));
        for (NDArray input : new NDArray[] {x, x.transpose(1, 0, 2).copy().transpose(1, 0, 2), reversed}) {
            NDArray sum = Statistics.sum(input, Options.axes(0, 1));
            NDArray max = Statistics.max(input, Options.axes(0, 1));
            for (long column = 0; column < 130; column++) {
                double running = 0;
                double largest = Double.NEGATIVE_INFINITY;
                for (long slice = 0; slice < 15; slice++) {
                    double element = input.getDouble(slice / 5, slice % 5, column);
                    running = slice == 0 ? element : running + element;
                    largest = Double.isNaN(largest) || Double.isNaN(element) ? Double.NaN : Math.max(largest, element);
                }
                assertEquals(Double.doubleToRawLongBits(running), Double.doubleToRawLongBits(sum.getDouble(column)), "sum of column " + column);
                assertEquals(Double.doubleToRawLongBits(largest), Double.doubleToRawLongBits(max.getDouble(column)), "max of column " + column);
            }
        }
        NDArray integers = NDArrays.arange(3 * 200).reshape(3, 200).astype(DType.INT32);
        NDArray sums = Statistics.sum(integers, Options.axes(0));
        assertEquals(DType.INT64, sums.dtype());
        for (long column = 0; column < 200; column++) {
            assertEquals(3 * column + 600, sums.getLong(column), "int32 column " + column);
        }
    }
}
