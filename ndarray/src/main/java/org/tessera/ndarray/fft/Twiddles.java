package org.tessera.ndarray.fft;

/**
 * Roots of unity {@code exp(2 pi i k / n)} computed for an argument reduced to the first octant by
 * the exact symmetries of sine and cosine, so that the table is symmetric to the last bit and every
 * entry is within an ulp or so of the true value (no error accumulates from recurrences).
 */
final class Twiddles {
    private Twiddles() {}

    /** Writes cos and sin of {@code 2 pi k / n} into {@code out[at]} and {@code out[at + 1]}. */
    static void unitRoot(long k, long n, double[] out, int at) {
        long a = Math.floorMod(k, n);
        long b = n;
        boolean negateSin = false;
        boolean negateCos = false;
        boolean swap = false;
        if (2 * a > b) {          // theta in (pi, 2 pi): reflect about the real axis
            a = b - a;
            negateSin = true;
        }
        if (4 * a > b) {          // theta in (pi/2, pi]: pi - theta = 2 pi (b - 2a) / 2b
            a = b - 2 * a;
            b = 2 * b;
            negateCos = true;
        }
        if (8 * a > b) {          // theta in (pi/4, pi/2]: pi/2 - theta = 2 pi (b - 4a) / 4b
            a = b - 4 * a;
            b = 4 * b;
            swap = true;
        }
        double angle = 2 * Math.PI * a / b;
        double c = Math.cos(angle);
        double s = Math.sin(angle);
        if (swap) {
            double t = c;
            c = s;
            s = t;
        }
        out[at] = negateCos ? -c : c;
        out[at + 1] = negateSin ? -s : s;
    }

    /** cos and sin of {@code 2 pi k / n} for k in [0, count), interleaved; sin negated when {@code negateSin}. */
    static double[] table(int count, long n, boolean negateSin) {
        double[] table = new double[2 * count];
        for (int k = 0; k < count; k++) {
            unitRoot(k, n, table, 2 * k);
            if (negateSin) {
                table[2 * k + 1] = -table[2 * k + 1];
            }
        }
        return table;
    }
}
