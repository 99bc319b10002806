package org.tessera.ndarray.fft;

import java.util.ArrayList;
import java.util.List;

/**
 * The complex transform of a length whose prime factors are small: a mixed-radix Cooley-Tukey
 * decomposition in the self-sorting (Stockham) order, so no bit reversal is needed and the result
 * comes out in natural order. Each pass of radix {@code p} reads {@code n} values as
 * {@code CC(i, m, k)} (i &lt; ido, m &lt; p, k &lt; l1, i fastest), computes the p-point DFT over m,
 * multiplies output j by {@code w_n^(j i l1)}, and writes {@code CH(i, k, j)}. Passes alternate
 * between the data and a scratch buffer. Radices 8, 4, 2, 3 and 5 have their own butterflies; any
 * other prime goes through a generic pass of cost O(p) per element.
 *
 * <p>Complex values are interleaved: real part at an even index, imaginary part after it.
 * Immutable after construction, so one instance serves any number of threads.
 */
final class MixedRadix {
    private final int n;
    private final int[] factors;
    /** Per pass: twiddles {@code w^(j i l1)} at {@code 2 * (i * (p - 1) + j - 1)}, forward (sin negated) and backward. */
    private final double[][] forwardTwiddles;
    private final double[][] backwardTwiddles;
    /** Per pass of a generic radix p: cos and sin of {@code 2 pi m / p} for m &lt; p (else null). */
    private final double[][] radixRoots;

    MixedRadix(int n) {
        this(n, factorize(n));
    }

    /** A decomposition into the given factors (in pass order), whose product must be n. */
    MixedRadix(int n, int[] factors) {
        long product = 1;
        for (int p : factors) {
            product *= p;
        }
        if (product != n) {
            throw new IllegalArgumentException("factors " + java.util.Arrays.toString(factors) + " do not multiply to " + n);
        }
        this.n = n;
        this.factors = factors.clone();
        this.forwardTwiddles = new double[factors.length][];
        this.backwardTwiddles = new double[factors.length][];
        this.radixRoots = new double[factors.length][];
        int l1 = 1;
        for (int pass = 0; pass < factors.length; pass++) {
            int p = factors[pass];
            int ido = n / (l1 * p);
            double[] backward = new double[2 * ido * (p - 1)];
            double[] forward = new double[backward.length];
            if (ido > 1) {
                for (int i = 0; i < ido; i++) {
                    for (int j = 1; j < p; j++) {
                        int at = 2 * (i * (p - 1) + j - 1);
                        Twiddles.unitRoot((long) j * i * l1, n, backward, at);
                        forward[at] = backward[at];
                        forward[at + 1] = -backward[at + 1];
                    }
                }
            }
            forwardTwiddles[pass] = forward;
            backwardTwiddles[pass] = backward;
            if (p > 5 && p != 8) {
                radixRoots[pass] = Twiddles.table(p, p, false);
            }
            l1 *= p;
        }
    }

    int length() { return n; }

    int[] factors() { return factors.clone(); }

    /** Doubles of scratch that {@link #transform} needs. */
    int scratchLength() { return 2 * n; }

