package org.tessera.array.linalg;

import org.tessera.array.ChunkedArray;

/**
 * Dask's {@code lstsq} answer: the solution x, the sums of squared residuals per column of b
 * (always computed, shape (1,) for a 1-D b, as Dask does; NumPy leaves them empty when A is rank
 * deficient), A's rank as a 0-d int64 array and A's singular values.
 */
public record ChunkedLeastSquares(ChunkedArray solution, ChunkedArray residuals, ChunkedArray rank, ChunkedArray singularValues) {
}
