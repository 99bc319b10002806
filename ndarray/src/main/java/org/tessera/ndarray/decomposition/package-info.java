/**
 * Dense matrix decompositions in memory, NumPy's {@code numpy.linalg} for 2-D arrays: reduced
 * Householder QR, Cholesky, LU with partial pivoting, triangular solves, {@code solve},
 * {@code inv}, least squares, a one-sided Jacobi SVD and {@code norm}.
 *
 * <p>Policy: every decomposition computes in float64 on a row-major {@code double[]} copy of its
 * operand (integer and bool operands are converted as NumPy converts them); float32 operands give
 * float32 results, cast at the end. Complex operands are refused with their dtype named. The code
 * is pure Java: the matrices these serve (blocks of a chunked array, the small R of a tall-and-
 * skinny QR) are small enough that a native LAPACK would save little, and a pure path runs
 * wherever the JVM runs.
 *
 * <p>Conventions, so that results are reproducible and comparable across chunkings: the diagonal
 * of R is non-negative (the QR of a full-rank matrix is then unique; LAPACK leaves signs free),
 * singular values come in descending order, and an LU is {@code P A = L U} with {@code L} unit
 * lower triangular.
 */
package org.tessera.ndarray.decomposition;
