package org.tessera.array.linalg;

import org.tessera.array.ChunkedArray;

/** {@code A = Q R} of a chunked A: Q chunked along rows as A, R one small block. */
public record ChunkedQr(ChunkedArray q, ChunkedArray r) {
}
