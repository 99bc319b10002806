/**
 * Indexing chunked arrays: NumPy's {@code x[index]} and {@code x[index] = value}, as Dask maps them
 * onto blocks.
 *
 * <p>Design notes. An index is first resolved against the array's shape ({@link
 * org.tessera.array.slicing.IndexResolver}) with NumPy's rules and errors: the ellipsis expanded,
 * integers and slices bounded, boolean masks turned into the integer coordinates of their true
 * elements, and the integer arrays broadcast to one point shape B. Then:
 * <ul>
 *   <li>integers, slices and new axes are planned per axis, block by block, exactly as Dask's
 *       {@code slice_array} chunks them ({@link org.tessera.array.slicing.AxisPlan}): each output
 *       block is a view of one input block;</li>
 *   <li>integer arrays (and masks given as NDArrays) gather points ({@link
 *       org.tessera.array.slicing.PointGather}): consecutive points that fall in the same input
 *       blocks make one output block, which is Dask's {@code take} for one array and its natural
 *       extension to several; B goes where NumPy puts it, in place when the advanced items are
 *       adjacent and first otherwise;</li>
 *   <li>an index array given as a ChunkedArray ({@link org.tessera.array.slicing.ChunkedSelection})
 *       is applied block by block: a boolean mask leaves block lengths unknown ({@link
 *       org.tessera.array.chunks.Chunks#UNKNOWN}) until {@code computeChunkSizes()}, and 1-D
 *       positions give the result their own chunks;</li>
 *   <li>assignment ({@link org.tessera.array.slicing.Assignment}) returns a new array with the same
 *       chunks: a block the selection misses is the input's block itself, a block it meets is a copy
 *       with the value written in, so a computed block that other keys share is never changed.</li>
 * </ul>
 * Where Dask and NumPy disagree (Dask keeps the array axis in place when integers and arrays are
 * separated by a slice, dask/dask#7313, and it reads a negative-step slice that starts before the
 * array as one that starts at its end) the values follow NumPy; the chunking follows Dask
 * everywhere else.
 */
package org.tessera.array.slicing;
