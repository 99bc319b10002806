package org.tessera.ndarray.decomposition;

import org.tessera.ndarray.NDArray;

/**
 * NumPy's {@code lstsq} answer: the minimum-norm x minimising {@code |A x - b|}, the sums of squared
 * residuals per column of b (empty unless A has full column rank and more rows than columns),
 * A's effective rank and its singular values.
 */
public record LeastSquaresSolution(NDArray solution, NDArray residuals, int rank, NDArray singularValues) {
}
