package org.tessera.ndarray.ufunc;

/** NumPy's pairwise sum, written out plainly as the reference kernels are checked against, bit for bit. */
public final class NumpyPairwise {
    private NumpyPairwise() {}

    /** Eight interleaved partial sums up to 128 values, the two halves (the first a multiple of 8 long) above. */
    public static double sum(double[] values, int from, int count) {
        if (count < 8) {
            double sum = -0.0;
            for (int i = 0; i < count; i++) {
                sum += values[from + i];
            }
            return sum;
        }
        if (count <= 128) {
            double[] partials = new double[8];
            System.arraycopy(values, from, partials, 0, 8);
            int end = count - count % 8;
            for (int i = 8; i < end; i += 8) {
                for (int lane = 0; lane < 8; lane++) {
                    partials[lane] += values[from + i + lane];
                }
            }
            double sum = ((partials[0] + partials[1]) + (partials[2] + partials[3])) + ((partials[4] + partials[5]) + (partials[6] + partials[7]));
            for (int i = end; i < count; i++) {
                sum += values[from + i];
            }
            return sum;
        }
        int half = count / 2 - count / 2 % 8;
        return sum(values, from, half) + sum(values, from + half, count - half);
    }
}
