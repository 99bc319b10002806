package org.tessera.ndarray.ufunc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.CastingException;
import org.tessera.ndarray.ufunc.Reductions.Options;

/** Reductions over empty axes and ufuncs on boolean operands, where NumPy raises and where it does not. */
class EmptyAxisAndBoolOperandTest {

    @Test
    void aReductionWithoutIdentityRefusesAnEmptyReducedAxisEvenForAnEmptyResult() {
        NDArray empty = NDArray.zeros(DType.FLOAT64, 0, 0);
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () -> NDArrays.max(empty, Options.axes(1)));
        assertTrue(thrown.getMessage().contains("maximum") && thrown.getMessage().contains("(0,0)"), thrown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NDArrays.min(NDArray.zeros(DType.INT64, 2, 0, 3), Options.axes(0, 1)));
        // Only the reduced axes decide: reducing axes of length 2 and 3 of (2, 0, 3) is fine.
        assertArrayEquals(new long[] {0}, NDArrays.max(NDArray.zeros(DType.INT64, 2, 0, 3), Options.axes(0, 2)).shape());
        assertArrayEquals(new long[] {1, 0}, NDArrays.max(NDArray.zeros(DType.FLOAT64, 3, 0), Options.axes(0).withKeepdims(true)).shape());
    }

    @Test
    void reductionsWithAnIdentityGiveItOverEmptyAxes() {
        NDArray empty = NDArray.zeros(DType.FLOAT64, 0, 3);
        assertArrayEquals(new double[] {1, 1, 1}, Flat.doubles(NDArrays.prod(empty, Options.axes(0))));
        assertArrayEquals(new double[] {0, 0, 0}, Flat.doubles(NDArrays.sum(empty, Options.axes(0))));
        assertTrue(Double.isNaN(NDArrays.mean(empty, Options.axes(0)).getDouble(0)));
    }

    @Test
    void argExtremaRefuseAnEmptyAxisOnly() {
        NDArray empty = NDArray.zeros(DType.FLOAT64, 0, 3);
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () -> NDArrays.argmax(empty, 0, false));
        assertTrue(thrown.getMessage().contains("(0,3)"), thrown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NDArrays.argmin(NDArray.zeros(DType.FLOAT64, 0, 0), 1, false));
        assertArrayEquals(new long[] {0}, NDArrays.argmin(empty, 1, false).shape());
    }

    @Test
    void signNegativePositiveAndSubtractRefuseBooleans() {
        NDArray flags = NDArrays.array(true, false);
        for (String name : new String[] {"sign", "negative", "positive"}) {
            CastingException thrown = assertThrows(CastingException.class, () -> NDArrays.ufunc(name).apply(flags), name);
            assertTrue(thrown.getMessage().contains(name), thrown.getMessage());
        }
        assertThrows(CastingException.class, () -> NDArrays.ufunc("subtract").apply(flags, flags));
        // With an integer operand they promote and compute.
        assertEquals(DType.INT8, NDArrays.ufunc("subtract").apply(flags, NDArrays.array((byte) 1, (byte) 1)).dtype());
        assertEquals(DType.INT8, NDArrays.ufunc("sign").apply(flags.astype(DType.INT8)).dtype());
        assertEquals(DType.BOOL, NDArrays.ufunc("absolute").apply(flags).dtype());
    }
}
