package org.tessera.ndarray.decomposition;

import org.tessera.ndarray.NDArray;

/**
 * The reduced SVD {@code A = U diag(s) V^T} (NumPy's {@code full_matrices=False}): U (m x k) and
 * the rows of V^T (k x n) orthonormal, s descending, {@code k = min(m, n)}.
 */
public record SingularValueDecomposition(NDArray u, NDArray singularValues, NDArray vt) {
}
