/**
 * Matrix products of chunked arrays: {@code matmul}, {@code dot}, {@code tensordot}, {@code outer}
 * and {@code einsum}.
 *
 * <p>Design notes. Every product is one {@link org.tessera.array.linalg.Contraction}: a blockwise
 * operation in index notation whose letters missing from the output are contracted. Each task
 * multiplies one block of each operand through the NDArray layer (BLAS where the dtype allows),
 * keeping a length-1 axis per contracted letter; a tree reduction then adds the partial products,
 * a few at a time. Concatenating the blocks along the contracted axes first (one large product per
 * output block) would make a task hold whole rows and columns of blocks; the tree keeps memory at
 * a few blocks per task whatever the contracted length, as Dask does since dask#6874. Sums run in
 * the result dtype, so results match NumPy's matmul dtype (booleans stay booleans).
 *
 * <p>Decompositions. Tall-and-skinny matrices (chunked along rows only) get QR and SVD by TSQR
 * ({@link org.tessera.array.linalg.TallSkinny}), least squares on top of it
 * ({@link org.tessera.array.linalg.LeastSquares}) and norms; any matrix gets a randomized,
 * seeded truncated SVD ({@link org.tessera.array.linalg.RandomizedSvd}). Square {@code cholesky},
 * {@code lu}, {@code solve} and {@code inv} ({@link org.tessera.array.linalg.SquareLinearAlgebra})
 * gather the matrix into one block under a memory limit and refuse larger ones with an exception
 * naming the shape. The in-memory algorithms are those of {@code org.tessera.ndarray.decomposition}.
 */
package org.tessera.array.linalg;