    /**
     * The unnormalised transform of the n values at {@code data[offset...]}, in place, times
     * {@code scale}. Forward uses {@code exp(-2 pi i jk / n)}, backward {@code exp(+2 pi i jk / n)}.
     */
    void transform(double[] data, int offset, boolean forward, double scale, double[] scratch, int scratchOffset) {
        double[] in = data;
        int inOffset = offset;
        // The first pass (l1 = 1) writes each butterfly's outputs where its inputs were, so it can run in
        // place; with an odd number of passes it does, and the others then end in the data, not the scratch.
        boolean firstInPlace = factors.length % 2 == 1;
        double[] out = firstInPlace ? data : scratch;
        int outOffset = firstInPlace ? offset : scratchOffset;
        double sign = forward ? -1.0 : 1.0;
        int l1 = 1;
        for (int pass = 0; pass < factors.length; pass++) {
            int p = factors[pass];
            int ido = n / (l1 * p);
            double[] tw = forward ? forwardTwiddles[pass] : backwardTwiddles[pass];
            switch (p) {
                case 8 -> pass8(ido, l1, in, inOffset, out, outOffset, tw, sign);
                case 4 -> pass4(ido, l1, in, inOffset, out, outOffset, tw, sign);
                case 2 -> pass2(ido, l1, in, inOffset, out, outOffset, tw);
                case 3 -> pass3(ido, l1, in, inOffset, out, outOffset, tw, sign);
                case 5 -> pass5(ido, l1, in, inOffset, out, outOffset, tw, sign);
                default -> passGeneric(ido, l1, p, in, inOffset, out, outOffset, tw, radixRoots[pass], sign);
            }
            if (pass == 0 && firstInPlace) {
                out = scratch;
                outOffset = scratchOffset;
            } else {
                double[] t = in;
                in = out;
                out = t;
                int o = inOffset;
                inOffset = outOffset;
                outOffset = o;
            }
            l1 *= p;
        }
        // The result is in `in`.
        if (in != data || inOffset != offset) {
            if (scale == 1.0) {
                System.arraycopy(in, inOffset, data, offset, 2 * n);
            } else {
                for (int k = 0; k < 2 * n; k++) {
                    data[offset + k] = in[inOffset + k] * scale;
                }
            }
        } else if (scale != 1.0) {
            for (int k = offset, end = offset + 2 * n; k < end; k++) {
                data[k] *= scale;
            }
        }
    }

    /** Lengths from which radix-8 passes are used: beyond the caches, where fewer passes over memory win. */
    static final int RADIX_8_FROM = 1 << 18;

