package org.tessera.ndarray.ufunc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.Complex;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Reductions.Options;

class ComplexTest {

    private static NDArray complexes(Complex... values) {
        NDArray result = NDArrays.zeros(DType.COMPLEX128, values.length);
        for (int i = 0; i < values.length; i++) {
            result.setComplex(values[i], i);
        }
        return result;
    }

    @Test
    void arithmetic() {
        NDArray x = complexes(new Complex(1, 2));
        NDArray y = complexes(new Complex(3, -1));
        assertEquals(new Complex(4, 1), Ufuncs.ADD.apply(x, y).getComplex(0));
        assertEquals(new Complex(-2, 3), Ufuncs.SUBTRACT.apply(x, y).getComplex(0));
        assertEquals(new Complex(5, 5), Ufuncs.MULTIPLY.apply(x, y).getComplex(0));
        Complex quotient = Ufuncs.TRUE_DIVIDE.apply(x, y).getComplex(0);
        assertEquals(0.1, quotient.real(), 2 * Math.ulp(0.1));
        assertEquals(0.7, quotient.imag(), 2 * Math.ulp(0.7));
        assertEquals(new Complex(-3, 4), Ufuncs.SQUARE.apply(x).getComplex(0));
        assertEquals(new Complex(-1, -2), Ufuncs.NEGATIVE.apply(x).getComplex(0));
    }

    @Test
    void absoluteIsReal() {
        NDArray magnitude = Ufuncs.ABSOLUTE.apply(complexes(new Complex(3, 4)));
        assertEquals(DType.FLOAT64, magnitude.dtype());
        assertEquals(5.0, magnitude.getDouble(0));
        assertEquals(DType.FLOAT32, Ufuncs.ABSOLUTE.apply(complexes(new Complex(3, 4)).astype(DType.COMPLEX64)).dtype());
    }

    @Test
    void functionsTakeThePrincipalBranch() {
        assertEquals(new Complex(0, 2), Ufuncs.SQRT.apply(complexes(new Complex(-4, 0))).getComplex(0));
        Complex exp = Ufuncs.EXP.apply(complexes(new Complex(0, Math.PI))).getComplex(0);
        assertEquals(-1.0, exp.real(), 1e-15);
        Complex log = Ufuncs.LOG.apply(complexes(new Complex(-1, 0))).getComplex(0);
        assertEquals(Math.PI, log.imag(), 1e-15);
    }

    @Test
    void equalityComparesBothParts() {
        NDArray x = complexes(new Complex(1, 2), new Complex(1, 2));
        NDArray y = complexes(new Complex(1, 2), new Complex(1, 3));
        NDArray equal = Ufuncs.EQUAL.apply(x, y);
        assertTrue(equal.getBoolean(0));
        assertFalse(equal.getBoolean(1));
        assertTrue(Ufuncs.NOT_EQUAL.apply(x, y).getBoolean(1));
    }

    @Test
    void promotionWithRealsAndWeakScalars() {
        NDArray single = complexes(new Complex(1, 1)).astype(DType.COMPLEX64);
        assertEquals(DType.COMPLEX128, Ufuncs.ADD.apply(single, NDArrays.array(1.0)).dtype());
        assertEquals(DType.COMPLEX64, Ufuncs.ADD.apply(single, 2.0).dtype());
        NDArray promoted = Ufuncs.MULTIPLY.apply(NDArrays.array(2.0), new Complex(0, 1));
        assertEquals(DType.COMPLEX128, promoted.dtype());
        assertEquals(new Complex(0, 2), promoted.getComplex(0));
    }

    @Test
    void sumMeanAndVarianceOfComplex() {
        NDArray x = complexes(new Complex(1, 1), new Complex(3, -1));
        assertEquals(new Complex(4, 0), Statistics.sum(x, Options.all()).getComplex());
        assertEquals(new Complex(2, 0), Statistics.mean(x, Options.all()).getComplex());
        NDArray variance = Statistics.var(x, Options.all(), 0);
        assertEquals(DType.FLOAT64, variance.dtype());
        assertEquals(2.0, variance.getDouble());
        assertEquals(new Complex(4, 0), Statistics.cumsum(x, null, null).getComplex(1));
    }

    @Test
    void whereSelectsWholeComplexValues() {
        NDArray chosen = NDArrays.where(NDArrays.array(false, true), complexes(new Complex(1, 2), new Complex(3, 4)),
                complexes(new Complex(5, 6), new Complex(7, 8)));
        assertEquals(new Complex(5, 6), chosen.getComplex(0));
        assertEquals(new Complex(3, 4), chosen.getComplex(1));
    }
}
