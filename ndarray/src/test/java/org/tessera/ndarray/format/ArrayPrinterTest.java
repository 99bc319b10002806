package org.tessera.ndarray.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;

/** Expected texts are what NumPy 2.4's repr() printed for the same arrays. */
class ArrayPrinterTest {
    @Test
    void integersAlignToTheWidestElement() {
        assertEquals("array([[ 0,  1,  2,  3],\n       [ 4,  5,  6,  7],\n       [ 8,  9, 10, 11]])",
                NDArrays.arange(12).reshape(3, 4).toString());
    }

    @Test
    void threeDimensionalArraysSeparateBlocksWithABlankLine() {
        assertEquals("array([[[ 0,  1,  2,  3],\n        [ 4,  5,  6,  7],\n        [ 8,  9, 10, 11]],\n\n"
                        + "       [[12, 13, 14, 15],\n        [16, 17, 18, 19],\n        [20, 21, 22, 23]]], dtype=int16)",
                NDArrays.arange(24).reshape(2, 3, 4).astype(DType.INT16).toString());
    }

    @Test
    void largeArraysAreSummarisedWithTheirShape() {
        assertEquals("array([   0,    1,    2, ..., 1997, 1998, 1999], shape=(2000,))", NDArrays.arange(2000).toString());
    }

    @Test
    void summarisedFloatMatricesUseScientificNotationForAWideRange() {
        String expected = """
                array([[0.000e+00, 1.000e+00, 2.000e+00, ..., 9.700e+01, 9.800e+01,
                        9.900e+01],
                       [1.000e+02, 1.010e+02, 1.020e+02, ..., 1.970e+02, 1.980e+02,
                        1.990e+02],
                       [2.000e+02, 2.010e+02, 2.020e+02, ..., 2.970e+02, 2.980e+02,
                        2.990e+02],
                       ...,
                       [2.700e+03, 2.701e+03, 2.702e+03, ..., 2.797e+03, 2.798e+03,
                        2.799e+03],
                       [2.800e+03, 2.801e+03, 2.802e+03, ..., 2.897e+03, 2.898e+03,
                        2.899e+03],
                       [2.900e+03, 2.901e+03, 2.902e+03, ..., 2.997e+03, 2.998e+03,
                        2.999e+03]], shape=(30, 100))""";
        assertEquals(expected, NDArrays.arange(0.0, 3000.0, 1.0).reshape(30, 100).toString());
    }

    @Test
    void floatsAlignOnTheDecimalPointAndSpellNonFiniteValuesAsNumpy() {
        assertEquals("array([0.        , 0.33333334, 0.6666667 , 1.        ], dtype=float32)",
                NDArrays.linspace(0, 1, 4).astype(DType.FLOAT32).toString());
        assertEquals("array([ 1.5,  nan, -inf])", NDArrays.array(1.5, Double.NaN, Double.NEGATIVE_INFINITY).toString());
        assertEquals("array([1.e-05, 1.e+00])", NDArrays.array(1e-5, 1.0).toString());
    }

    @Test
    void boolsUnsignedScalarsAndEmptyArraysPrintAsNumpy() {
        assertEquals("array([ True, False])", NDArrays.array(true, false).toString());
        NDArray largest = NDArray.zeros(DType.UINT64, 1);
        largest.setLong(-1, 0);
        assertEquals("array([18446744073709551615], dtype=uint64)", largest.toString());
        assertEquals("array(7.25)", NDArray.scalar(7.25).toString());
        assertEquals("array([], shape=(0, 3), dtype=float64)", NDArray.zeros(DType.FLOAT64, 0, 3).toString());
        assertEquals("array([], dtype=int8)", NDArray.zeros(DType.INT8, 0).toString());
    }
}
