package org.tessera.ndarray.ufunc;

import java.util.Arrays;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;

/**
 * The axes a reduction runs over, normalised (negative axes counted from the end, duplicates
 * refused), and the shapes that follow from them: the result with or without kept axes, and the
 * permutation that moves the reduced axes behind the kept ones.
 */
record Axes(boolean[] reduced) {

    /** {@code axes} null means every axis. */
    static Axes of(int[] axes, int ndim) {
        boolean[] reduced = new boolean[ndim];
        if (axes == null) {
            Arrays.fill(reduced, true);
            return new Axes(reduced);
        }
        for (int axis : axes) {
            int normalized = Shapes.normalizeAxis(axis, ndim);
            if (reduced[normalized]) {
                throw new IllegalArgumentException("duplicate value in 'axis': " + Arrays.toString(axes));
            }
            reduced[normalized] = true;
        }
        return new Axes(reduced);
    }

    /** The kept axes in order, then the reduced axes in order. */
    int[] keptThenReduced() {
        return partition(false);
    }

    /** The reduced axes in order, then the kept axes in order. */
    int[] reducedThenKept() {
        return partition(true);
    }

    // Plain loops rather than streams: reductions of tiny blocks (Dask's W5 has 100,000) call these per block.
    private int[] partition(boolean firstWanted) {
        int[] order = new int[reduced.length];
        int filled = 0;
        for (boolean wanted : new boolean[] {firstWanted, !firstWanted}) {
            for (int axis = 0; axis < reduced.length; axis++) {
                if (reduced[axis] == wanted) {
                    order[filled++] = axis;
                }
            }
        }
        return order;
    }

    /** Whether the innermost axis is kept, so that each reduction step runs along contiguous result elements. */
    boolean keepsInnermostAxis() {
        return reduced.length > 0 && !reduced[reduced.length - 1];
    }

    /**
     * Whether the reduced axes are the innermost ones (or the array is 0-d): then, in a C-contiguous
     * array, the elements of each result element are one consecutive run.
     */
    boolean reducesOnlyTrailingAxes() {
        if (reduced.length > 0 && !reduced[reduced.length - 1]) {
            return false;
        }
        boolean anyReduced = false;
        for (boolean axisReduced : reduced) {
            if (anyReduced && !axisReduced) {
                return false;
            }
            anyReduced |= axisReduced;
        }
        return true;
    }

    /** The lengths of the kept axes. */
    long[] keptShape(long[] shape) {
        return select(shape, false);
    }

    /** The lengths of the reduced axes. */
    long[] reducedShape(long[] shape) {
        return select(shape, true);
    }

    /** The result shape: reduced axes dropped, or kept with length 1. */
    long[] resultShape(long[] shape, boolean keepdims) {
        if (!keepdims) {
            return keptShape(shape);
        }
        long[] result = shape.clone();
        for (int axis = 0; axis < shape.length; axis++) {
            if (reduced[axis]) {
                result[axis] = 1;
            }
        }
        return result;
    }

    private long[] select(long[] shape, boolean wanted) {
        int count = 0;
        for (boolean axisReduced : reduced) {
            count += axisReduced == wanted ? 1 : 0;
        }
        long[] lengths = new long[count];
        int filled = 0;
        for (int axis = 0; axis < reduced.length; axis++) {
            if (reduced[axis] == wanted) {
                lengths[filled++] = shape[axis];
            }
        }
        return lengths;
    }

    /**
     * {@code array} viewed (or copied when its layout needs it) as a C-contiguous (kept, reduced)
     * matrix of {@code dtype}: row k holds the elements that reduce into result element k.
     */
    NDArray asRows(NDArray array, DType dtype) {
        NDArray moved = array.transpose(keptThenReduced());
        long rows = Shapes.size(keptShape(array.shape()));
        long columns = Shapes.size(reducedShape(array.shape()));
        NDArray contiguous = moved.dtype() != dtype ? moved.astype(dtype) : moved.isCContiguous() ? moved : moved.copy();
        return contiguous.reshape(rows, columns);
    }
}
