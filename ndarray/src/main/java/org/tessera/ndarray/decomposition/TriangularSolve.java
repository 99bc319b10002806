package org.tessera.ndarray.decomposition;

/** Forward and back substitution for {@code T X = B} with a square triangular T. */
final class TriangularSolve {
    private TriangularSolve() {
    }

    static DenseMatrix solve(DenseMatrix t, DenseMatrix b, boolean lower, boolean unitDiagonal, String operation) {
        int n = t.rows;
        if (t.columns != n) {
            throw new IllegalArgumentException(operation + ": the triangular matrix must be square, got shape " + t.shapeText());
        }
        if (b.rows != n) {
            throw new IllegalArgumentException(operation + ": the right-hand side of shape " + b.shapeText() + " does not match the matrix of shape "
                    + t.shapeText() + " (" + b.rows + " rows, " + n + " expected)");
        }
        if (!unitDiagonal) {
            for (int i = 0; i < n; i++) {
                if (t.get(i, i) == 0) {
                    throw new LinearAlgebraException(operation + ": Singular matrix: the triangular matrix of shape " + t.shapeText()
                            + " has a zero at diagonal position " + i);
                }
            }
        }
        int width = b.columns;
        DenseMatrix x = b.copy();
        for (int step = 0; step < n; step++) {
            int row = lower ? step : n - 1 - step;
            int rowStart = row * width;
            int from = lower ? 0 : row + 1;
            int to = lower ? row : n;
            for (int inner = from; inner < to; inner++) {
                double coefficient = t.get(row, inner);
                if (coefficient == 0) {
                    continue;
                }
                int innerStart = inner * width;
                for (int column = 0; column < width; column++) {
                    x.values[rowStart + column] -= coefficient * x.values[innerStart + column];
                }
            }
            if (!unitDiagonal) {
                double diagonal = t.get(row, row);
                for (int column = 0; column < width; column++) {
                    x.values[rowStart + column] /= diagonal;
                }
            }
        }
        return x;
    }
}
