package org.tessera.ndarray.ufunc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.Casting;
import org.tessera.ndarray.dtype.Complex;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Reductions.Options;

/**
 * The shortcuts for contiguous operands (elementwise, reductions, concatenation, fill) give what
 * the general iteration gives on the same values laid out with a stride.
 */
class SmallArrayFastPathTest {

    /** {@code values} as a contiguous array of {@code dtype}, and the same values as a strided view. */
    private static NDArray[] layouts(DType dtype, long length) {
        NDArray contiguous = NDArrays.zeros(dtype, length);
        NDArray wide = NDArrays.zeros(dtype, 2 * length);
        NDArray strided = wide.slice(0, 0, 2, length);
        for (long i = 0; i < length; i++) {
            double value = (i * 37 % 23) - 7.25;
            contiguous.setDouble(value, i);
            strided.setDouble(value, i);
        }
        assertFalse(length > 1 && strided.isCContiguous());
        return new NDArray[] {contiguous, strided};
    }

    private static void assertSameElements(NDArray expected, NDArray actual) {
        assertEquals(expected.dtype(), actual.dtype());
        assertArrayEquals(expected.shape(), actual.shape());
        NDArray expectedFlat = expected.ravel();
        NDArray actualFlat = actual.ravel();
        for (long i = 0; i < expected.size(); i++) {
            if (expected.dtype().isComplex()) {
                assertEquals(expectedFlat.getComplex(i), actualFlat.getComplex(i), "element " + i);
            } else if (expected.dtype().isInexact()) {
                assertEquals(Double.doubleToRawLongBits(expectedFlat.getDouble(i)), Double.doubleToRawLongBits(actualFlat.getDouble(i)),
                        "element " + i);
            } else {
                assertEquals(expectedFlat.getLong(i), actualFlat.getLong(i), "element " + i);
            }
        }
    }

    @Test
    void scalarOperandsMatchTheStridedPath() {
        Object[] scalars = {1, 0.1, true, new Complex(2, -1), 1.5f};
        for (DType dtype : List.of(DType.INT8, DType.UINT16, DType.INT32, DType.INT64, DType.FLOAT16, DType.FLOAT32,
                DType.FLOAT64, DType.COMPLEX64, DType.COMPLEX128)) {
            for (long length : new long[] {1, 10, Elementwise.BLOCK + 3}) {
                NDArray[] arrays = layouts(dtype, length);
                for (Object scalar : scalars) {
                    for (Ufunc ufunc : List.of(Ufuncs.ADD, Ufuncs.MULTIPLY, Ufuncs.SUBTRACT)) {
                        assertSameElements(ufunc.apply(arrays[1], scalar), ufunc.apply(arrays[0], scalar));
                        assertSameElements(ufunc.apply(scalar, arrays[1]), ufunc.apply(scalar, arrays[0]));
                    }
                }
            }
        }
    }

    @Test
    void sameShapeOperandsMatchTheStridedPath() {
        for (DType dtype : List.of(DType.INT32, DType.FLOAT32, DType.FLOAT64)) {
            NDArray[] x = layouts(dtype, 10);
            NDArray[] y = layouts(DType.FLOAT64, 10);
            assertSameElements(Ufuncs.ADD.apply(x[1], y[1]), Ufuncs.ADD.apply(x[0], y[0]));
            assertSameElements(Ufuncs.TRUE_DIVIDE.apply(x[1], x[1]), Ufuncs.TRUE_DIVIDE.apply(x[0], x[0]));
        }
    }

    @Test
    void outOfRangeJavaIntegerStillFails() {
        NDArray bytes = NDArrays.zeros(DType.INT8, 10);
        assertThrows(ArithmeticException.class, () -> Ufuncs.ADD.apply(bytes, 300));
    }

    @Test
    void inPlaceWithAScalarUpdatesTheOperand() {
        NDArray a = NDArrays.full(DType.FLOAT64, 2, 10);
        Ufuncs.ADD.apply(new Object[] {a, 1}, new NDArray[] {a}, null, Casting.SAME_KIND);
        for (long i = 0; i < 10; i++) {
            assertEquals(3.0, a.getDouble(i));
        }
        NDArray b = NDArrays.full(DType.FLOAT64, 2, 10);
        Ufuncs.MULTIPLY.apply(new Object[] {b, b}, new NDArray[] {b}, null, Casting.SAME_KIND);
        assertEquals(4.0, b.getDouble(9));
    }

