package org.tessera.ndarray.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.kernel.VectorMath;
import org.tessera.ndarray.ufunc.Ufuncs;

/** The Vector API provider against the scalar definition: the Lucene pattern of a tested fallback. */
class VectorApiMathTest {

    /** Random values over each function's whole domain, plus the edges where implementations differ. */
    private static double[] inputs(VectorMath.Function function) {
        SplittableRandom random = new SplittableRandom(7);
        double[] values = new double[100_003];
        for (int i = 0; i < values.length; i++) {
            values[i] = switch (function) {
                case EXP -> (random.nextDouble() - 0.5) * 1500;
                case LOG -> Math.scalb(random.nextDouble(), random.nextInt(-1074, 1024));
            };
        }
        double[] edges = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0, -0.0, 1.0, -1.0,
                709.782712893384, 709.7827128933841, -745.1332191019411, -745.1332191019412, Double.MIN_VALUE,
                Double.MAX_VALUE, Double.MIN_NORMAL, 1e-300, -708.4};
        System.arraycopy(edges, 0, values, 0, edges.length);
        return values;
    }

    @Test
    void everyFunctionIsWithinOneUlpOfMathAndAgreesOnSpecialValues() {
        VectorMath vector = new VectorApiMath();
        for (VectorMath.Function function : VectorMath.Function.values()) {
            double[] input = inputs(function);
            double[] fast = new double[input.length];
            double[] scalar = new double[input.length];
            vector.apply(function, input, fast, input.length);
            VectorMath.scalar().apply(function, input, scalar, input.length);
            for (int i = 0; i < input.length; i++) {
                String where = function + "(" + input[i] + ")";
                if (Double.isNaN(scalar[i]) || Double.isInfinite(scalar[i]) || scalar[i] == 0) {
                    assertEquals(scalar[i], fast[i], where);
                } else {
                    assertTrue(Math.abs(fast[i] - scalar[i]) <= Math.ulp(scalar[i]), where + ": " + fast[i] + " vs " + scalar[i]);
                }
            }
        }
    }

    @Test
    void theUfuncsUseTheProviderWhenTheIncubatorModuleIsPresent() {
        assertTrue(VectorMath.selected() instanceof VectorApiMath, "selected: " + VectorMath.selected().name());
        NDArray x = NDArrays.linspace(-3, 3, 1001);
        NDArray result = Ufuncs.EXP.apply(x);
        for (long i = 0; i < x.size(); i++) {
            assertEquals(Math.exp(x.getDouble(i)), result.getDouble(i), Math.ulp(Math.exp(x.getDouble(i))));
        }
        assertEquals(0.0, Ufuncs.LOG.apply(NDArrays.linspace(1, 1, 17)).getDouble(16));
    }

    /** The contiguous path indexes the backing long[] from the segment's offset: views at other offsets, and read-only inputs, must agree with Math. */
    @Test
    void contiguousViewsAtAnyOffsetAndReadOnlyInputsGiveMathsValues() {
        NDArray x = NDArrays.linspace(-20, 20, 1003);
        for (long start : new long[] {0, 1, 5, 17}) {
            NDArray view = NDArrays.get(x, org.tessera.ndarray.index.Index.range(start, 1003L - start % 3, 1L));
            for (NDArray input : new NDArray[] {view, view.readOnly()}) {
                NDArray exp = Ufuncs.EXP.apply(input);
                NDArray log = Ufuncs.LOG.apply(Ufuncs.ABSOLUTE.apply(input));
                for (long i = 0; i < input.size(); i++) {
                    double value = input.getDouble(i);
                    assertEquals(Math.exp(value), exp.getDouble(i), Math.ulp(Math.exp(value)), "exp at " + i + " of a view from " + start);
                    assertEquals(Math.log(Math.abs(value)), log.getDouble(i), Math.ulp(Math.log(Math.abs(value))), "log at " + i);
                }
            }
        }
        NDArray out = NDArray.zeros(org.tessera.ndarray.dtype.DType.FLOAT64, 1003);
        NDArray target = NDArrays.get(out, org.tessera.ndarray.index.Index.range(3L, 1003L, 1L));
        Ufuncs.EXP.apply(new Object[] {NDArrays.get(x, org.tessera.ndarray.index.Index.range(0L, 1000L, 1L))}, new NDArray[] {target}, null,
                org.tessera.ndarray.dtype.Casting.SAME_KIND);
        assertEquals(0.0, out.getDouble(2), "nothing written before the output view");
        assertEquals(Math.exp(x.getDouble(999)), out.getDouble(1002), Math.ulp(Math.exp(x.getDouble(999))));
    }
}
