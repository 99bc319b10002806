package org.tessera.ndarray.join;

import java.lang.foreign.MemorySegment;
import java.util.List;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.dtype.Promotion;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.layout.Shapes;

/**
 * Joining arrays: {@code concatenate} along an existing axis and {@code stack} along a new one.
 * The result dtype is the promotion of all inputs (as NumPy's result_type), and each input is
 * copied into its slot of the new C-ordered array by a single broadcast-free assignment.
 */
public final class Joining {
    private Joining() {}

    /** Joins {@code arrays} along {@code axis}; every other axis length must match. A new array. */
    public static NDArray concatenate(List<NDArray> arrays, int axis) {
        if (arrays.isEmpty()) {
            throw new IllegalArgumentException("need at least one array to concatenate");
        }
        NDArray first = arrays.getFirst();
        int ndim = first.ndim();
        if (ndim == 0) {
            throw new IllegalArgumentException("zero-dimensional arrays cannot be concatenated");
        }
        int joinAxis = Shapes.normalizeAxis(axis, ndim);
        long[] shape = first.shape();
        shape[joinAxis] = 0;
        for (int position = 0; position < arrays.size(); position++) {
            NDArray array = arrays.get(position);
            if (array.ndim() != ndim) {
                throw new ShapeMismatchException("all the input arrays must have same number of dimensions, but the array at index 0 has "
                        + ndim + " dimension(s) and the array at index " + position + " has " + array.ndim() + " dimension(s)");
            }
            for (int other = 0; other < ndim; other++) {
                if (other != joinAxis && array.shape(other) != first.shape(other)) {
                    throw new ShapeMismatchException("all the input array dimensions except for the concatenation axis must match exactly, "
                            + "but along dimension " + other + ", the array at index 0 has size " + first.shape(other)
                            + " and the array at index " + position + " has size " + array.shape(other));
                }
            }
            shape[joinAxis] += array.shape(joinAxis);
        }
        // The inputs tile the result along the axis, so every element is written below: in scratch memory
        // its old bytes need no zeroing first (a scan's running total joined to each strip paid for one).
        NDArray result = NDArray.empty(resultType(arrays), shape);
        if (copiesAsBlocks(arrays, joinAxis, result)) {
            // Each input is one run of bytes, and they follow each other in the result.
            long offset = result.byteOffset();
            for (NDArray array : arrays) {
                if (array.size() == 0) {
                    continue;
                }
                MemorySegment.copy(array.segment(), array.byteOffset(), result.segment(), offset, array.byteSize());
                offset += array.byteSize();
            }
            return result;
        }
        long start = 0;
        for (NDArray array : arrays) {
            long length = array.shape(joinAxis);
            result.slice(joinAxis, start, 1, length).assign(array);
            start += length;
        }
        return result;
    }

    /** Joins arrays of one shape along a new axis at position {@code axis} of the result. A new array. */
    public static NDArray stack(List<NDArray> arrays, int axis) {
        if (arrays.isEmpty()) {
            throw new IllegalArgumentException("need at least one array to stack");
        }
        NDArray first = arrays.getFirst();
        int newAxis = Shapes.normalizeAxis(axis, first.ndim() + 1);
        NDArray[] expanded = new NDArray[arrays.size()];
        for (int position = 0; position < arrays.size(); position++) {
            NDArray array = arrays.get(position);
            if (!java.util.Arrays.equals(array.shape(), first.shape())) {
                throw new ShapeMismatchException("all input arrays must have the same shape, but the array at index 0 has shape "
                        + Shapes.format(first.shape()) + " and the array at index " + position + " has shape "
                        + Shapes.format(array.shape()));
            }
            expanded[position] = array.expandDims(newAxis);
        }
        return concatenate(List.of(expanded), newAxis);
    }

    /**
     * Whether every input is C-contiguous in the result's dtype and the axes before the join axis
     * have length 1: then the inputs' slots are consecutive byte ranges of the result, filled in
     * order by plain copies instead of a sliced view and a cast per input.
     */
    private static boolean copiesAsBlocks(List<NDArray> arrays, int joinAxis, NDArray result) {
        for (int axis = 0; axis < joinAxis; axis++) {
            if (result.shape(axis) != 1) {
                return false;
            }
        }
        for (NDArray array : arrays) {
            if (array.dtype() != result.dtype() || !array.isCContiguous()) {
                return false;
            }
        }
        return true;
    }

    private static DType resultType(List<NDArray> arrays) {
        DType first = arrays.getFirst().dtype();
        for (NDArray array : arrays) {
            if (array.dtype() != first) {
                return Promotion.resultType(arrays.stream().map(NDArray::dtype).toArray());
            }
        }
        return first;
    }
}
