package org.tessera.ndarray.decomposition;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The reduced SVD {@code A = U diag(s) V^T} by one-sided Jacobi (Hestenes) rotations: pairs of
 * columns are rotated until every pair is orthogonal, the column norms are then the singular
 * values. Tall matrices are first reduced to their square R by Householder QR, so the rotations
 * run on n x n; wide matrices are handled through their transpose. Jacobi is slower than
 * Golub-Kahan for large n but short, and accurate to high relative precision on the small
 * matrices it serves here.
 */
final class JacobiSvd {
    private static final double EPSILON = Math.ulp(1.0);
    private static final int MAX_SWEEPS = 80;

    final DenseMatrix u;
    final double[] singularValues;
    /** V^T, as NumPy returns it. */
    final DenseMatrix vt;

    private JacobiSvd(DenseMatrix u, double[] singularValues, DenseMatrix vt) {
        this.u = u;
        this.singularValues = singularValues;
        this.vt = vt;
    }

    static JacobiSvd of(DenseMatrix a, String operation) {
        if (a.rows < a.columns) {
            JacobiSvd transposed = of(a.transpose(), operation);
            return new JacobiSvd(transposed.vt.transpose(), transposed.singularValues, transposed.u.transpose());
        }
        if (a.rows > a.columns) {
            HouseholderQr qr = HouseholderQr.of(a);
            JacobiSvd square = ofTallOrSquare(qr.r, operation);
            return new JacobiSvd(qr.q.times(square.u), square.singularValues, square.vt);
        }
        return ofTallOrSquare(a, operation);
    }

    private static JacobiSvd ofTallOrSquare(DenseMatrix a, String operation) {
        int m = a.rows;
        int n = a.columns;
        // Columns held contiguously, since every rotation reads and writes two whole columns.
        double[][] w = new double[n][m];
        double[][] v = new double[n][n];
        for (int column = 0; column < n; column++) {
            for (int row = 0; row < m; row++) {
                w[column][row] = a.get(row, column);
            }
            v[column][column] = 1;
        }
        boolean converged = n < 2;
        for (int sweep = 0; sweep < MAX_SWEEPS && !converged; sweep++) {
            converged = true;
            for (int p = 0; p < n - 1; p++) {
                for (int q = p + 1; q < n; q++) {
                    double alpha = dot(w[p], w[p]);
                    double beta = dot(w[q], w[q]);
                    double gamma = dot(w[p], w[q]);
                    if (gamma == 0 || Math.abs(gamma) <= EPSILON * Math.sqrt(alpha * beta)) {
                        continue;
                    }
                    converged = false;
                    double zeta = (beta - alpha) / (2 * gamma);
                    double t = Math.signum(zeta) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
                    if (zeta == 0) {
                        t = 1;
                    }
                    double c = 1 / Math.sqrt(1 + t * t);
                    double s = c * t;
                    rotate(w[p], w[q], c, s);
                    rotate(v[p], v[q], c, s);
                }
            }
        }
        if (!converged) {
            throw new LinearAlgebraException(operation + ": SVD did not converge after " + MAX_SWEEPS + " Jacobi sweeps on a matrix of shape " + a.shapeText());
        }
        double[] norms = new double[n];
        for (int column = 0; column < n; column++) {
            norms[column] = Math.sqrt(dot(w[column], w[column]));
        }
        Integer[] order = IntStream.range(0, n).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble((Integer column) -> norms[column]).reversed());
        double largest = n == 0 ? 0 : norms[order[0]];
        DenseMatrix u = new DenseMatrix(m, n);
        DenseMatrix vt = new DenseMatrix(n, n);
        double[] singularValues = new double[n];
        double[][] accepted = new double[n][];
        for (int rank = 0; rank < n; rank++) {
            int column = order[rank];
            singularValues[rank] = norms[column];
            double[] direction = w[column].clone();
            // A column that rotations shrank to (almost) nothing carries no direction of its own:
            // complete U with an orthonormal vector instead, which changes U S V^T by at most its size.
            boolean negligible = norms[column] <= largest * EPSILON * Math.max(m, n);
            if (negligible) {
                direction = orthogonalComplement(accepted, rank, m);
            } else {
                scale(direction, 1 / norms[column]);
            }
            accepted[rank] = direction;
            for (int row = 0; row < m; row++) {
                u.set(row, rank, direction[row]);
            }
            for (int index = 0; index < n; index++) {
                vt.set(rank, index, v[column][index]);
            }
        }
        return new JacobiSvd(u, singularValues, vt);
    }

    /** A unit vector orthogonal to the first {@code count} accepted columns (twice Gram-Schmidt on unit vectors). */
    private static double[] orthogonalComplement(double[][] accepted, int count, int length) {
        for (int axis = 0; axis < length; axis++) {
            double[] candidate = new double[length];
            candidate[axis] = 1;
            for (int pass = 0; pass < 2; pass++) {
                for (int other = 0; other < count; other++) {
                    double projection = dot(candidate, accepted[other]);
                    for (int i = 0; i < length; i++) {
                        candidate[i] -= projection * accepted[other][i];
                    }
                }
            }
            double norm = Math.sqrt(dot(candidate, candidate));
            if (norm > 0.5) {
                scale(candidate, 1 / norm);
                return candidate;
            }
        }
        throw new IllegalStateException("no unit vector of length " + length + " is orthogonal to " + count + " others");
    }

    private static double dot(double[] a, double[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    private static void rotate(double[] p, double[] q, double c, double s) {
        for (int i = 0; i < p.length; i++) {
            double first = p[i];
            double second = q[i];
            p[i] = c * first - s * second;
            q[i] = s * first + c * second;
        }
    }

    private static void scale(double[] values, double factor) {
        for (int i = 0; i < values.length; i++) {
            values[i] *= factor;
        }
    }
}
