package org.tessera.ndarray.decomposition;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * {@code P A = L U} with L (m x k) unit lower triangular and U (k x n) upper triangular. The row
 * permutation is kept as indices (int64): row i of {@code L U} is row {@code permutation[i]} of A.
 * SciPy's {@code lu} returns the transpose of {@link #permutationMatrix()}, as it writes
 * {@code A = P L U}.
 */
public record LuDecomposition(NDArray permutation, NDArray lower, NDArray upper) {
    /** The m x m matrix P with {@code P A = L U}, in the dtype of L. */
    public NDArray permutationMatrix() {
        long size = permutation.shape(0);
        NDArray matrix = NDArray.zeros(lower.dtype() == DType.FLOAT32 ? DType.FLOAT32 : DType.FLOAT64, size, size);
        for (long row = 0; row < size; row++) {
            matrix.setDouble(1, row, permutation.getLong(row));
        }
        return matrix;
    }
}
