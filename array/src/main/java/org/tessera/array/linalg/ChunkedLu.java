package org.tessera.array.linalg;

import org.tessera.array.ChunkedArray;

/**
 * {@code P A = L U} of a chunked A: P the row permutation as a matrix, L unit lower triangular, U
 * upper triangular, each chunked as A. SciPy and Dask write {@code A = P L U}, whose P is this one's transpose.
 */
public record ChunkedLu(ChunkedArray permutation, ChunkedArray lower, ChunkedArray upper) {
}
