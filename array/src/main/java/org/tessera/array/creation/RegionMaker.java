package org.tessera.array.creation;

import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.ufunc.RunCombiner;

/**
 * A block maker that can make any box of a block on its own, with exactly the values the whole
 * block holds there: a counter-based random generator, a constant. Fused chains read such blocks
 * part by part (see {@link org.tessera.array.blockwise.DeferredBlock}).
 */
public interface RegionMaker extends BlockMaker {

    /** The box from {@code regionStart} with shape {@code regionShape} of the block that {@code make} would return. */
    NDArray makeRegion(int[] blockIndex, long[] blockShape, long[] blockStart, long[] regionStart, long[] regionShape);

    /**
     * The same box with its axes permuted ({@code axes} as NumPy's transpose): by default a view of
     * {@link #makeRegion}; a maker that can write the box in the permuted order makes it contiguous.
     */
    default NDArray makeRegionTransposed(int[] blockIndex, long[] blockShape, long[] blockStart, long[] regionStart, long[] regionShape, int[] axes) {
        return makeRegion(blockIndex, blockShape, blockStart, regionStart, regionShape).transpose(axes);
    }

    /**
     * Writes the box from {@code regionStart} with {@code target}'s shape into {@code target}: by
     * default a copy of {@link #makeRegion}; a maker that can write into strided memory skips it.
     */
    default void makeRegionInto(int[] blockIndex, long[] blockShape, long[] blockStart, long[] regionStart, NDArray target) {
        target.assign(makeRegion(blockIndex, blockShape, blockStart, regionStart, target.shape()));
    }

    /**
     * Whether {@link #makeRegionInto} and {@link #combineRegionInto} write into a float64 target of
     * contiguous rows without making the box first.
     */
    default boolean fillsInPlace() {
        return false;
    }

    /**
     * Combines the box from {@code regionStart} with {@code target}'s shape into {@code target}, a
     * C-contiguous array of the combiner's dtype (see {@link DeferredBlock#combineInto}): by
     * default through {@link #makeRegion}.
     */
    default void combineRegionInto(int[] blockIndex, long[] blockShape, long[] blockStart, long[] regionStart, NDArray target, RunCombiner combiner) {
        DeferredBlock.combineMade(makeRegion(blockIndex, blockShape, blockStart, regionStart, target.shape()), target, combiner);
    }

    /** Combines {@link #makeRegionTransposed}'s box into {@code target}, as {@link #combineRegionInto} does a box. */
    default void combineRegionTransposedInto(int[] blockIndex, long[] blockShape, long[] blockStart, long[] regionStart, long[] regionShape, int[] axes,
            NDArray target, RunCombiner combiner) {
        DeferredBlock.combineMade(makeRegionTransposed(blockIndex, blockShape, blockStart, regionStart, regionShape, axes), target, combiner);
    }

    /**
     * Whether {@link #makeRegionTransposed} and {@link #combineRegionTransposedInto} write a box of
     * a block of {@code ndim} axes in the order of {@code axes} without making it first.
     */
    default boolean transposesInPlace(int ndim, int[] axes) {
        return false;
    }

    @Override
    default NDArray make(int[] blockIndex, long[] blockShape, long[] blockStart) {
        return makeRegion(blockIndex, blockShape, blockStart, new long[blockShape.length], blockShape);
    }
}
