/**
 * The core of the NDArray layer: {@link org.tessera.ndarray.NDArray}, NumPy's memory model.
 *
 * <p>An array is a descriptor over storage: a {@link java.lang.foreign.MemorySegment} (heap,
 * native or memory-mapped), the byte offset of element (0, ..., 0), the shape, one <em>byte</em>
 * stride per axis, the dtype and flags. Element {@code (i0, ..., ik)} lives at
 * {@code offset + i0 * stride0 + ... + ik * stridek}. Everything NumPy calls a view is a new
 * descriptor over the same segment: a transpose permutes strides, a slice with step {@code s}
 * multiplies one stride by {@code s} (negative steps give negative strides), broadcasting sets
 * strides to 0, and a reshape is a view exactly when each group of merged or split axes is
 * contiguous in the requested order (NumPy's no-copy reshape rule).
 *
 * <p>Invariants: sizes, offsets and indices are {@code long} throughout, so arrays of more than
 * 2^31 elements work; flags are recomputed for every view, never inherited; a view made for
 * reading (broadcast, diagonal) is read-only as in NumPy.
 *
 * <p>Layering: this package imports only the leaf packages (dtype, layout, memory, kernel,
 * iteration, error, format). Indexing, joining and file formats live in operation packages above
 * it, and {@code api} is the facade users call. {@code PackageLayeringTest} keeps it so.
 *
 * <p>Array families: {@link org.tessera.ndarray.AnyArray} (what any array answers, NDArray
 * included), {@link org.tessera.ndarray.ArrayNamespace} (one family's functions, NEP 35) and
 * {@link org.tessera.ndarray.ArrayFamilies} (the ServiceLoader registry and the mixing rule:
 * chunked absorbs in-memory, sparse yields to dense, anything else is refused naming both
 * families). They sit here because NDArray implements them; the dense namespace itself lives in
 * {@code api} and is found at run time.
 *
 * <p>Example: {@code arange(12).reshape(3, 4)} has strides (32, 8); its transpose has (8, 32) and
 * is F-contiguous; {@code x[:, ::-2]} has strides (32, -16) and starts at byte 24.
 */
package org.tessera.ndarray;
