package org.tessera.ndarray.decomposition;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;

/**
 * {@code numpy.linalg}'s decompositions and solvers for 2-D arrays (see the package notes for the
 * conventions). Right-hand sides may be 1-D (one vector, answered 1-D) or 2-D (several columns).
 */
public final class Decompositions {
    private Decompositions() {
    }

    /** Reduced QR, NumPy's {@code qr(a, mode="reduced")}, with R's diagonal non-negative. */
    public static QrDecomposition qr(NDArray a) {
        HouseholderQr qr = HouseholderQr.of(DenseMatrix.of(a, "qr"));
        DType dtype = DenseMatrix.resultType(a);
        return new QrDecomposition(qr.q.toNDArray(dtype), qr.r.toNDArray(dtype));
    }

    /**
     * The lower-triangular L with {@code A = L L^T}; only A's lower triangle is read, as LAPACK does.
     *
     * @throws LinearAlgebraException when A is not positive definite, naming the failing leading minor
     */
    public static NDArray cholesky(NDArray a) {
        DenseMatrix matrix = requireSquare(a, "cholesky");
        int n = matrix.rows;
        DenseMatrix lower = new DenseMatrix(n, n);
        for (int j = 0; j < n; j++) {
            double diagonal = matrix.get(j, j);
            for (int p = 0; p < j; p++) {
                diagonal -= lower.get(j, p) * lower.get(j, p);
            }
            if (!(diagonal > 0)) {
                throw new LinearAlgebraException("cholesky: Matrix is not positive definite: the matrix of shape " + matrix.shapeText()
                        + " has a non-positive leading minor of order " + (j + 1));
            }
            double root = Math.sqrt(diagonal);
            lower.set(j, j, root);
            for (int i = j + 1; i < n; i++) {
                double value = matrix.get(i, j);
                for (int p = 0; p < j; p++) {
                    value -= lower.get(i, p) * lower.get(j, p);
                }
                lower.set(i, j, value / root);
            }
        }
        return lower.toNDArray(DenseMatrix.resultType(a));
    }

    /** {@code P A = L U} with partial pivoting, for any m x n A (a singular A gives a U with a zero on its diagonal). */
    public static LuDecomposition lu(NDArray a) {
        PivotedLu lu = PivotedLu.of(DenseMatrix.of(a, "lu"));
        NDArray permutation = NDArray.zeros(DType.INT64, lu.permutation.length);
        for (int row = 0; row < lu.permutation.length; row++) {
            permutation.setLong(lu.permutation[row], row);
        }
        DType dtype = DenseMatrix.resultType(a);
        return new LuDecomposition(permutation, lu.lower.toNDArray(dtype), lu.upper.toNDArray(dtype));
    }

    /**
     * x with {@code T x = b} for a triangular T (SciPy's {@code solve_triangular}); only the named
     * triangle of T is read, and its diagonal is taken as ones when {@code unitDiagonal}.
     */
    public static NDArray solveTriangular(NDArray t, NDArray b, boolean lower, boolean unitDiagonal) {
        DenseMatrix matrix = requireSquare(t, "solveTriangular");
        DenseMatrix rightHandSide = rightHandSide(b, matrix, "solveTriangular");
        DenseMatrix x = TriangularSolve.solve(matrix, rightHandSide, lower, unitDiagonal, "solveTriangular");
        return x.toNDArray(resultType(t, b), b.ndim() == 1);
    }

    /** x with {@code A x = b} for a square A, by LU with partial pivoting. */
    public static NDArray solve(NDArray a, NDArray b) {
        DenseMatrix matrix = requireSquare(a, "solve");
        DenseMatrix rightHandSide = rightHandSide(b, matrix, "solve");
        return PivotedLu.of(matrix).solve(rightHandSide, "solve").toNDArray(resultType(a, b), b.ndim() == 1);
    }

    /** The inverse of a square A. */
    public static NDArray inv(NDArray a) {
        DenseMatrix matrix = requireSquare(a, "inv");
        return PivotedLu.of(matrix).solve(DenseMatrix.identity(matrix.rows), "inv").toNDArray(DenseMatrix.resultType(a));
    }

    /** The reduced SVD (NumPy's {@code svd(a, full_matrices=False)}). */
    public static SingularValueDecomposition svd(NDArray a) {
        JacobiSvd svd = JacobiSvd.of(DenseMatrix.of(a, "svd"), "svd");
        DType dtype = DenseMatrix.resultType(a);
        return new SingularValueDecomposition(svd.u.toNDArray(dtype), DenseMatrix.vector(svd.singularValues, dtype), svd.vt.toNDArray(dtype));
    }

