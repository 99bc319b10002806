package org.tessera.ndarray.decomposition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;

/** The defining properties of each decomposition on random matrices of several shapes. */
class DecompositionsTest {
    private static final double TOLERANCE = 1e-10;

    static NDArray random(long seed, long rows, long columns) {
        Random random = new Random(seed);
        NDArray result = NDArray.zeros(DType.FLOAT64, rows, columns);
        for (long row = 0; row < rows; row++) {
            for (long column = 0; column < columns; column++) {
                result.setDouble(random.nextGaussian(), row, column);
            }
        }
        return result;
    }

    /** The largest entry of |expected - actual| relative to the largest of |expected| (or 1). */
    static double relativeError(NDArray expected, NDArray actual) {
        assertArrayEquals(expected.shape(), actual.shape(), "shape");
        NDArray flatExpected = expected.astype(DType.FLOAT64).reshape(expected.size());
        NDArray flatActual = actual.astype(DType.FLOAT64).reshape(actual.size());
        double largestDifference = 0;
        double scale = 1;
        for (long i = 0; i < flatExpected.size(); i++) {
            largestDifference = Math.max(largestDifference, Math.abs(flatExpected.getDouble(i) - flatActual.getDouble(i)));
            scale = Math.max(scale, Math.abs(flatExpected.getDouble(i)));
        }
        return largestDifference / scale;
    }

    static void assertClose(NDArray expected, NDArray actual, double tolerance, String what) {
        double error = relativeError(expected, actual);
        assertTrue(error <= tolerance, what + ": relative error " + error + " above " + tolerance);
    }

    static void assertOrthonormalColumns(NDArray q, String what) {
        assertClose(NDArrays.identity(q.shape(1)), NDArrays.matmul(q.transpose(), q), TOLERANCE, what + " has orthonormal columns");
    }

