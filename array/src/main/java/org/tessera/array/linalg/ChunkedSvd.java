package org.tessera.array.linalg;

import org.tessera.array.ChunkedArray;

/** A reduced SVD {@code A = U diag(s) V^T} of a chunked A: U chunked along rows as A, s and V^T one block each. */
public record ChunkedSvd(ChunkedArray u, ChunkedArray singularValues, ChunkedArray vt) {
}
