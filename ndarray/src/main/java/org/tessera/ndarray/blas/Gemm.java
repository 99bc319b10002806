package org.tessera.ndarray.blas;

import org.tessera.ndarray.dtype.DType;

/**
 * A matrix-multiply provider. {@code multiply} computes {@code out = a × b}: {@code a} is
 * (rows, depth), {@code b} is (depth, columns), {@code out} is (rows, columns), all three of one
 * dtype (any of NumPy's 14). Floats and complex numbers round as BLAS does (the order of the sums
 * is the provider's); integers wrap modulo 2^bits; bool is the logical or of ands. {@code out}
 * must not overlap {@code a} or {@code b}; a depth of 0 gives zeros.
 */
public sealed interface Gemm permits JavaGemm, OpenBlasGemm {
    void multiply(Matrix a, Matrix b, Matrix out);

    /**
     * {@code out += a × b} for float32 and float64 (BLAS's {@code beta = 1}): each product is added
     * into {@code out} as the provider forms it, without a rounded product of its own, as one
     * product over the joined depth adds its panels. Other dtypes are refused.
     */
    void multiplyAdd(Matrix a, Matrix b, Matrix out);

    /**
     * The Gram product {@code b.T × b} into the square {@code out}, added where {@code add} (float32
     * and float64 only then), right on and above the diagonal alone: the elements below it are left
     * unspecified. A run of such products adds into one symmetric sum through BLAS's syrk, half a
     * general product's work, with no look at the lower triangle per product; the sum takes its
     * lower triangle once, at the end, from {@link #mirrorUpper}.
     */
    default void gramUpper(Matrix b, Matrix out, boolean add) {
        Matrix a = b.transposed();
        if (add) {
            multiplyAdd(a, b, out);
        } else {
            multiply(a, b, out);
        }
    }

    /** Copies the upper triangle of a square float32 or float64 matrix onto its lower one, bit for bit. */
    static void mirrorUpper(Matrix square) {
        if (square.rowCount() != square.columnCount() || square.dtype() != DType.FLOAT64 && square.dtype() != DType.FLOAT32) {
            throw new IllegalArgumentException("gemm: only a square float32 or float64 matrix has triangles to mirror, not " + square.describe());
        }
        Triangles.mirrorUpper(square);
    }

    /** A short name for logs and benchmark output: {@code "openblas"} or {@code "java"}. */
    String name();


    /** Fails unless {@code out} is of a dtype {@link #multiplyAdd} adds into. */
    static void checkAddable(Matrix out) {
        if (out.dtype() != DType.FLOAT64 && out.dtype() != DType.FLOAT32) {
            throw new IllegalArgumentException("gemm: products are added into float32 or float64 matrices, not " + out.describe());
        }
    }

    /** Fails unless the three shapes and dtypes form a valid product. */
    static void checkOperands(Matrix a, Matrix b, Matrix out) {
        if (a.columnCount() != b.rowCount() || out.rowCount() != a.rowCount() || out.columnCount() != b.columnCount()
                || a.dtype() != b.dtype() || a.dtype() != out.dtype()) {
            throw new IllegalArgumentException("gemm: cannot multiply " + a.describe() + " by " + b.describe()
                    + " into " + out.describe());
        }
    }
}
