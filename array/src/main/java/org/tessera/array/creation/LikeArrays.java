package org.tessera.array.creation;

import org.tessera.array.ChunkedArray;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * NumPy's {@code like=} (NEP 35) for the chunked creation functions: the result belongs to the array
 * family of {@code like}. A chunked array's family is the type of its blocks, which its meta
 * records. Today the only block type is {@link NDArray}, so {@code like} (an NDArray, or a
 * ChunkedArray of NDArray blocks) gives a chunked array whose meta is an empty NDArray of the
 * requested dtype, the same as without {@code like}. The dispatch to other families (sparse blocks,
 * other backends) belongs to the array namespace interface, which comes later; then only
 * {@link #meta} changes.
 */
public final class LikeArrays {
    private LikeArrays() {
    }

    /**
     * The meta of a chunked result of {@code dtype} with {@code ndim} axes in the family of
     * {@code like}: an empty array of like's block type.
     *
     * @throws IllegalArgumentException when {@code like} is null or of no array family Tessera knows
     */
    public static NDArray meta(Object like, DType dtype, int ndim) {
        return switch (like) {
            // A chunked array's family is its meta's class, the block type: NDArray is the only one so far.
            case NDArray _, ChunkedArray _ -> ChunkedArray.metaOf(dtype, ndim);
            case null -> throw new IllegalArgumentException("like must be an NDArray or a ChunkedArray, got null");
            default -> throw new IllegalArgumentException("like must be an NDArray or a ChunkedArray, got a " + like.getClass().getName());
        };
    }

    /** {@code result} with the meta that {@code like}'s family gives its dtype and axes. */
    public static ChunkedArray inFamilyOf(ChunkedArray result, Object like) {
        return new ChunkedArray(result.graph(), result.name(), result.chunks(), meta(like, result.dtype(), result.ndim()));
    }
}
