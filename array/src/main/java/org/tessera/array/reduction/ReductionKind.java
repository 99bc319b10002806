package org.tessera.array.reduction;

import java.io.Serializable;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.Reduction;
import org.tessera.ndarray.dtype.DType;

/**
 * One reduction as a tree of three steps, the way Dask's {@code reduction} splits it: reduce each
 * block to a partial, combine partials joined along the reduced axes, and finish. A partial is a
 * few arrays with length 1 along the reduced axes (a sum; a count and a sum for a mean; count, mean
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

    /** Where a block sits in the whole array: arg-reductions report global positions. */
    record BlockPlace(long[] start, long[] arrayShape) implements Serializable {
    }
}
