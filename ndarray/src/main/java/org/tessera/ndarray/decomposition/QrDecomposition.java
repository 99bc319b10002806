package org.tessera.ndarray.decomposition;

import org.tessera.ndarray.NDArray;

/** {@code A = Q R}: Q (m x k) with orthonormal columns, R (k x n) upper triangular, {@code k = min(m, n)}. */
public record QrDecomposition(NDArray q, NDArray r) {
}
