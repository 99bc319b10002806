package org.tessera.ndarray.fft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

/**
 * The one-dimensional plans against a naive O(n^2) DFT (with exactly reduced roots of unity), round
 * trips, Parseval's identity, real plans against complex ones, and plans shared between threads.
 */
class FftPlanTest {
    private static final double TOLERANCE = 1e-12;

    /** The DFT by definition: X_k = sum_m x_m exp(sign 2 pi i mk / n). */
    static double[] naive(double[] x, boolean forward) {
        int n = x.length / 2;
        double[] roots = new double[2 * n];
        for (int k = 0; k < n; k++) {
            Twiddles.unitRoot(k, n, roots, 2 * k);
        }
        double sign = forward ? -1 : 1;
        double[] result = new double[2 * n];
        for (int k = 0; k < n; k++) {
            double re = 0, im = 0;
            for (int m = 0; m < n; m++) {
                int r = (int) ((long) m * k % n);
                double c = roots[2 * r], s = sign * roots[2 * r + 1];
                re += x[2 * m] * c - x[2 * m + 1] * s;
                im += x[2 * m] * s + x[2 * m + 1] * c;
            }
            result[2 * k] = re;
            result[2 * k + 1] = im;
        }
        return result;
    }

    static double[] random(Random random, int doubles) {
        double[] values = new double[doubles];
        for (int i = 0; i < doubles; i++) {
            values[i] = random.nextDouble() * 2 - 1;
        }
        return values;
    }

    /** The largest |expected - actual| relative to the largest |expected|. */
    static double relativeError(double[] expected, double[] actual, int count) {
        double maxMagnitude = 0, maxError = 0;
        for (int i = 0; i < count; i++) {
            maxMagnitude = Math.max(maxMagnitude, Math.abs(expected[i]));
            maxError = Math.max(maxError, Math.abs(expected[i] - actual[i]));
        }
        return maxMagnitude == 0 ? maxError : maxError / maxMagnitude;
    }

    private static void checkAgainstNaive(int n, Random random) {
        FftPlan plan = FftPlan.of(n);
        double[] x = random(random, 2 * n);
        for (boolean forward : new boolean[] {true, false}) {
            double[] expected = naive(x, forward);
            // At an offset inside a larger array, with a dirty scratch array, to check the offsets.
            double[] data = new double[2 * n + 6];
            System.arraycopy(x, 0, data, 3, 2 * n);
            double[] scratch = random(random, plan.scratchLength() + 5);
            plan.transform(data, 3, forward, 1.0, scratch);
            double[] actual = java.util.Arrays.copyOfRange(data, 3, 3 + 2 * n);
            double error = relativeError(expected, actual, 2 * n);
            assertTrue(error <= TOLERANCE, "n=" + n + " " + plan + (forward ? " forward" : " backward") + ": relative error " + error);
        }
    }

    @Test
    void everyLengthUpTo300MatchesTheNaiveDft() {
        Random random = new Random(1);
        for (int n = 1; n <= 300; n++) {
            checkAgainstNaive(n, random);
        }
    }

    @Test
    void largerLengthsMatchTheNaiveDft() {
        Random random = new Random(2);
        List<Integer> lengths = new ArrayList<>(List.of(512, 1000, 1009, 1024, 2048, 2310, 3000, 4096, 4099, 97 * 89, 2 * 1999, 3 * 5 * 7 * 11 * 13));
        for (int i = 0; i < 8; i++) {
            lengths.add(301 + random.nextInt(4000));
        }
        for (int n : lengths) {
            checkAgainstNaive(n, random);
        }
    }

    @Test
    void everyRadixOrderGivesTheSameTransform() {
        Random random = new Random(7);
        int[][] decompositions = {
            {8}, {8, 8}, {2, 8, 4}, {8, 8, 8}, {8, 5, 5, 5}, {3, 8, 5}, {8, 7, 3}, {4, 8, 2, 8}, {8, 8, 8, 8}, {5, 8, 11, 8},
        };
        for (int[] factors : decompositions) {
            int n = 1;
            for (int p : factors) {
                n *= p;
            }
            MixedRadix plan = new MixedRadix(n, factors);
            double[] x = random(random, 2 * n);
            for (boolean forward : new boolean[] {true, false}) {
                double[] data = x.clone();
                plan.transform(data, 0, forward, 1.0, new double[plan.scratchLength()], 0);
                double error = relativeError(naive(x, forward), data, 2 * n);
                assertTrue(error <= TOLERANCE, java.util.Arrays.toString(factors) + ": relative error " + error);
            }
        }
        // The radix-8 decomposition of long transforms against the radix-4 one.
        int n = MixedRadix.RADIX_8_FROM;
        double[] x = random(random, 2 * n);
        double[] eights = x.clone();
        double[] fours = x.clone();
        MixedRadix radix8 = new MixedRadix(n);
        assertEquals(8, radix8.factors()[0]);
        radix8.transform(eights, 0, true, 1.0, new double[2 * n], 0);
        new MixedRadix(n, new int[] {4, 4, 4, 4, 4, 4, 4, 4, 4}).transform(fours, 0, true, 1.0, new double[2 * n], 0);
        assertTrue(relativeError(fours, eights, 2 * n) <= TOLERANCE);
    }

