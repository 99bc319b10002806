package org.tessera.array.fft;

import java.io.Serial;
import java.io.Serializable;
import java.math.BigInteger;

/**
 * The roots of unity {@code exp(sign 2 pi i p / n)} for any {@code p} and any {@code n}, from two
 * tables of about {@code sqrt(n)} entries each: {@code p = high L + low}, and the root is the product
 * of the two tabled roots, within two ulps of the exact value. Exponents are reduced exactly (in
 * integers) before any rounding, so roots of large {@code n} are as accurate as those of small ones.
 */
final class UnitRoots implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final long n;
    private final int low;
    private final double[] lowRoots;
    private final double[] highRoots;

    /** The roots {@code exp(sign 2 pi i p / n)}, {@code sign} +1 or -1. */
    UnitRoots(long n, int sign) {
        if (n < 1) {
            throw new IllegalArgumentException("roots of unity of order " + n);
        }
        this.n = n;
        this.low = (int) Math.max(1, Math.ceil(Math.sqrt((double) n)));
        int high = (int) ((n + low - 1) / low);
        this.lowRoots = table(low, 1, n, sign);
        this.highRoots = table(high, low, n, sign);
    }

    private static double[] table(int count, long step, long n, int sign) {
        double[] roots = new double[2 * count];
        for (int index = 0; index < count; index++) {
            long exponent = Math.floorMod(index * step, n);
            // Reduced to the first half turn's symmetric range before the angle is rounded.
            double angle = 2 * Math.PI * ((double) exponent / n);
            if (2 * exponent > n) {
                angle = -2 * Math.PI * ((double) (n - exponent) / n);
            }
            roots[2 * index] = Math.cos(angle);
            roots[2 * index + 1] = sign * Math.sin(angle);
        }
        return roots;
    }

    long order() {
        return n;
    }

    /** The root of exponent {@code p} (any long; reduced mod n) into {@code out[at]}, {@code out[at + 1]}. */
    void root(long p, double[] out, int at) {
        long reduced = Math.floorMod(p, n);
        int high = (int) (reduced / low);
        int lowIndex = (int) (reduced - (long) high * low);
        double ar = highRoots[2 * high];
        double ai = highRoots[2 * high + 1];
        double br = lowRoots[2 * lowIndex];
        double bi = lowRoots[2 * lowIndex + 1];
        out[at] = ar * br - ai * bi;
        out[at + 1] = ar * bi + ai * br;
    }

    /** {@code a b mod m} for non-negative a, b and positive m, exact for every long. */
    static long multiplyMod(long a, long b, long m) {
        if (Math.multiplyHigh(a, b) == 0 && a * b >= 0) {
            return (a * b) % m;
        }
        return BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)).mod(BigInteger.valueOf(m)).longValueExact();
    }
}