    /** The singular values alone, descending (NumPy's {@code svd(a, compute_uv=False)}). */
    public static NDArray singularValues(NDArray a) {
        return DenseMatrix.vector(JacobiSvd.of(DenseMatrix.of(a, "svd"), "svd").singularValues, DenseMatrix.resultType(a));
    }

    /** {@link #lstsq(NDArray, NDArray, double)} with NumPy's default cut-off, machine epsilon times {@code max(m, n)}. */
    public static LeastSquaresSolution lstsq(NDArray a, NDArray b) {
        return lstsq(a, b, Double.NaN);
    }

    /**
     * The least-squares solution of {@code A x = b}. A is reduced by Householder QR to its small
     * triangle R, whose SVD gives A's; singular values at or below {@code rcond} times the largest
     * count as zero, so a rank-deficient A gets the minimum-norm solution as in NumPy.
     *
     * @param rcond the relative cut-off; NaN for NumPy's default
     */
    public static LeastSquaresSolution lstsq(NDArray a, NDArray b, double rcond) {
        DenseMatrix matrix = DenseMatrix.of(a, "lstsq");
        DenseMatrix rightHandSide = rightHandSide(b, matrix, "lstsq");
        int m = matrix.rows;
        int n = matrix.columns;
        JacobiSvd svd = JacobiSvd.of(matrix, "lstsq");
        double[] s = svd.singularValues;
        double cutoff = (Double.isNaN(rcond) ? Math.ulp(1.0) * Math.max(m, n) : rcond) * (s.length == 0 ? 0 : s[0]);
        int rank = 0;
        // x = V diag(1/s) U^T b over the singular values above the cut-off.
        DenseMatrix projected = svd.u.transpose().times(rightHandSide);
        for (int index = 0; index < s.length; index++) {
            boolean kept = s[index] > cutoff;
            rank += kept ? 1 : 0;
            for (int column = 0; column < projected.columns; column++) {
                projected.set(index, column, kept ? projected.get(index, column) / s[index] : 0);
            }
        }
        DenseMatrix x = svd.vt.transpose().times(projected);
        DType dtype = resultType(a, b);
        NDArray residuals;
        if (rank == n && m > n) {
            DenseMatrix fitted = matrix.times(x);
            double[] sums = new double[rightHandSide.columns];
            for (int row = 0; row < m; row++) {
                for (int column = 0; column < sums.length; column++) {
                    double difference = rightHandSide.get(row, column) - fitted.get(row, column);
                    sums[column] += difference * difference;
                }
            }
            residuals = DenseMatrix.vector(sums, dtype);
        } else {
            residuals = NDArray.zeros(dtype, 0);
        }
        return new LeastSquaresSolution(x.toNDArray(dtype, b.ndim() == 1), residuals, rank, DenseMatrix.vector(s, dtype));
    }

    private static DenseMatrix requireSquare(NDArray a, String operation) {
        DenseMatrix matrix = DenseMatrix.of(a, operation);
        if (matrix.rows != matrix.columns) {
            throw new IllegalArgumentException(operation + ": Last 2 dimensions of the array must be square, got shape " + Shapes.format(a.shape()));
        }
        return matrix;
    }

    private static DenseMatrix rightHandSide(NDArray b, DenseMatrix matrix, String operation) {
        if (b.ndim() != 1 && b.ndim() != 2) {
            throw new IllegalArgumentException(operation + ": the right-hand side must be 1-D or 2-D, got shape " + Shapes.format(b.shape()));
        }
        DenseMatrix rightHandSide = DenseMatrix.ofVectorOrMatrix(b, operation);
        if (rightHandSide.rows != matrix.rows) {
            throw new IllegalArgumentException(operation + ": the right-hand side of shape " + Shapes.format(b.shape()) + " does not match the matrix of shape "
                    + matrix.shapeText() + " (" + matrix.rows + " rows expected)");
        }
        return rightHandSide;
    }

    private static DType resultType(NDArray a, NDArray b) {
        return DenseMatrix.resultType(a) == DType.FLOAT32 && DenseMatrix.resultType(b) == DType.FLOAT32 ? DType.FLOAT32 : DType.FLOAT64;
    }
}
