package org.tessera.ndarray.ufunc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.parallel.Cores;
import org.tessera.ndarray.ufunc.Reductions.Options;

/** Operations large enough to run on every core give what the sequential loops give, bit for bit. */
class SplitKernelsTest {
    private static final int COUNT = (int) Cores.SPLIT_ELEMENTS * 2 + 13;

    @Test
    void aSplitSumIsNumpysPairwiseSumBitForBit() {
        // Magnitudes from 1e-8 to 1e8: any other order of the additions rounds differently.
        Random random = new Random(11);
        double[] values = new double[COUNT];
        for (int i = 0; i < COUNT; i++) {
            values[i] = random.nextDouble() * Math.pow(10, random.nextInt(17) - 8);
        }
        double expected = NumpyPairwise.sum(values, 0, COUNT);
        assertEquals(expected, Statistics.sum(NDArrays.array(values), Options.all()).getDouble());
        // A view from an odd offset: the ranges start where the view does.
        NDArray tail = NDArrays.get(NDArrays.array(values), Index.range(5L, null, null));
        assertEquals(NumpyPairwise.sum(values, 5, COUNT - 5), Statistics.sum(tail, Options.all()).getDouble());
    }

    @Test
    void aSplitAdditionComputesEveryElement() {
        Random random = new Random(12);
        double[] a = random.doubles(COUNT).toArray();
        double[] b = random.doubles(COUNT).toArray();
        NDArray sum = Ufuncs.ADD.apply(NDArrays.array(a), NDArrays.array(b));
        NDArray shifted = Ufuncs.ADD.apply(NDArrays.array(a), 0.25);
        for (int i = 0; i < COUNT; i++) {
            assertEquals(a[i] + b[i], sum.getDouble(i), "a + b at " + i);
            assertEquals(a[i] + 0.25, shifted.getDouble(i), "a + 0.25 at " + i);
        }
    }

    @Test
    void aSplitIntegerAdditionComputesEveryElement() {
        int[] a = new int[COUNT];
        int[] b = new int[COUNT];
        for (int i = 0; i < COUNT; i++) {
            a[i] = i * 31;
            b[i] = -i % 1000;
        }
        NDArray sum = Ufuncs.ADD.apply(NDArrays.array(a), NDArrays.array(b));
        for (int i = 0; i < COUNT; i++) {
            assertEquals(a[i] + b[i], sum.getLong(i), "a + b at " + i);
        }
    }
}
