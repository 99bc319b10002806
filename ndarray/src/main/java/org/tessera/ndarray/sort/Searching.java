package org.tessera.ndarray.sort;

import java.util.ArrayList;
import java.util.List;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.dtype.Promotion;
import org.tessera.ndarray.kernel.Elements;
import org.tessera.ndarray.layout.Shapes;

/** NumPy's {@code searchsorted}, {@code nonzero} and {@code flatnonzero}. */
public final class Searching {
    private Searching() {}

    /** Which end of a run of equal values {@code searchsorted} returns. */
    public enum Side { LEFT, RIGHT }

    /**
     * For each element of {@code values}, the index in the sorted 1-D array {@code sorted} (read
     * through {@code sorter} when it is not null) where it would be inserted to keep the order:
     * before equal elements for LEFT, after them for RIGHT. Both operands are compared in their
     * promoted dtype, with NumPy's order (NaN last). An int64 array of {@code values}' shape.
     */
    public static NDArray searchsorted(NDArray sorted, NDArray values, Side side, NDArray sorter) {
        if (sorted.ndim() != 1) {
            throw new IllegalArgumentException("searchsorted: the sorted array must be 1-D, got shape " + Shapes.format(sorted.shape()));
        }
        int length = Lanes.laneLength(sorted, 0);
        NDArray ordered = sorter == null ? sorted : reorder(sorted, sorter);
        DType common = Promotion.resultType(sorted.dtype(), values.dtype());
        // One lane holding the sorted elements then the values, so one Keys compares across both.
        NDArray combined = NDArray.zeros(common, length + values.size());
        combined.slice(0, 0, 1, length).assign(ordered);
        combined.slice(0, length, 1, values.size()).assign(values.ravel());
        Keys keys = Lanes.keys(combined, 0, 0);
        NDArray result = NDArray.zeros(DType.INT64, values.shape());
        NDArray resultFlat = result.reshape(result.size());
        for (int j = 0; j < values.size(); j++) {
            int probe = length + j;
            int low = 0, high = length;
            while (low < high) {
                int middle = (low + high) >>> 1;
                int comparison = keys.compare(middle, probe);
                if (comparison < 0 || (side == Side.RIGHT && comparison == 0)) {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            resultFlat.setLong(low, j);
        }
        return result;
    }

    private static NDArray reorder(NDArray sorted, NDArray sorter) {
        if (sorter.ndim() != 1 || sorter.size() != sorted.size() || !sorter.dtype().isInteger()) {
            throw new IllegalArgumentException("searchsorted: sorter must be 1-D integers of the sorted array's length "
                    + sorted.size() + ", got " + sorter.dtype() + " " + Shapes.format(sorter.shape()));
        }
        NDArray ordered = NDArray.zeros(sorted.dtype(), sorted.size());
        int[] order = new int[(int) sorted.size()];
        for (int i = 0; i < order.length; i++) {
            long index = sorter.getLong(i);
            if (index < 0 || index >= order.length) {
                throw new IndexOutOfBoundsException("searchsorted: sorter index " + index + " is out of bounds for size " + order.length);
            }
            order[i] = (int) index;
        }
        Lanes.gather(sorted, sorted.byteOffset(), ordered, 0, 0, order);
        return ordered;
    }

    /** One int64 array per axis holding the indices of the non-zero elements, in C order. */
    public static List<NDArray> nonzero(NDArray a) {
        if (a.ndim() == 0) {
            throw new IllegalArgumentException("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.");
        }
        long[] positions = flatNonzeroPositions(a);
        long[] shape = a.shape();
        List<NDArray> indices = new ArrayList<>();
        for (int axis = 0; axis < shape.length; axis++) {
            indices.add(NDArray.zeros(DType.INT64, positions.length));
        }
        for (int k = 0; k < positions.length; k++) {
            long rest = positions[k];
            for (int axis = shape.length - 1; axis >= 0; axis--) {
                indices.get(axis).setLong(rest % shape[axis], k);
                rest /= shape[axis];
            }
        }
        return indices;
    }

    /** The int64 indices of the non-zero elements of the flattened array. */
    public static NDArray flatnonzero(NDArray a) {
        long[] positions = flatNonzeroPositions(a);
        NDArray result = NDArray.zeros(DType.INT64, positions.length);
        for (int k = 0; k < positions.length; k++) {
            result.setLong(positions[k], k);
        }
        return result;
    }

    private static long[] flatNonzeroPositions(NDArray a) {
        NDArray flat = a.ravel();
        DType dtype = flat.dtype();
        long stride = flat.byteStride(0);
        long[] positions = new long[(int) Math.min(flat.size(), Integer.MAX_VALUE - 8)];
        int count = 0;
        for (long i = 0; i < flat.size(); i++) {
            long offset = flat.byteOffset() + i * stride;
            boolean isNonzero = switch (dtype.kind()) {
                case BOOL, SIGNED, UNSIGNED -> Elements.loadLong(dtype, flat.segment(), offset) != 0;
                case FLOAT -> Elements.loadReal(dtype, flat.segment(), offset) != 0;
                case COMPLEX -> Elements.loadReal(dtype, flat.segment(), offset) != 0
                        || Elements.loadImag(dtype, flat.segment(), offset) != 0;
            };
            if (isNonzero) {
                positions[count++] = i;
            }
        }
        return java.util.Arrays.copyOf(positions, count);
    }
}
