package org.tessera.ndarray.decomposition;

/**
 * Gaussian elimination with partial pivoting: {@code P A = L U} for an m x n A, with L (m x k)
 * unit lower triangular, U (k x n) upper triangular and {@code k = min(m, n)}. The pivot is the
 * largest entry in magnitude of its column, which bounds the multipliers by one. A zero pivot
 * does not stop the factorisation (as LAPACK's getrf); it is recorded so that solvers can name it.
 */
final class PivotedLu {
    final DenseMatrix lower;
    final DenseMatrix upper;
    /** Row i of {@code L U} is row {@code permutation[i]} of A. */
    final int[] permutation;
    /** The first zero pivot's position, or -1. */
    final int firstZeroPivot;

    private PivotedLu(DenseMatrix lower, DenseMatrix upper, int[] permutation, int firstZeroPivot) {
        this.lower = lower;
        this.upper = upper;
        this.permutation = permutation;
        this.firstZeroPivot = firstZeroPivot;
    }

    static PivotedLu of(DenseMatrix a) {
        int m = a.rows;
        int n = a.columns;
        int k = Math.min(m, n);
        DenseMatrix work = a.copy();
        int[] permutation = new int[m];
        for (int i = 0; i < m; i++) {
            permutation[i] = i;
        }
        int firstZeroPivot = -1;
        for (int j = 0; j < k; j++) {
            int pivot = j;
            for (int i = j + 1; i < m; i++) {
                if (Math.abs(work.get(i, j)) > Math.abs(work.get(pivot, j))) {
                    pivot = i;
                }
            }
            if (pivot != j) {
                swapRows(work, pivot, j);
                int held = permutation[pivot];
                permutation[pivot] = permutation[j];
                permutation[j] = held;
            }
            double diagonal = work.get(j, j);
            if (diagonal == 0) {
                if (firstZeroPivot < 0) {
                    firstZeroPivot = j;
                }
                continue;
            }
            for (int i = j + 1; i < m; i++) {
                double multiplier = work.get(i, j) / diagonal;
                work.set(i, j, multiplier);
                if (multiplier == 0) {
                    continue;
                }
                int rowStart = i * n;
                int pivotStart = j * n;
                for (int column = j + 1; column < n; column++) {
                    work.values[rowStart + column] -= multiplier * work.values[pivotStart + column];
                }
            }
        }
        if (firstZeroPivot < 0 && m == n && n > 0 && work.get(n - 1, n - 1) == 0) {
            firstZeroPivot = n - 1;
        }
        DenseMatrix lower = new DenseMatrix(m, k);
        DenseMatrix upper = new DenseMatrix(k, n);
        for (int row = 0; row < m; row++) {
            for (int column = 0; column < Math.min(row, k); column++) {
                lower.set(row, column, work.get(row, column));
            }
            if (row < k) {
                lower.set(row, row, 1);
                for (int column = row; column < n; column++) {
                    upper.set(row, column, work.get(row, column));
                }
            }
        }
        return new PivotedLu(lower, upper, permutation, firstZeroPivot);
    }

    private static void swapRows(DenseMatrix matrix, int first, int second) {
        int width = matrix.columns;
        double[] held = new double[width];
        System.arraycopy(matrix.values, first * width, held, 0, width);
        System.arraycopy(matrix.values, second * width, matrix.values, first * width, width);
        System.arraycopy(held, 0, matrix.values, second * width, width);
    }

    /** {@code A^-1 b} for a square A, or the singular-matrix exception naming the zero pivot. */
    DenseMatrix solve(DenseMatrix b, String operation) {
        if (firstZeroPivot >= 0) {
            throw new LinearAlgebraException(operation + ": Singular matrix: the matrix of shape " + upper.shapeText()
                    + " has a zero pivot at position " + firstZeroPivot + " of its LU factorisation");
        }
        DenseMatrix permuted = new DenseMatrix(b.rows, b.columns);
        for (int row = 0; row < b.rows; row++) {
            System.arraycopy(b.values, permutation[row] * b.columns, permuted.values, row * b.columns, b.columns);
        }
        DenseMatrix forward = TriangularSolve.solve(lower, permuted, true, true, operation);
        return TriangularSolve.solve(upper, forward, false, false, operation);
    }
}