    @Test
    void trailingAxisReductionsMatchTheGeneralPath() {
        NDArray[] arrays = layouts(DType.FLOAT64, 1000);
        for (Ufunc ufunc : List.of(Ufuncs.ADD, Ufuncs.MAXIMUM, Ufuncs.MULTIPLY)) {
            assertSameElements(ufunc.reduce(arrays[1], Options.all()), ufunc.reduce(arrays[0], Options.all()));
        }
        NDArray matrix = arrays[0].reshape(10, 100);
        NDArray transposedCopy = matrix.transpose().copy().transpose();
        assertFalse(transposedCopy.isCContiguous());
        Options keep = Options.axes(1).withKeepdims(true);
        NDArray rowSums = Statistics.sum(matrix, keep);
        assertArrayEquals(new long[] {10, 1}, rowSums.shape());
        assertSameElements(Statistics.sum(transposedCopy, keep), rowSums);
        assertSameElements(Statistics.sum(transposedCopy, Options.all().withInitial(2.5)), Statistics.sum(matrix, Options.all().withInitial(2.5)));
        NDArray empty = NDArrays.zeros(DType.FLOAT64, 0);
        assertEquals(0.0, Statistics.sum(empty, Options.all()).getDouble());
        assertThrows(IllegalArgumentException.class, () -> Statistics.max(empty, Options.all()));
    }

    /**
     * A float64 sum over every axis of a contiguous array takes its own path: the same bits as the
     * strided layout's general fold and as NumPy's pairwise sum, at every length around the 8 and 128
     * where the pairwise algorithm changes step, with the axes named or not, kept or not, +0.0 for a
     * sum of negative zeros and NaN through.
     */
    @Test
    void wholeFloat64SumsMatchTheGeneralFold() {
        for (long length : new long[] {2, 7, 8, 9, 10, 127, 128, 129, 300, 1000}) {
            NDArray[] arrays = layouts(DType.FLOAT64, length);
            double[] values = new double[(int) length];
            for (int i = 0; i < length; i++) {
                values[i] = arrays[0].getDouble(i);
            }
            NDArray sum = Statistics.sum(arrays[0], Options.all());
            assertSameElements(Statistics.sum(arrays[1], Options.all()), sum);
            assertEquals(Double.doubleToRawLongBits(NumpyPairwise.sum(values, 0, (int) length)), Double.doubleToRawLongBits(sum.getDouble()),
                    "length " + length);
            NDArray kept = Statistics.sum(arrays[0], Options.axes(0).withKeepdims(true));
            assertArrayEquals(new long[] {1}, kept.shape());
            assertSameElements(Statistics.sum(arrays[1], Options.axes(-1).withKeepdims(true)), kept);
        }
        NDArray matrix = layouts(DType.FLOAT64, 120)[0].reshape(8, 15);
        NDArray stridedMatrix = matrix.transpose().copy().transpose();
        for (Options options : List.of(Options.all(), Options.axes(1, 0), Options.axes(-1, -2).withKeepdims(true),
                Options.all().withDtype(DType.FLOAT64))) {
            assertSameElements(Statistics.sum(stridedMatrix, options), Statistics.sum(matrix, options));
        }
        assertThrows(IllegalArgumentException.class, () -> Statistics.sum(matrix, Options.axes(0, -2)));
        NDArray negativeZeros = NDArrays.full(DType.FLOAT64, -0.0, 9);
        assertEquals(Double.doubleToRawLongBits(0.0), Double.doubleToRawLongBits(Statistics.sum(negativeZeros, Options.all()).getDouble()));
        negativeZeros.setDouble(Double.NaN, 4);
        assertTrue(Double.isNaN(Statistics.sum(negativeZeros, Options.all()).getDouble()));
    }

    @Test
    void concatenationMatchesTheStridedPath() {
        NDArray[] first = layouts(DType.FLOAT64, 6);
        NDArray[] second = layouts(DType.FLOAT64, 4);
        assertSameElements(NDArrays.concatenate(List.of(first[1], second[1]), 0), NDArrays.concatenate(List.of(first[0], second[0]), 0));
        NDArray rowA = first[0].reshape(1, 2, 3);
        NDArray rowB = second[0].reshape(1, 2, 2);
        NDArray joined = NDArrays.concatenate(List.of(rowA, rowB), 2);
        assertArrayEquals(new long[] {1, 2, 5}, joined.shape());
        assertEquals(rowB.getDouble(0, 1, 1), joined.getDouble(0, 1, 4));
        assertEquals(rowA.getDouble(0, 1, 2), joined.getDouble(0, 1, 2));
        NDArray mixed = NDArrays.concatenate(List.of(first[0], NDArrays.zeros(DType.INT32, 3)), 0);
        assertEquals(DType.FLOAT64, mixed.dtype());
        assertEquals(first[0].getDouble(5), mixed.getDouble(5));
    }

    @Test
    void fillCastsAsAssignmentDoes() {
        for (DType dtype : DType.values()) {
            NDArray filled = NDArrays.zeros(dtype, 5);
            filled.fill(-300.75);
            NDArray assigned = NDArrays.zeros(dtype, 5);
            assigned.assign(NDArray.scalar(-300.75));
            assertSameElements(assigned, filled);
            filled.fill(Long.MIN_VALUE + 1);
            assigned.assign(NDArray.scalar(Long.MIN_VALUE + 1));
            assertSameElements(assigned, filled);
        }
        assertTrue(NDArrays.full(DType.BOOL, 0.5, 3).getBoolean(2));
    }
}
