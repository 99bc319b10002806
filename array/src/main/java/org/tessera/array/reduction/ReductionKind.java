package org.tessera.array.reduction;

import java.io.Serializable;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.Reduction;
import org.tessera.ndarray.dtype.DType;

/**
 * One reduction as a tree of three steps, the way Dask's {@code reduction} splits it: reduce each
 * block to a partial, combine partials joined along the reduced axes, and finish. A partial is a
 * few arrays with length 1 along the reduced axes (a sum; a count and a sum for a mean; count, sum
 * and sum of squared deviations for a variance; value and index for arg-reductions).
 */
public interface ReductionKind extends Serializable {

    /** The name of the operation, e.g. "sum"; also the prefix of the layer names. */
    String name();

    /** The partial of one block, keeping the reduced axes with length 1. */
    NDArray[] chunk(NDArray block, int[] axes, BlockPlace place);

    /** One partial from partials joined along the reduced axes, keeping them with length 1. */
    NDArray[] combine(NDArray[] joined, int[] axes);

    /** The result from partials joined along the reduced axes. */
    NDArray finish(NDArray[] joined, int[] axes, boolean keepdims);

    /**
     * One partial from the partials of a group along a single reduced axis, in order, without
     * joining them first; null where the kind needs them joined (the default). A kind whose
     * combination of a few partials is elementwise (a sum of products) saves the joined copy.
     */
    default NDArray[] combineInOrder(java.util.List<NDArray[]> partials, int[] axes) {
        return null;
    }

    /**
     * The result from the one partial that {@link #combineInOrder} made in this task, which the
     * result may share, since nothing else holds it; {@link #finish} by default.
     */
    default NDArray finishCombined(NDArray[] combined, int[] axes, boolean keepdims) {
        return finish(combined, axes, keepdims);
    }

    /**
     * Whether {@link #combineInOrder} combines a group of {@code group} partials along
     * {@code reducedAxes} reduced axes, so that they are never joined (a join copies them).
     */
    default boolean combinesInOrder(long group, int reducedAxes) {
        return false;
    }

    /**
     * The family-independent reduction this kind is, when it can also run on blocks of other array
     * families through their namespace (sum, prod, min, max); null when it needs dense blocks.
     */
    default Reduction familyReduction() {
        return null;
    }

    /** The dtype blocks are cast to before a {@link #familyReduction()} (null: none), as NumPy's {@code dtype=}. */
    default DType familyDtype() {
        return null;
    }

    /**
     * The bytes per element of a partial, all its arrays together, for blocks of {@code input}
     * reduced to a result of {@code result} (a count and a mean of float64: 16).
     */
    default long partialItemBytes(DType input, DType result) {
        return result.byteSize();
    }

    /** How many arrays a partial holds. */
    default int partialArrays() {
        return 1;
    }

    /**
     * An upper bound of what {@link #chunk} allocates besides its partial, per element of a block
     * of {@code input}: the block cast, masks, deviations. The default: none.
     */
    default double chunkBytesPerElement(DType input, DType result) {
        return 0;
    }

    /** As {@link #chunkBytesPerElement(DType, DType)}, where the block is known to be C-ordered (a new array, not a view): by default as much. */
    default double chunkBytesPerElement(DType input, DType result, boolean ordered) {
        return chunkBytesPerElement(input, result);
    }

    /**
     * An upper bound of what {@link #chunk} allocates besides its partial in arrays of the partial's
     * size (a total beside a count and a mean), as a multiple of the partial.
     */
    default double chunkTimesPartial() {
        return 1;
    }

    /**
     * An upper bound of what {@link #combine} (and {@link #finish}) allocate besides their result,
     * as a multiple of the partials they are given joined.
     */
    default double combineTimesJoined() {
        return 0;
    }

    /**
     * An upper bound of what {@link #combine} and {@link #finish} allocate in arrays of one
     * partial's size, as a multiple of a partial: the result (a finish's cast of it too), and a
     * finish's arithmetic on the combined partial (a variance's division, a root).
     */
    default double finishTimesPartial() {
        return 1;
    }

    /** Where a block sits in the whole array: arg-reductions report global positions. */
    record BlockPlace(long[] start, long[] arrayShape) implements Serializable {
    }
}
