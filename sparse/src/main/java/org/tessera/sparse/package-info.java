/**
 * The sparse array family: {@link org.tessera.sparse.SparseCOO} (N-d coordinates) and
 * {@link org.tessera.sparse.SparseCSR} (2-D compressed rows), both {@link org.tessera.sparse.SparseArray}s
 * whose namespace is {@link org.tessera.sparse.SparseNamespace}, found by
 * {@link org.tessera.ndarray.ArrayFamilies} through {@code META-INF/services}.
 *
 * <p><b>Model.</b> Only possibly non-zero elements are stored; the rest are zero (the one fill
 * value). Stored values are a 1-D dense array of any NumPy dtype, and every computation on values
 * is a dense ufunc over that vector, so results are NumPy's bit for bit.
 *
 * <p><b>Policy.</b> A ufunc keeps sparsity when it maps zeros to zero (checked by running it on
 * zeros of the operand dtypes); otherwise it is computed densely and stored back as sparse, so
 * the result family is always sparse. Sparse meets dense: dense wins ({@code sparse + dense} is
 * an NDArray, through {@link org.tessera.ndarray.ArrayFamilies#apply}).
 *
 * <p>Example: {@code SparseArray x = SparseCOO.fromDense(dense); SparseArray y =
 * x.namespace().multiply(x, 2.0); NDArray total = x.namespace().sum(y).toDense();}
 */
package org.tessera.sparse;
