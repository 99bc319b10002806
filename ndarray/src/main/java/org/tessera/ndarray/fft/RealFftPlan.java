package org.tessera.ndarray.fft;

/**
 * A one-dimensional transform of {@code n} real points to the {@code n/2 + 1} complex values of
 * the non-negative frequencies (NumPy's {@code rfft}), and back ({@code irfft}), for callers that
 * transform many lines. A line takes {@link #lineLength()} = {@code 2 (n/2 + 1)} doubles from its
 * offset: the n reals at the start before {@link #forward}, the interleaved complex values after it
 * (and the other way round for {@link #backward}). Unnormalised, as {@link FftPlan}:
 * <pre>
 *   forward:  X_k = scale * sum_m x_m exp(-2 pi i m k / n),  k = 0 .. n/2
 *   backward: x_m = scale * (X_0 + 2 Re sum_(0 &lt; k &lt; n/2) X_k exp(2 pi i m k / n) [+ X_(n/2) (-1)^m, n even])
 * </pre>
 * As NumPy, backward ignores the imaginary parts of {@code X_0} and (for even n) {@code X_(n/2)}.
 * Even lengths run as a complex transform of n/2 points plus an O(n) pass; odd lengths as a complex
 * transform of n points. Immutable and shareable; each call needs {@link #scratchLength()} doubles
 * of scratch.
 */
public final class RealFftPlan {
    private static final PlanCache<RealFftPlan> CACHE = new PlanCache<>(64, RealFftPlan::new);

    private final int n;
    /** Even n: the complex plan of n/2; odd n: of n. */
    private final FftPlan complex;
    /** Even n: cos and sin of 2 pi k / n for k = 0 .. n/4. */
    private final double[] roots;

    private RealFftPlan(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("Invalid number of FFT data points (" + n + ") specified.");
        }
        this.n = n;
        if (n % 2 == 0) {
            this.complex = FftPlan.of(n / 2);
            this.roots = Twiddles.table(n / 4 + 1, n, false);
        } else {
            this.complex = FftPlan.of(n);
            this.roots = null;
        }
    }

    /** The plan for {@code n} real points (n &gt;= 1), from a small cache of recently used plans. */
    public static RealFftPlan of(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("Invalid number of FFT data points (" + n + ") specified.");
        }
        return CACHE.get(n);
    }

    /** Number of real points. */
    public int length() { return n; }

    /** Number of complex values of the half spectrum, {@code n/2 + 1}. */
    public int complexLength() { return n / 2 + 1; }

    /** Doubles a line takes: {@code 2 (n/2 + 1)}. */
    public int lineLength() { return 2 * (n / 2 + 1); }

    /** Doubles of scratch each call needs. */
    public int scratchLength() {
        return n % 2 == 0 ? complex.scratchLength() : 2 * n + complex.scratchLength();
    }

    /** A new scratch array for this plan. */
    public double[] newScratch() {
        return new double[scratchLength()];
    }

    /** The n reals at {@code data[offset...]} become their n/2 + 1 complex Fourier coefficients, times {@code scale}. */
    public void forward(double[] data, int offset, double scale, double[] scratch) {
        check(data, offset, scratch);
        if (n % 2 == 0) {
            forwardEven(data, offset, scale, scratch);
        } else {
            int line = 0;
            for (int m = 0; m < n; m++) {
                scratch[line + 2 * m] = data[offset + m];
                scratch[line + 2 * m + 1] = 0.0;
            }
            complex.run(scratch, line, true, scale, scratch, 2 * n);
            System.arraycopy(scratch, line, data, offset, lineLength());
        }
    }

    /** The n/2 + 1 complex values at {@code data[offset...]} become the n reals of the inverse, times {@code scale}. */
    public void backward(double[] data, int offset, double scale, double[] scratch) {
        check(data, offset, scratch);
        if (n % 2 == 0) {
            backwardEven(data, offset, scale, scratch);
        } else {
            int line = 0;
            scratch[0] = data[offset];
            scratch[1] = 0.0;
            for (int k = 1; 2 * k < n; k++) {
                double re = data[offset + 2 * k], im = data[offset + 2 * k + 1];
                scratch[2 * k] = re;
                scratch[2 * k + 1] = im;
                scratch[2 * (n - k)] = re;
                scratch[2 * (n - k) + 1] = -im;
            }
            complex.run(scratch, line, false, scale, scratch, 2 * n);
            for (int m = 0; m < n; m++) {
                data[offset + m] = scratch[2 * m];
            }
        }
    }

    private void check(double[] data, int offset, double[] scratch) {
        if (offset < 0 || (long) offset + lineLength() > data.length) {
            throw new IllegalArgumentException("a real FFT line of length " + n + " needs " + lineLength() + " doubles at offset "
                    + offset + ", but the array has " + data.length);
        }
        if (scratch.length < scratchLength()) {
            throw new IllegalArgumentException("scratch of " + scratch.length + " doubles is too short for a real FFT plan of length "
                    + n + ", which needs " + scratchLength());
        }
    }

    /**
     * The reals, read as n/2 complex values {@code z_m = x_2m + i x_2m+1}, are transformed; then with
     * {@code E_k = (Z_k + conj Z_(h-k)) / 2} (the even samples' spectrum) and
     * {@code O_k = (Z_k - conj Z_(h-k)) / 2i} (the odd samples'), {@code X_k = E_k + w^k O_k} and
     * {@code X_(h-k) = conj(E_k - w^k O_k)}, {@code w = exp(-2 pi i / n)}.
     */
    private void forwardEven(double[] d, int o, double scale, double[] scratch) {
        int h = n / 2;
        complex.run(d, o, true, scale, scratch, 0);
        double zr = d[o], zi = d[o + 1];
        d[o] = zr + zi;
        d[o + 1] = 0.0;
        d[o + 2 * h] = zr - zi;
        d[o + 2 * h + 1] = 0.0;
        for (int k = 1; 2 * k <= h; k++) {
            int a = o + 2 * k, b = o + 2 * (h - k);
            double ar = d[a], ai = d[a + 1], br = d[b], bi = d[b + 1];
            double er = 0.5 * (ar + br), ei = 0.5 * (ai - bi);
            double or = 0.5 * (ai + bi), oi = -0.5 * (ar - br);
            double c = roots[2 * k], s = roots[2 * k + 1];
            double wr = c * or + s * oi, wi = c * oi - s * or;
            d[a] = er + wr;
            d[a + 1] = ei + wi;
            d[b] = er - wr;
            d[b + 1] = wi - ei;
        }
    }

    /** The inverse of {@link #forwardEven}: {@code Z_k = E_k + i O_k} rebuilt (times 2), then a backward transform of n/2. */
    private void backwardEven(double[] d, int o, double scale, double[] scratch) {
        int h = n / 2;
        double r0 = d[o], rh = d[o + 2 * h];
        d[o] = r0 + rh;
        d[o + 1] = r0 - rh;
        for (int k = 1; 2 * k <= h; k++) {
            int a = o + 2 * k, b = o + 2 * (h - k);
            double xr = d[a], xi = d[a + 1], yr = d[b], yi = d[b + 1];
            double er = xr + yr, ei = xi - yi;
            double dr = xr - yr, di = xi + yi;
            double c = roots[2 * k], s = roots[2 * k + 1];
            double or = dr * c - di * s, oi = dr * s + di * c;
            d[a] = er - oi;
            d[a + 1] = ei + or;
            d[b] = er + oi;
            d[b + 1] = or - ei;
        }
        complex.run(d, o, false, scale, scratch, 0);
    }
}