    static void assertTriangular(NDArray matrix, boolean upper, String what) {
        for (long row = 0; row < matrix.shape(0); row++) {
            for (long column = 0; column < matrix.shape(1); column++) {
                if (upper ? column < row : column > row) {
                    assertEquals(0.0, matrix.getDouble(row, column), what + " at (" + row + ", " + column + ")");
                }
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"1, 1", "5, 3", "40, 7", "6, 6", "3, 8", "200, 20"})
    void qrReassemblesWithOrthonormalQAndTriangularR(long rows, long columns) {
        NDArray a = random(rows * 31 + columns, rows, columns);
        QrDecomposition qr = Decompositions.qr(a);
        long k = Math.min(rows, columns);
        assertArrayEquals(new long[] {rows, k}, qr.q().shape());
        assertArrayEquals(new long[] {k, columns}, qr.r().shape());
        assertOrthonormalColumns(qr.q(), "Q");
        assertTriangular(qr.r(), true, "R");
        for (long i = 0; i < k; i++) {
            assertTrue(qr.r().getDouble(i, i) >= 0, "R's diagonal is non-negative");
        }
        assertClose(a, NDArrays.matmul(qr.q(), qr.r()), TOLERANCE, "Q R");
    }

    @ParameterizedTest
    @CsvSource({"1", "4", "30"})
    void choleskyOfAPositiveDefiniteMatrix(long n) {
        NDArray m = random(n, n, n);
        NDArray spd = NDArrays.add(NDArrays.matmul(m, m.transpose()), NDArrays.multiply(NDArrays.identity(n), (double) n));
        NDArray lower = Decompositions.cholesky(spd);
        assertTriangular(lower, false, "L");
        assertClose(spd, NDArrays.matmul(lower, lower.transpose()), TOLERANCE, "L L^T");
    }

    @ParameterizedTest
    @CsvSource({"1, 1", "5, 5", "30, 30", "7, 4", "4, 7"})
    void luWithPartialPivoting(long rows, long columns) {
        NDArray a = random(rows + 7 * columns, rows, columns);
        LuDecomposition lu = Decompositions.lu(a);
        assertTriangular(lu.lower(), false, "L");
        assertTriangular(lu.upper(), true, "U");
        for (long i = 0; i < Math.min(rows, columns); i++) {
            assertEquals(1.0, lu.lower().getDouble(i, i), "L has a unit diagonal");
        }
        assertClose(NDArrays.matmul(lu.permutationMatrix(), a), NDArrays.matmul(lu.lower(), lu.upper()), TOLERANCE, "P A = L U");
    }

    @ParameterizedTest
    @CsvSource({"1", "3", "25"})
    void solveInvAndTriangularSolves(long n) {
        NDArray a = random(100 + n, n, n);
        NDArray b = random(200 + n, n, 3);
        NDArray vector = random(300 + n, n, 1).reshape(n);
        assertClose(b, NDArrays.matmul(a, Decompositions.solve(a, b)), TOLERANCE, "A x = B");
        NDArray x = Decompositions.solve(a, vector);
        assertArrayEquals(new long[] {n}, x.shape(), "a 1-D right-hand side gives a 1-D solution");
        assertClose(vector, NDArrays.matmul(a, x), TOLERANCE, "A x = b");
        assertClose(NDArrays.identity(n), NDArrays.matmul(a, Decompositions.inv(a)), TOLERANCE, "A A^-1");
        QrDecomposition qr = Decompositions.qr(a);
        assertClose(b, NDArrays.matmul(qr.r(), Decompositions.solveTriangular(qr.r(), b, false, false)), TOLERANCE, "R x = B");
        NDArray lower = qr.r().transpose().copy();
        assertClose(b, NDArrays.matmul(lower, Decompositions.solveTriangular(lower, b, true, false)), TOLERANCE, "R^T x = B");
    }

    @ParameterizedTest
    @CsvSource({"1, 1", "6, 4", "4, 6", "50, 10", "10, 50", "12, 12"})
    void svdReassembles(long rows, long columns) {
        NDArray a = random(rows * 13 + columns, rows, columns);
        SingularValueDecomposition svd = Decompositions.svd(a);
        long k = Math.min(rows, columns);
        assertArrayEquals(new long[] {rows, k}, svd.u().shape());
        assertArrayEquals(new long[] {k}, svd.singularValues().shape());
        assertArrayEquals(new long[] {k, columns}, svd.vt().shape());
        assertOrthonormalColumns(svd.u(), "U");
        assertOrthonormalColumns(svd.vt().transpose(), "V");
        for (long i = 1; i < k; i++) {
            assertTrue(svd.singularValues().getDouble(i - 1) >= svd.singularValues().getDouble(i), "descending singular values");
        }
        NDArray reassembled = NDArrays.matmul(NDArrays.multiply(svd.u(), svd.singularValues()), svd.vt());
        assertClose(a, reassembled, TOLERANCE, "U S V^T");
    }

    @Test
    void svdOfARankDeficientMatrixKeepsUOrthonormal() {
        NDArray a = NDArrays.matmul(random(1, 9, 2), random(2, 2, 5));
        SingularValueDecomposition svd = Decompositions.svd(a);
        assertOrthonormalColumns(svd.u(), "U");
        assertOrthonormalColumns(svd.vt().transpose(), "V");
        assertTrue(svd.singularValues().getDouble(2) < 1e-12, "rank 2: " + svd.singularValues());
        assertClose(a, NDArrays.matmul(NDArrays.multiply(svd.u(), svd.singularValues()), svd.vt()), TOLERANCE, "U S V^T");
        NDArray zeros = NDArray.zeros(DType.FLOAT64, 4, 3);
        SingularValueDecomposition ofZeros = Decompositions.svd(zeros);
        assertOrthonormalColumns(ofZeros.u(), "U of zeros");
    }

    @Test
    void leastSquaresMatchesTheNormalEquations() {
        NDArray a = random(5, 30, 4);
        NDArray b = random(6, 30, 2);
        LeastSquaresSolution solution = Decompositions.lstsq(a, b);
        assertEquals(4, solution.rank());
        NDArray normal = Decompositions.solve(NDArrays.matmul(a.transpose(), a), NDArrays.matmul(a.transpose(), b));
        assertClose(normal, solution.solution(), 1e-9, "lstsq against (A^T A)^-1 A^T b");
        assertArrayEquals(new long[] {2}, solution.residuals().shape());
    }

    @Test
    void float32StaysFloat32AndIntegersBecomeFloat64() {
        NDArray single = random(9, 5, 3).astype(DType.FLOAT32);
        assertEquals(DType.FLOAT32, Decompositions.qr(single).q().dtype());
        assertEquals(DType.FLOAT32, Decompositions.svd(single).singularValues().dtype());
        NDArray integers = NDArrays.array(new double[] {4, 1}, new double[] {1, 3}).astype(DType.INT64);
        assertEquals(DType.FLOAT64, Decompositions.cholesky(integers).dtype());
        assertEquals(DType.FLOAT64, Decompositions.inv(integers).dtype());
    }

    @Test
    void badInputsNameTheirShapes() {
        NDArray wide = random(1, 2, 3);
        IllegalArgumentException notSquare = assertThrows(IllegalArgumentException.class, () -> Decompositions.inv(wide));
        assertTrue(notSquare.getMessage().contains("(2,3)"), notSquare.getMessage());
        NDArray singular = NDArrays.array(new double[] {1, 2}, new double[] {2, 4});
        LinearAlgebraException singularError = assertThrows(LinearAlgebraException.class, () -> Decompositions.solve(singular, NDArrays.array(1.0, 2.0)));
        assertTrue(singularError.getMessage().contains("Singular matrix") && singularError.getMessage().contains("(2,2)"), singularError.getMessage());
        NDArray indefinite = NDArrays.array(new double[] {1, 2}, new double[] {2, 1});
        LinearAlgebraException notDefinite = assertThrows(LinearAlgebraException.class, () -> Decompositions.cholesky(indefinite));
        assertTrue(notDefinite.getMessage().contains("order 2"), notDefinite.getMessage());
        IllegalArgumentException mismatch = assertThrows(IllegalArgumentException.class,
                () -> Decompositions.solve(random(3, 3, 3), NDArrays.array(1.0, 2.0)));
        assertTrue(mismatch.getMessage().contains("(2,)") && mismatch.getMessage().contains("(3,3)"), mismatch.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Decompositions.qr(NDArrays.array(1.0, 2.0)));
    }
}
