/**
 * The chunked family's entry point: {@link org.tessera.array.api.ChunkedNamespace} (the
 * {@link org.tessera.ndarray.ArrayNamespace} of chunked arrays over any chunk family) and
 * {@link org.tessera.array.api.ChunkedArrays} (in-memory arrays of any family cut into blocks).
 *
 * <p><b>Model.</b> A chunked array's family is "chunked over its chunk family": its meta is an
 * empty array of the block family, so every lazy result knows its chunk type and dtype before
 * anything runs (Dask's {@code _meta}). Operations propagate the meta (creation, elementwise,
 * reductions, slicing, rechunk, reshape, transpose, concatenate, matmul); block tasks call the
 * block's namespace when a block is not an NDArray ({@link org.tessera.array.Blocks}), and the
 * operations that need dense blocks refuse other families by name.
 *
 * <p><b>Worked example</b> (NEP 35's {@code pad}, written once):
 * <pre>{@code
 * static <A extends AnyArray<A>> A pad(AnyArray<A> array, double[] padding) {
 *     ArrayNamespace<A> xp = array.namespace();
 *     A edge = Like.asarray(padding, array);               // like=array
 *     return xp.concatenate(List.of(edge, xp.cast(array), edge), 0);
 * }
 * pad(NDArrays.array(0.0, 3.0), new double[] {1, 2});                    // NDArray
 * pad(SparseCOO.fromDense(dense), new double[] {1, 2});                  // SparseArray
 * pad(Creation.asarray(dense, ChunkSpec.size(2)), new double[] {1, 2});   // ChunkedArray, chunktype=NDArray
 * pad(ChunkedArrays.fromArray(SparseCOO.fromDense(dense), ChunkSpec.size(2)), new double[] {1, 2}); // chunktype=SparseCOO
 * }</pre>
 */
package org.tessera.array.api;