    /**
     * Factors of 8 (long transforms only), then of 4, then a 2 where needed, then odd primes in
     * increasing order. In cache, two radix-4 passes measured faster than a radix-8 one and a radix-2.
     */
    static int[] factorize(int n) {
        List<Integer> found = new ArrayList<>();
        int rest = n;
        while (n >= RADIX_8_FROM && rest % 8 == 0) {
            found.add(8);
            rest /= 8;
        }
        while (rest % 4 == 0) {
            found.add(4);
            rest /= 4;
        }
        if (rest % 2 == 0) {
            found.add(2);
            rest /= 2;
        }
        for (int p = 3; (long) p * p <= rest; p += 2) {
            while (rest % p == 0) {
                found.add(p);
                rest /= p;
            }
        }
        if (rest > 1) {
            found.add(rest);
        }
        return found.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Estimated operations of this decomposition: n times the cost per element of each pass. */
    static double cost(int n) {
        double perElement = 0;
        for (int p : factorize(n)) {
            perElement += p == 8 ? 6 : p <= 5 ? p : 1.1 * p;
        }
        return n * perElement;
    }

    // ---------------------------------------------------------------- passes
    // Indices are in doubles: complex value v sits at 2v. CC(i, m, k) = i + ido (m + p k);
    // CH(i, k, j) = i + ido (k + l1 j).

    private static void pass2(int ido, int l1, double[] cc, int co, double[] ch, int ho, double[] tw) {
        int jStride = 2 * ido * l1;
        if (ido == 1) {
            for (int k = 0; k < l1; k++) {
                int c = co + 4 * k;
                int h = ho + 2 * k;
                double ar = cc[c], ai = cc[c + 1], br = cc[c + 2], bi = cc[c + 3];
                ch[h] = ar + br;
                ch[h + 1] = ai + bi;
                ch[h + jStride] = ar - br;
                ch[h + jStride + 1] = ai - bi;
            }
            return;
        }
        int mStride = 2 * ido;
        for (int k = 0; k < l1; k++) {
            int c = co + 4 * ido * k;
            int h = ho + 2 * ido * k;
            for (int i = 0; i < 2 * ido; i += 2) {
                double ar = cc[c + i], ai = cc[c + i + 1];
                double br = cc[c + mStride + i], bi = cc[c + mStride + i + 1];
                ch[h + i] = ar + br;
                ch[h + i + 1] = ai + bi;
                double dr = ar - br, di = ai - bi;
                double wr = tw[i], wi = tw[i + 1];
                ch[h + jStride + i] = dr * wr - di * wi;
                ch[h + jStride + i + 1] = dr * wi + di * wr;
            }
        }
    }

    private static void pass4(int ido, int l1, double[] cc, int co, double[] ch, int ho, double[] tw, double sign) {
        int jStride = 2 * ido * l1;
        if (ido == 1) {
            for (int k = 0; k < l1; k++) {
                int c = co + 8 * k;
                int h = ho + 2 * k;
                double t0r = cc[c], t0i = cc[c + 1], t1r = cc[c + 2], t1i = cc[c + 3];
                double t2r = cc[c + 4], t2i = cc[c + 5], t3r = cc[c + 6], t3i = cc[c + 7];
                double ar = t0r + t2r, ai = t0i + t2i, br = t0r - t2r, bi = t0i - t2i;
                double cr = t1r + t3r, ci = t1i + t3i, dr = t1r - t3r, di = t1i - t3i;
                double er = -sign * di, ei = sign * dr;
                ch[h] = ar + cr;
                ch[h + 1] = ai + ci;
                ch[h + jStride] = br + er;
                ch[h + jStride + 1] = bi + ei;
                ch[h + 2 * jStride] = ar - cr;
                ch[h + 2 * jStride + 1] = ai - ci;
                ch[h + 3 * jStride] = br - er;
                ch[h + 3 * jStride + 1] = bi - ei;
            }
            return;
        }
        int m = 2 * ido;
        for (int k = 0; k < l1; k++) {
            int c = co + 8 * ido * k;
            int h = ho + 2 * ido * k;
            for (int i = 0; i < 2 * ido; i += 2) {
                int t = 3 * i;
                int c0 = c + i;
                double t0r = cc[c0], t0i = cc[c0 + 1];
                double t1r = cc[c0 + m], t1i = cc[c0 + m + 1];
                double t2r = cc[c0 + 2 * m], t2i = cc[c0 + 2 * m + 1];
                double t3r = cc[c0 + 3 * m], t3i = cc[c0 + 3 * m + 1];
                double ar = t0r + t2r, ai = t0i + t2i, br = t0r - t2r, bi = t0i - t2i;
                double cr = t1r + t3r, ci = t1i + t3i, dr = t1r - t3r, di = t1i - t3i;
                double er = -sign * di, ei = sign * dr;
                int h0 = h + i;
                ch[h0] = ar + cr;
                ch[h0 + 1] = ai + ci;
                double y1r = br + er, y1i = bi + ei;
                double y2r = ar - cr, y2i = ai - ci;
                double y3r = br - er, y3i = bi - ei;
                double w1r = tw[t], w1i = tw[t + 1], w2r = tw[t + 2], w2i = tw[t + 3], w3r = tw[t + 4], w3i = tw[t + 5];
                ch[h0 + jStride] = y1r * w1r - y1i * w1i;
                ch[h0 + jStride + 1] = y1r * w1i + y1i * w1r;
                ch[h0 + 2 * jStride] = y2r * w2r - y2i * w2i;
                ch[h0 + 2 * jStride + 1] = y2r * w2i + y2i * w2r;
                ch[h0 + 3 * jStride] = y3r * w3r - y3i * w3i;
                ch[h0 + 3 * jStride + 1] = y3r * w3i + y3i * w3r;
            }
        }
    }

    private static final double HALF_SQRT2 = 0.70710678118654752440;

    /**
     * Radix 8 as two 4-point DFTs of the even and odd inputs: {@code y_j = E_j + w^j O_j},
     * {@code y_(j+4) = E_j - w^j O_j}, with {@code w = exp(sign 2 pi i / 8)}.
     */
    private static void pass8(int ido, int l1, double[] cc, int co, double[] ch, int ho, double[] tw, double sign) {
        int jStride = 2 * ido * l1;
        int m = 2 * ido;
        double r = HALF_SQRT2;
        for (int k = 0; k < l1; k++) {
            int c = co + 16 * ido * k;
            int h = ho + 2 * ido * k;
            for (int i = 0, t = 0; i < 2 * ido; i += 2, t += 14) {
                int c0 = c + i;
                double t0r = cc[c0], t0i = cc[c0 + 1];
                double t1r = cc[c0 + m], t1i = cc[c0 + m + 1];
                double t2r = cc[c0 + 2 * m], t2i = cc[c0 + 2 * m + 1];
                double t3r = cc[c0 + 3 * m], t3i = cc[c0 + 3 * m + 1];
                double t4r = cc[c0 + 4 * m], t4i = cc[c0 + 4 * m + 1];
                double t5r = cc[c0 + 5 * m], t5i = cc[c0 + 5 * m + 1];
                double t6r = cc[c0 + 6 * m], t6i = cc[c0 + 6 * m + 1];
                double t7r = cc[c0 + 7 * m], t7i = cc[c0 + 7 * m + 1];
                // E = DFT4(t0, t2, t4, t6)
                double a0r = t0r + t4r, a0i = t0i + t4i, a1r = t0r - t4r, a1i = t0i - t4i;
                double a2r = t2r + t6r, a2i = t2i + t6i, a3r = t2r - t6r, a3i = t2i - t6i;
                double e0r = a0r + a2r, e0i = a0i + a2i, e2r = a0r - a2r, e2i = a0i - a2i;
                double e1r = a1r - sign * a3i, e1i = a1i + sign * a3r, e3r = a1r + sign * a3i, e3i = a1i - sign * a3r;
                // O = DFT4(t1, t3, t5, t7)
                double b0r = t1r + t5r, b0i = t1i + t5i, b1r = t1r - t5r, b1i = t1i - t5i;
                double b2r = t3r + t7r, b2i = t3i + t7i, b3r = t3r - t7r, b3i = t3i - t7i;
                double o0r = b0r + b2r, o0i = b0i + b2i, o2r = b0r - b2r, o2i = b0i - b2i;
                double o1r = b1r - sign * b3i, o1i = b1i + sign * b3r, o3r = b1r + sign * b3i, o3i = b1i - sign * b3r;
                // w^1 O_1, w^2 O_2 = sign i O_2, w^3 O_3
                double p1r = r * (o1r - sign * o1i), p1i = r * (o1i + sign * o1r);
                double p2r = -sign * o2i, p2i = sign * o2r;
                double p3r = r * (-o3r - sign * o3i), p3i = r * (sign * o3r - o3i);
                int h0 = h + i;
                ch[h0] = e0r + o0r;
                ch[h0 + 1] = e0i + o0i;
                double y1r = e1r + p1r, y1i = e1i + p1i, y5r = e1r - p1r, y5i = e1i - p1i;
                double y2r = e2r + p2r, y2i = e2i + p2i, y6r = e2r - p2r, y6i = e2i - p2i;
                double y3r = e3r + p3r, y3i = e3i + p3i, y7r = e3r - p3r, y7i = e3i - p3i;
                double y4r = e0r - o0r, y4i = e0i - o0i;
                if (ido == 1) {
                    ch[h0 + jStride] = y1r;
                    ch[h0 + jStride + 1] = y1i;
                    ch[h0 + 2 * jStride] = y2r;
                    ch[h0 + 2 * jStride + 1] = y2i;
                    ch[h0 + 3 * jStride] = y3r;
                    ch[h0 + 3 * jStride + 1] = y3i;
                    ch[h0 + 4 * jStride] = y4r;
                    ch[h0 + 4 * jStride + 1] = y4i;
                    ch[h0 + 5 * jStride] = y5r;
                    ch[h0 + 5 * jStride + 1] = y5i;
                    ch[h0 + 6 * jStride] = y6r;
                    ch[h0 + 6 * jStride + 1] = y6i;
                    ch[h0 + 7 * jStride] = y7r;
                    ch[h0 + 7 * jStride + 1] = y7i;
                } else {
                    double wr = tw[t], wi = tw[t + 1];
                    ch[h0 + jStride] = y1r * wr - y1i * wi;
                    ch[h0 + jStride + 1] = y1r * wi + y1i * wr;
                    wr = tw[t + 2];
                    wi = tw[t + 3];
                    ch[h0 + 2 * jStride] = y2r * wr - y2i * wi;
                    ch[h0 + 2 * jStride + 1] = y2r * wi + y2i * wr;
                    wr = tw[t + 4];
                    wi = tw[t + 5];
                    ch[h0 + 3 * jStride] = y3r * wr - y3i * wi;
                    ch[h0 + 3 * jStride + 1] = y3r * wi + y3i * wr;
                    wr = tw[t + 6];
                    wi = tw[t + 7];
                    ch[h0 + 4 * jStride] = y4r * wr - y4i * wi;
                    ch[h0 + 4 * jStride + 1] = y4r * wi + y4i * wr;
                    wr = tw[t + 8];
                    wi = tw[t + 9];
                    ch[h0 + 5 * jStride] = y5r * wr - y5i * wi;
                    ch[h0 + 5 * jStride + 1] = y5r * wi + y5i * wr;
                    wr = tw[t + 10];
                    wi = tw[t + 11];
                    ch[h0 + 6 * jStride] = y6r * wr - y6i * wi;
                    ch[h0 + 6 * jStride + 1] = y6r * wi + y6i * wr;
                    wr = tw[t + 12];
                    wi = tw[t + 13];
                    ch[h0 + 7 * jStride] = y7r * wr - y7i * wi;
                    ch[h0 + 7 * jStride + 1] = y7r * wi + y7i * wr;
                }
            }
        }
    }

    private static final double SIN_60 = 0.86602540378443864676;

    private static void pass3(int ido, int l1, double[] cc, int co, double[] ch, int ho, double[] tw, double sign) {
        int jStride = 2 * ido * l1;
        int m = 2 * ido;
        double s3 = sign * SIN_60;
        for (int k = 0; k < l1; k++) {
            int c = co + 6 * ido * k;
            int h = ho + 2 * ido * k;
            for (int i = 0, t = 0; i < 2 * ido; i += 2, t += 4) {
                int c0 = c + i;
                double t0r = cc[c0], t0i = cc[c0 + 1];
                double t1r = cc[c0 + m], t1i = cc[c0 + m + 1];
                double t2r = cc[c0 + 2 * m], t2i = cc[c0 + 2 * m + 1];
                double sr = t1r + t2r, si = t1i + t2i;
                double dr = t1r - t2r, di = t1i - t2i;
                double mr = t0r - 0.5 * sr, mi = t0i - 0.5 * si;
                // i * s3 * d
                double er = -s3 * di, ei = s3 * dr;
                int h0 = h + i;
                ch[h0] = t0r + sr;
                ch[h0 + 1] = t0i + si;
                double y1r = mr + er, y1i = mi + ei, y2r = mr - er, y2i = mi - ei;
                if (ido == 1) {
                    ch[h0 + jStride] = y1r;
                    ch[h0 + jStride + 1] = y1i;
                    ch[h0 + 2 * jStride] = y2r;
                    ch[h0 + 2 * jStride + 1] = y2i;
                } else {
                    double w1r = tw[t], w1i = tw[t + 1], w2r = tw[t + 2], w2i = tw[t + 3];
                    ch[h0 + jStride] = y1r * w1r - y1i * w1i;
                    ch[h0 + jStride + 1] = y1r * w1i + y1i * w1r;
                    ch[h0 + 2 * jStride] = y2r * w2r - y2i * w2i;
                    ch[h0 + 2 * jStride + 1] = y2r * w2i + y2i * w2r;
                }
            }
        }
    }

    private static final double COS_72 = 0.30901699437494742410;
    private static final double SIN_72 = 0.95105651629515357212;
    private static final double COS_144 = -0.80901699437494742410;
    private static final double SIN_144 = 0.58778525229247312917;

    private static void pass5(int ido, int l1, double[] cc, int co, double[] ch, int ho, double[] tw, double sign) {
        int jStride = 2 * ido * l1;
        int m = 2 * ido;
        double s1 = sign * SIN_72, s2 = sign * SIN_144;
        for (int k = 0; k < l1; k++) {
            int c = co + 10 * ido * k;
            int h = ho + 2 * ido * k;
            for (int i = 0, t = 0; i < 2 * ido; i += 2, t += 8) {
                int c0 = c + i;
                double t0r = cc[c0], t0i = cc[c0 + 1];
                double t1r = cc[c0 + m], t1i = cc[c0 + m + 1];
                double t2r = cc[c0 + 2 * m], t2i = cc[c0 + 2 * m + 1];
                double t3r = cc[c0 + 3 * m], t3i = cc[c0 + 3 * m + 1];
                double t4r = cc[c0 + 4 * m], t4i = cc[c0 + 4 * m + 1];
                double a1r = t1r + t4r, a1i = t1i + t4i, d1r = t1r - t4r, d1i = t1i - t4i;
                double a2r = t2r + t3r, a2i = t2i + t3i, d2r = t2r - t3r, d2i = t2i - t3i;
                int h0 = h + i;
                ch[h0] = t0r + a1r + a2r;
                ch[h0 + 1] = t0i + a1i + a2i;
                double par = t0r + COS_72 * a1r + COS_144 * a2r, pai = t0i + COS_72 * a1i + COS_144 * a2i;
                double pbr = t0r + COS_144 * a1r + COS_72 * a2r, pbi = t0i + COS_144 * a1i + COS_72 * a2i;
                double zar = s1 * d1r + s2 * d2r, zai = s1 * d1i + s2 * d2i;
                double zbr = s2 * d1r - s1 * d2r, zbi = s2 * d1i - s1 * d2i;
                // y1 = pa + i za, y4 = pa - i za, y2 = pb + i zb, y3 = pb - i zb
                double y1r = par - zai, y1i = pai + zar, y4r = par + zai, y4i = pai - zar;
                double y2r = pbr - zbi, y2i = pbi + zbr, y3r = pbr + zbi, y3i = pbi - zbr;
                if (ido == 1) {
                    ch[h0 + jStride] = y1r;
                    ch[h0 + jStride + 1] = y1i;
                    ch[h0 + 2 * jStride] = y2r;
                    ch[h0 + 2 * jStride + 1] = y2i;
                    ch[h0 + 3 * jStride] = y3r;
                    ch[h0 + 3 * jStride + 1] = y3i;
                    ch[h0 + 4 * jStride] = y4r;
                    ch[h0 + 4 * jStride + 1] = y4i;
                } else {
                    double wr = tw[t], wi = tw[t + 1];
                    ch[h0 + jStride] = y1r * wr - y1i * wi;
                    ch[h0 + jStride + 1] = y1r * wi + y1i * wr;
                    wr = tw[t + 2];
                    wi = tw[t + 3];
                    ch[h0 + 2 * jStride] = y2r * wr - y2i * wi;
                    ch[h0 + 2 * jStride + 1] = y2r * wi + y2i * wr;
                    wr = tw[t + 4];
                    wi = tw[t + 5];
                    ch[h0 + 3 * jStride] = y3r * wr - y3i * wi;
                    ch[h0 + 3 * jStride + 1] = y3r * wi + y3i * wr;
                    wr = tw[t + 6];
                    wi = tw[t + 7];
                    ch[h0 + 4 * jStride] = y4r * wr - y4i * wi;
                    ch[h0 + 4 * jStride + 1] = y4r * wi + y4i * wr;
                }
            }
        }
    }

    /**
     * Any odd radix p: with h = (p - 1) / 2 sums {@code s_m = t_m + t_(p-m)} and differences
     * {@code d_m = t_m - t_(p-m)}, {@code y_j = t_0 + sum_m cos(2 pi jm/p) s_m + i sign sum_m sin(2 pi jm/p) d_m}
     * and {@code y_(p-j)} the same with the sine part subtracted.
     */
    private static void passGeneric(int ido, int l1, int p, double[] cc, int co, double[] ch, int ho, double[] tw,
                                    double[] roots, double sign) {
        int jStride = 2 * ido * l1;
        int m = 2 * ido;
        int half = (p - 1) / 2;
        double[] sums = new double[2 * (half + 1)];
        double[] diffs = new double[2 * (half + 1)];
        double[] cos = new double[p];
        double[] sin = new double[p];
        for (int q = 0; q < p; q++) {
            cos[q] = roots[2 * q];
            sin[q] = sign * roots[2 * q + 1];
        }
        for (int k = 0; k < l1; k++) {
            int c = co + 2 * p * ido * k;
            int h = ho + 2 * ido * k;
            for (int i = 0, t = 0; i < 2 * ido; i += 2, t += 2 * (p - 1)) {
                int c0 = c + i;
                double t0r = cc[c0], t0i = cc[c0 + 1];
                double y0r = t0r, y0i = t0i;
                for (int q = 1; q <= half; q++) {
                    double ar = cc[c0 + q * m], ai = cc[c0 + q * m + 1];
                    double br = cc[c0 + (p - q) * m], bi = cc[c0 + (p - q) * m + 1];
                    sums[2 * q] = ar + br;
                    sums[2 * q + 1] = ai + bi;
                    diffs[2 * q] = ar - br;
                    diffs[2 * q + 1] = ai - bi;
                    y0r += ar + br;
                    y0i += ai + bi;
                }
                int h0 = h + i;
                ch[h0] = y0r;
                ch[h0 + 1] = y0i;
                for (int j = 1; j <= half; j++) {
                    double ar = t0r, ai = t0i, br = 0, bi = 0;
                    int index = 0;
                    for (int q = 1; q <= half; q++) {
                        index += j;
                        if (index >= p) {
                            index -= p;
                        }
                        double cq = cos[index], sq = sin[index];
                        ar += cq * sums[2 * q];
                        ai += cq * sums[2 * q + 1];
                        br += sq * diffs[2 * q];
                        bi += sq * diffs[2 * q + 1];
                    }
                    // y_j = a + i b, y_(p-j) = a - i b
                    double yjr = ar - bi, yji = ai + br, ykr = ar + bi, yki = ai - br;
                    int hj = h0 + j * jStride, hk = h0 + (p - j) * jStride;
                    if (ido == 1) {
                        ch[hj] = yjr;
                        ch[hj + 1] = yji;
                        ch[hk] = ykr;
                        ch[hk + 1] = yki;
                    } else {
                        int tj = t + 2 * (j - 1), tk = t + 2 * (p - j - 1);
                        ch[hj] = yjr * tw[tj] - yji * tw[tj + 1];
                        ch[hj + 1] = yjr * tw[tj + 1] + yji * tw[tj];
                        ch[hk] = ykr * tw[tk] - yki * tw[tk + 1];
                        ch[hk + 1] = ykr * tw[tk + 1] + yki * tw[tk];
                    }
                }
            }
        }
    }
}
