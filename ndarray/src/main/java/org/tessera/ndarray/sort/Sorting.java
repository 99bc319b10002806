package org.tessera.ndarray.sort;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.kernel.Elements;
import org.tessera.ndarray.layout.Shapes;

/**
 * NumPy's {@code sort}, {@code argsort}, {@code partition} and {@code argpartition}. Results are
 * new C-ordered arrays; an axis of {@code null} sorts the flattened array.
 */
public final class Sorting {
    private Sorting() {}

    /** A sorted copy along {@code axis} (null: flattened). */
    public static NDArray sort(NDArray a, Integer axis, SortKind kind) {
        NDArray source = axis == null ? a.ravel() : a;
        int lane = laneAxis(source, axis == null ? 0 : axis);
        NDArray result = NDArray.zeros(source.dtype(), source.shape());
        if (result.size() == 0) {
            return result;
        }
        // Bool, integers and floats sort their values directly (stability shows only in signed zeros,
        // which sortValues keeps in input order); complex values go through an index sort.
        Lanes.forEach(lane, offsets -> {
            switch (Lanes.keys(source, lane, offsets[0])) {
                case Keys.Integers integers -> {
                    integers.sortValues();
                    Lanes.store(integers, result, offsets[1], lane);
                }
                case Keys.Reals reals -> {
                    reals.sortValues();
                    Lanes.store(reals, result, offsets[1], lane);
                }
                case Keys.Complexes complexes ->
                        Lanes.gather(source, offsets[0], result, offsets[1], lane, StableOrder.of(complexes));
            }
        }, source, result);
        return result;
    }

    /** The int64 indices that sort {@code a} along {@code axis} (null: flattened); ties in index order. */
    public static NDArray argsort(NDArray a, Integer axis, SortKind kind) {
        // NumPy argsorts a 0-d array as the 1-d array of its element (axis 0 or -1), unlike sort.
        NDArray source = axis == null || a.ndim() == 0 ? a.ravel() : a;
        int lane = laneAxis(source, axis == null ? 0 : axis);
        NDArray result = NDArray.zeros(DType.INT64, source.shape());
        if (result.size() == 0) {
            return result;
        }
        Lanes.forEach(lane, offsets -> storeIndices(StableOrder.of(Lanes.keys(source, lane, offsets[0])),
                result, offsets[1], lane), source, result);
        return result;
    }

    /**
     * NumPy's {@code partition}: each element at a {@code kth} position (negative counts from the
     * end) is where a sort would put it, with smaller-or-equal elements before it and
     * greater-or-equal elements after it, in no particular order. A null axis partitions the
     * flattened array.
     */
    public static NDArray partition(NDArray a, int[] kth, Integer axis) {
        NDArray source = axis == null ? a.ravel() : a;
        int lane = laneAxis(source, axis == null ? 0 : axis);
        int[] ranks = normalizeKth(kth, source.shape(lane));
        NDArray result = NDArray.zeros(source.dtype(), source.shape());
        Lanes.forEach(lane, offsets -> {
            int[] order = Selection.partitionOrder(Lanes.keys(source, lane, offsets[0]), ranks);
            Lanes.gather(source, offsets[0], result, offsets[1], lane, order);
        }, source, result);
        return result;
    }

    /** The int64 indices that partition {@code a} as {@link #partition} does. */
    public static NDArray argpartition(NDArray a, int[] kth, Integer axis) {
        NDArray source = axis == null ? a.ravel() : a;
        int lane = laneAxis(source, axis == null ? 0 : axis);
        int[] ranks = normalizeKth(kth, source.shape(lane));
        NDArray result = NDArray.zeros(DType.INT64, source.shape());
        Lanes.forEach(lane, offsets -> storeIndices(Selection.partitionOrder(Lanes.keys(source, lane, offsets[0]), ranks),
                result, offsets[1], lane), source, result);
        return result;
    }

    private static void storeIndices(int[] order, NDArray result, long byteOffset, int lane) {
        long stride = result.byteStride(lane);
        for (int k = 0; k < order.length; k++) {
            Elements.storeLong(DType.INT64, result.segment(), byteOffset + k * stride, order[k]);
        }
    }

    private static int[] normalizeKth(int[] kth, long length) {
        int[] ranks = new int[kth.length];
        for (int i = 0; i < kth.length; i++) {
            int k = kth[i];
            if (k < -length || k >= length) {
                throw new IllegalArgumentException("kth(=" + k + ") out of bounds (" + length + ")");
            }
            ranks[i] = (int) (k < 0 ? k + length : k);
        }
        return ranks;
    }

    /** The lane axis; a 0-d array has none, as NumPy's "axis -1 is out of bounds" says. */
    static int laneAxis(NDArray array, int axis) {
        return Shapes.normalizeAxis(axis, array.ndim());
    }
}
