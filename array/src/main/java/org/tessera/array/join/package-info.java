/**
 * Joining chunked arrays: NumPy's {@code concatenate}, {@code stack} and {@code block}, with Dask's
 * output chunks.
 *
 * <p>Design notes. Joining moves no data. The inputs are cast to NumPy's result dtype and aligned
 * along the axes they share, with the chunk unification blockwise uses (single blocks give way to
 * split axes; split axes are split at every boundary of any input), so every output block is
 * exactly one input block: an alias for {@code concatenate}, a view with a new axis of length 1 for
 * {@code stack}. Inputs without elements are left out, as Dask leaves them out, so they add no
 * blocks. {@code block} is nested concatenation, innermost lists along the last axis.
 */
package org.tessera.array.join;
