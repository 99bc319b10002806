/**
 * Linear algebra on NDArrays with NumPy's rules: {@code matmul} (batched, broadcasting batch axes),
 * {@code dot}, {@code vdot}, {@code inner}, {@code outer}, {@code tensordot}, {@code einsum} and
 * {@code trace}.
 *
 * <p>Policy: every product is reduced to matrix products on 2-D strided views, which go to the
 * {@link org.tessera.ndarray.blas.Gemm} provider (OpenBLAS or the Java kernel); transposes and
 * reshapes that NumPy would make as views are views here, so BLAS sees them through its transpose
 * flags. Operands are first cast to the promoted dtype (NumPy 2 rules), which keeps integer
 * products exact and wrapping and bool products logical.
 *
 * <p>Example: {@code tensordot(a, b, 1)} for a (2,3,4) and b (4,5) is {@code a.reshape(6,4) @ b}
 * reshaped to (2,3,5).
 */
package org.tessera.ndarray.linalg;
