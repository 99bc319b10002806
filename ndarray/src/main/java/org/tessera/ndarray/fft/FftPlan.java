package org.tessera.ndarray.fft;

/**
 * A one-dimensional complex discrete Fourier transform of a fixed length {@code n}, for callers that
 * transform many lines (the NDArray functions of {@link Fft}, chunked arrays) without NDArray
 * overhead. Data are <b>interleaved</b> doubles: value {@code k} of a line starting at
 * {@code offset} has its real part at {@code data[offset + 2k]} and its imaginary part at
 * {@code data[offset + 2k + 1]}. Transforms run in place and are unnormalised:
 * <pre>
 *   forward:  X_k = scale * sum_m x_m exp(-2 pi i m k / n)
 *   backward: x_m = scale * sum_k X_k exp(+2 pi i m k / n)     (NumPy's ifft is backward with scale 1/n)
 * </pre>
 * Lengths whose prime factors are at most 5, or small, use a mixed-radix Cooley-Tukey algorithm
 * (radix 4, 2, 3, 5 and generic odd-prime passes); lengths with a large prime factor use
 * Bluestein's algorithm. Results agree with NumPy's pocketfft to about 1e-15 relative to the
 * largest magnitude.
 *
 * <p>A plan is immutable and may be shared by any number of threads; each call needs a scratch
 * array of {@link #scratchLength()} doubles (from {@link #newScratch()}), which a thread may reuse
 * for every call of the same plan. {@link #of(int)} caches recent plans. Typical use:
 * <pre>
 *   FftPlan plan = FftPlan.of(n);
 *   double[] scratch = plan.newScratch();
 *   for (int line = 0; line &lt; lines; line++) {
 *       plan.forward(block, line * 2 * n, scratch);
 *   }
 * </pre>
 */
public final class FftPlan {
    private static final PlanCache<FftPlan> CACHE = new PlanCache<>(64, FftPlan::new);

    /** Lengths up to this always use Cooley-Tukey (the generic pass is cheap for them). */
    private static final int ALWAYS_MIXED_RADIX = 50;

    private final int n;
    private final MixedRadix mixedRadix;
    private final Bluestein bluestein;

    private FftPlan(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("Invalid number of FFT data points (" + n + ") specified.");
        }
        if (n > Integer.MAX_VALUE / 2 - 8) {
            throw new IllegalArgumentException("FFT length " + n + " is too large (at most " + (Integer.MAX_VALUE / 2 - 8)
                    + " complex values fit one Java array)");
        }
        this.n = n;
        boolean useBluestein = n > ALWAYS_MIXED_RADIX && largestPrimeFactor(n) > 5 && Bluestein.cost(n) < MixedRadix.cost(n);
        this.mixedRadix = useBluestein ? null : new MixedRadix(n);
        this.bluestein = useBluestein ? new Bluestein(n) : null;
    }

    /** The plan for {@code n} complex points (n &gt;= 1), from a small cache of recently used plans. */
    public static FftPlan of(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("Invalid number of FFT data points (" + n + ") specified.");
        }
        return CACHE.get(n);
    }

    /** Number of complex points. */
    public int length() { return n; }

    /** Doubles of scratch each call needs. */
    public int scratchLength() {
        return mixedRadix != null ? mixedRadix.scratchLength() : bluestein.scratchLength();
    }

    /** A new scratch array for this plan. */
    public double[] newScratch() {
        return new double[scratchLength()];
    }

    /** Whether this plan uses Bluestein's algorithm (a large prime factor) rather than Cooley-Tukey. */
    public boolean usesBluestein() { return bluestein != null; }

    /** The forward transform (unscaled) of the line at {@code data[offset ... offset + 2n)}, in place. */
    public void forward(double[] data, int offset, double[] scratch) {
        transform(data, offset, true, 1.0, scratch);
    }

    /** The backward transform (unscaled: NumPy's ifft times n) of the line at {@code offset}, in place. */
    public void backward(double[] data, int offset, double[] scratch) {
        transform(data, offset, false, 1.0, scratch);
    }

    /** The forward transform of the line at offset 0, with a scratch array allocated for the call. */
    public void forward(double[] data) {
        transform(data, 0, true, 1.0, newScratch());
    }

    /** The backward transform of the line at offset 0, with a scratch array allocated for the call. */
    public void backward(double[] data) {
        transform(data, 0, false, 1.0, newScratch());
    }

    /** The transform in either direction of the line at {@code offset}, in place, multiplied by {@code scale}. */
    public void transform(double[] data, int offset, boolean forward, double scale, double[] scratch) {
        checkLine(data, offset, 2 * n);
        if (scratch.length < scratchLength()) {
            throw new IllegalArgumentException("scratch of " + scratch.length + " doubles is too short for an FFT plan of length " + n
                    + ", which needs " + scratchLength());
        }
        run(data, offset, forward, scale, scratch, 0);
    }

    /**
     * Transforms {@code count} lines in place, line {@code l} starting at {@code offset + l * lineStride}
     * (a stride of {@code 2 * n} for lines one after another).
     */
    public void transformLines(double[] data, int offset, int count, int lineStride, boolean forward, double scale, double[] scratch) {
        for (int line = 0; line < count; line++) {
            transform(data, offset + line * lineStride, forward, scale, scratch);
        }
    }

    /** As {@link #transform} without checks, with scratch from {@code scratchOffset}. */
    void run(double[] data, int offset, boolean forward, double scale, double[] scratch, int scratchOffset) {
        if (mixedRadix != null) {
            mixedRadix.transform(data, offset, forward, scale, scratch, scratchOffset);
        } else {
            bluestein.transform(data, offset, forward, scale, scratch, scratchOffset);
        }
    }

    void checkLine(double[] data, int offset, int doubles) {
        if (offset < 0 || (long) offset + doubles > data.length) {
            throw new IllegalArgumentException("a line of " + doubles + " doubles at offset " + offset + " does not fit an array of "
                    + data.length + " doubles (FFT length " + n + ")");
        }
    }

    static int largestPrimeFactor(int n) {
        int rest = n;
        int largest = 1;
        for (int p = 2; (long) p * p <= rest; p++) {
            while (rest % p == 0) {
                largest = p;
                rest /= p;
            }
        }
        return Math.max(largest, rest);
    }

    @Override
    public String toString() {
        return "FftPlan[n=" + n + (bluestein != null ? ", Bluestein" : ", factors " + java.util.Arrays.toString(mixedRadix.factors())) + "]";
    }
}
