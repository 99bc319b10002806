package org.tessera.ndarray.fft;

/**
 * The complex transform of any length n as a convolution (Bluestein's chirp-z algorithm): with
 * {@code b_m = exp(i pi m^2 / n)}, {@code X_k = conj(b_k) sum_m (x_m conj(b_m)) b_(k-m)}, a
 * cyclic convolution of length {@code n2 >= 2n - 1} computed with two transforms of a length
 * whose factors are 2, 3 and 5. Used for lengths with a large prime factor, where the generic
 * radix pass would cost O(n p). The chirp angles are reduced exactly ({@code m^2 mod 2n}) before
 * any rounding, so they are accurate for any n.
 */
final class Bluestein {
    private final int n;
    private final int n2;
    private final MixedRadix inner;
    /** b_m for m &lt; n, interleaved. */
    private final double[] chirp;
    /** The forward transform of the wrapped chirp, divided by n2 (the inverse's scale). */
    private final double[] kernel;

    Bluestein(int n) {
        this.n = n;
        this.n2 = goodSize(2L * n - 1);
        this.inner = new MixedRadix(n2);
        this.chirp = new double[2 * n];
        long twoN = 2L * n;
        for (int m = 0; m < n; m++) {
            long square = Math.floorMod((long) m * m, twoN);
            Twiddles.unitRoot(square, twoN, chirp, 2 * m);
        }
        double[] wrapped = new double[2 * n2];
        wrapped[0] = chirp[0];
        wrapped[1] = chirp[1];
        for (int m = 1; m < n; m++) {
            wrapped[2 * m] = chirp[2 * m];
            wrapped[2 * m + 1] = chirp[2 * m + 1];
            wrapped[2 * (n2 - m)] = chirp[2 * m];
            wrapped[2 * (n2 - m) + 1] = chirp[2 * m + 1];
        }
        inner.transform(wrapped, 0, true, 1.0 / n2, new double[inner.scratchLength()], 0);
        this.kernel = wrapped;
    }

    /** Smallest 2^a 3^b 5^c at least {@code minimum}. */
    static int goodSize(long minimum) {
        long best = Long.MAX_VALUE;
        for (long p2 = 1; p2 < 2 * minimum; p2 *= 2) {
            for (long p3 = p2; p3 < 2 * minimum; p3 *= 3) {
                for (long p5 = p3; p5 < 2 * minimum; p5 *= 5) {
                    if (p5 >= minimum && p5 < best) {
                        best = p5;
                    }
                }
            }
        }
        if (best > Integer.MAX_VALUE / 4) {
            throw new IllegalArgumentException("FFT length " + minimum + " is too large for Bluestein's algorithm");
        }
        return (int) best;
    }

    /**
     * Estimated operations, comparable with {@link MixedRadix#cost}: two transforms of n2 and the
     * pointwise work (measured: Bluestein wins from prime lengths of about 60 up).
     */
    static double cost(int n) {
        int size = goodSize(2L * n - 1);
        return 2 * MixedRadix.cost(size) + 6.0 * size;
    }

    int scratchLength() { return 2 * n2 + inner.scratchLength(); }

    void transform(double[] data, int offset, boolean forward, double scale, double[] scratch, int scratchOffset) {
        int a = scratchOffset;
        // a_m = x_m conj(b_m) (forward) or conj(x_m b_m) (backward, as conj(forward(conj x))).
        for (int m = 0; m < n; m++) {
            double xr = data[offset + 2 * m], xi = data[offset + 2 * m + 1];
            if (!forward) {
                xi = -xi;
            }
            double br = chirp[2 * m], bi = chirp[2 * m + 1];
            scratch[a + 2 * m] = xr * br + xi * bi;
            scratch[a + 2 * m + 1] = xi * br - xr * bi;
        }
        java.util.Arrays.fill(scratch, a + 2 * n, a + 2 * n2, 0.0);
        int innerScratch = scratchOffset + 2 * n2;
        inner.transform(scratch, a, true, 1.0, scratch, innerScratch);
        for (int k = 0; k < n2; k++) {
            double ar = scratch[a + 2 * k], ai = scratch[a + 2 * k + 1];
            double kr = kernel[2 * k], ki = kernel[2 * k + 1];
            scratch[a + 2 * k] = ar * kr - ai * ki;
            scratch[a + 2 * k + 1] = ar * ki + ai * kr;
        }
        inner.transform(scratch, a, false, 1.0, scratch, innerScratch);
        for (int k = 0; k < n; k++) {
            double cr = scratch[a + 2 * k], ci = scratch[a + 2 * k + 1];
            double br = chirp[2 * k], bi = chirp[2 * k + 1];
            // conj(b_k) c_k
            double yr = cr * br + ci * bi, yi = ci * br - cr * bi;
            data[offset + 2 * k] = yr * scale;
            data[offset + 2 * k + 1] = (forward ? yi : -yi) * scale;
        }
    }
}