    @Test
    void largePrimesUseBluesteinAndSmoothLengthsDoNot() {
        assertTrue(FftPlan.of(4099).usesBluestein());
        assertTrue(FftPlan.of(1009).usesBluestein());
        assertTrue(!FftPlan.of(4096).usesBluestein() && !FftPlan.of(3000).usesBluestein() && !FftPlan.of(31).usesBluestein());
        assertSame(FftPlan.of(4096), FftPlan.of(4096));
    }

    @Test
    void backwardOfForwardGivesTheInputBack() {
        Random random = new Random(3);
        for (int n : new int[] {1, 2, 3, 7, 16, 97, 101, 211, 360, 1000, 1009, 4096, 4099, 65536, 65537, 100_003}) {
            FftPlan plan = FftPlan.of(n);
            double[] x = random(random, 2 * n);
            double[] data = x.clone();
            double[] scratch = plan.newScratch();
            plan.forward(data, 0, scratch);
            plan.transform(data, 0, false, 1.0 / n, scratch);
            double error = relativeError(x, data, 2 * n);
            assertTrue(error <= 1e-13, "n=" + n + ": round trip relative error " + error);
        }
    }

    @Test
    void parsevalHolds() {
        Random random = new Random(4);
        for (int n : new int[] {5, 64, 243, 1000, 4099, 12_345}) {
            double[] x = random(random, 2 * n);
            double[] data = x.clone();
            FftPlan.of(n).forward(data);
            double energy = 0, spectrum = 0;
            for (int i = 0; i < 2 * n; i++) {
                energy += x[i] * x[i];
                spectrum += data[i] * data[i];
            }
            assertEquals(energy, spectrum / n, 1e-12 * energy, "n=" + n);
        }
    }

    @Test
    void realPlansAgreeWithComplexOnes() {
        Random random = new Random(5);
        List<Integer> lengths = new ArrayList<>();
        for (int n = 1; n <= 300; n++) {
            lengths.add(n);
        }
        lengths.addAll(List.of(1024, 1009, 4099, 4098, 65536, 3000));
        for (int n : lengths) {
            RealFftPlan plan = RealFftPlan.of(n);
            double[] reals = random(random, n);
            double[] complex = new double[2 * n];
            for (int m = 0; m < n; m++) {
                complex[2 * m] = reals[m];
            }
            double[] expected = n <= 4099 ? naive(complex, true) : complex.clone();
            if (n > 4099) {
                FftPlan.of(n).forward(expected);
            }
            double[] line = new double[plan.lineLength() + 2];
            System.arraycopy(reals, 0, line, 1, n);
            double[] scratch = plan.newScratch();
            plan.forward(line, 1, 1.0, scratch);
            double[] half = java.util.Arrays.copyOfRange(line, 1, 1 + plan.lineLength());
            double error = relativeError(expected, half, plan.lineLength());
            assertTrue(error <= TOLERANCE, "rfft n=" + n + ": relative error " + error);
            // Garbage in the ignored imaginary parts (X_0, and X_(n/2) for even n) must not matter.
            line[2] = 123.0;
            if (n % 2 == 0) {
                line[1 + 2 * (n / 2) + 1] = -77.0;
            }
            plan.backward(line, 1, 1.0 / n, scratch);
            double[] back = java.util.Arrays.copyOfRange(line, 1, 1 + n);
            double backError = relativeError(reals, back, n);
            assertTrue(backError <= 1e-13, "irfft(rfft) n=" + n + ": relative error " + backError);
        }
    }

    @Test
    void plansAreSharedSafelyBetweenThreads() throws Exception {
        int[] lengths = {1024, 4099, 1000, 360, 65536, 97};
        Random random = new Random(6);
        double[][] inputs = new double[lengths.length][];
        double[][] expected = new double[lengths.length][];
        for (int i = 0; i < lengths.length; i++) {
            inputs[i] = random(random, 2 * lengths[i]);
            expected[i] = inputs[i].clone();
            FftPlan.of(lengths[i]).forward(expected[i]);
        }
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int task = 0; task < 24; task++) {
                int which = task % lengths.length;
                results.add(pool.submit(() -> {
                    FftPlan plan = FftPlan.of(lengths[which]);
                    double[] scratch = plan.newScratch();
                    for (int repeat = 0; repeat < 20; repeat++) {
                        double[] data = inputs[which].clone();
                        plan.forward(data, 0, scratch);
                        if (!java.util.Arrays.equals(data, expected[which])) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertTrue(result.get(), "a shared plan gave another result on another thread");
            }
        }
    }

    @Test
    void badArgumentsAreRefusedWithClearMessages() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> FftPlan.of(0));
        assertEquals("Invalid number of FFT data points (0) specified.", zero.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RealFftPlan.of(-3));
        FftPlan plan = FftPlan.of(8);
        IllegalArgumentException shortLine = assertThrows(IllegalArgumentException.class,
                () -> plan.forward(new double[20], 6, plan.newScratch()));
        assertTrue(shortLine.getMessage().contains("16 doubles at offset 6"), shortLine.getMessage());
        IllegalArgumentException shortScratch = assertThrows(IllegalArgumentException.class,
                () -> plan.forward(new double[16], 0, new double[3]));
        assertTrue(shortScratch.getMessage().contains("needs 16"), shortScratch.getMessage());
        IllegalArgumentException norm = assertThrows(IllegalArgumentException.class, () -> FftNorm.parse("orthogonal"));
        assertTrue(norm.getMessage().contains("orthogonal"), norm.getMessage());
        assertEquals(FftNorm.BACKWARD, FftNorm.parse(null));
    }
}
