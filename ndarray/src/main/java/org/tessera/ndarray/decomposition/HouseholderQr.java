package org.tessera.ndarray.decomposition;

/**
 * Reduced QR by Householder reflections: {@code A (m x n) = Q (m x k) R (k x n)} with
 * {@code k = min(m, n)}, Q with orthonormal columns and R upper triangular with a non-negative
 * diagonal. Reflections rather than Gram-Schmidt because Q stays orthonormal to rounding error
 * however ill-conditioned A is, which the tall-and-skinny QR relies on when it stacks block Rs.
 */
final class HouseholderQr {
    final DenseMatrix q;
    final DenseMatrix r;

    private HouseholderQr(DenseMatrix q, DenseMatrix r) {
        this.q = q;
        this.r = r;
    }

    static HouseholderQr of(DenseMatrix a) {
        int m = a.rows;
        int n = a.columns;
        int k = Math.min(m, n);
        DenseMatrix work = a.copy();
        double[][] reflectors = new double[k][];
        double[] scales = new double[k];
        for (int j = 0; j < k; j++) {
            double norm = 0;
            double largest = 0;
            for (int i = j; i < m; i++) {
                largest = Math.max(largest, Math.abs(work.get(i, j)));
            }
            if (largest == 0) {
                // Nothing below or on the diagonal to annihilate: the identity reflection.
                reflectors[j] = null;
                continue;
            }
            // Scaling by the largest entry keeps the sum of squares from overflowing or underflowing.
            for (int i = j; i < m; i++) {
                double scaled = work.get(i, j) / largest;
                norm += scaled * scaled;
            }
            norm = Math.sqrt(norm) * largest;
            double diagonal = work.get(j, j);
            // Adding the norm with the diagonal's sign avoids cancellation in v's first entry.
            double signedNorm = diagonal >= 0 ? norm : -norm;
            double[] v = new double[m - j];
            v[0] = diagonal + signedNorm;
            for (int i = j + 1; i < m; i++) {
                v[i - j] = work.get(i, j);
            }
            double vNormSquared = 0;
            for (double entry : v) {
                vNormSquared += entry * entry;
            }
            reflectors[j] = v;
            scales[j] = 2 / vNormSquared;
            work.set(j, j, -signedNorm);
            for (int i = j + 1; i < m; i++) {
                work.set(i, j, 0);
            }
            for (int column = j + 1; column < n; column++) {
                reflect(work, v, scales[j], j, column);
            }
        }
        DenseMatrix r = new DenseMatrix(k, n);
        for (int row = 0; row < k; row++) {
            for (int column = row; column < n; column++) {
                r.set(row, column, work.get(row, column));
            }
        }
        DenseMatrix q = new DenseMatrix(m, k);
        for (int i = 0; i < k; i++) {
            q.set(i, i, 1);
        }
        // Q = H0 H1 ... H(k-1) applied to the first k columns of the identity, innermost first.
        for (int j = k - 1; j >= 0; j--) {
            if (reflectors[j] != null) {
                for (int column = j; column < k; column++) {
                    reflect(q, reflectors[j], scales[j], j, column);
                }
            }
        }
        for (int row = 0; row < k; row++) {
            if (r.get(row, row) < 0) {
                for (int column = row; column < n; column++) {
                    r.set(row, column, -r.get(row, column));
                }
                for (int i = 0; i < m; i++) {
                    q.set(i, row, -q.get(i, row));
                }
            }
        }
        return new HouseholderQr(q, r);
    }

    /** Column {@code column} of {@code target} (rows from {@code start}) times {@code I - scale v v^T}. */
    private static void reflect(DenseMatrix target, double[] v, double scale, int start, int column) {
        double dot = 0;
        for (int i = 0; i < v.length; i++) {
            dot += v[i] * target.get(start + i, column);
        }
        if (dot == 0) {
            return;
        }
        double factor = scale * dot;
        for (int i = 0; i < v.length; i++) {
            int index = (start + i) * target.columns + column;
            target.values[index] -= factor * v[i];
        }
    }
}
