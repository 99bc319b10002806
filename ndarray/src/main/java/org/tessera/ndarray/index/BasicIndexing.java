package org.tessera.ndarray.index;

import java.util.List;

import org.tessera.ndarray.NDArray;

/** Basic indexing: integers, slices, ellipsis and newaxis, always a view of x. */
final class BasicIndexing {
    private BasicIndexing() {}

    static NDArray get(NDArray x, Index[] index) {
        List<Index> items = List.of(index);
        int consumed = 0;
        int ellipses = 0;
        for (Index item : items) {
            if (item instanceof Index.At || item instanceof Index.Range) {
                consumed++;
            } else if (item instanceof Index.Ellipsis) {
                ellipses++;
            }
        }
        if (ellipses > 1) {
            throw new IndexOutOfBoundsException("an index can only have a single ellipsis ('...')");
        }
        if (consumed > x.ndim()) {
            throw new IndexOutOfBoundsException("too many indices for array: array is " + x.ndim() + "-dimensional, but " + consumed + " were indexed");
        }
        NDArray result = x;
        int axis = 0;
        for (Index item : items) {
            switch (item) {
                case Index.At at -> result = result.take(axis, at.index());
                case Index.Range range -> {
                    result = slice(result, axis, range);
                    axis++;
                }
                case Index.NewAxis ignored -> {
                    result = result.expandDims(axis);
                    axis++;
                }
                case Index.Ellipsis ignored -> axis += x.ndim() - consumed;
                default -> throw new IllegalStateException("not a basic index: " + item);
            }
        }
        return result;
    }

    /** Python's slice.indices: bounds clamped to the axis, then a strided view. */
    static NDArray slice(NDArray array, int axis, Index.Range range) {
        long length = array.shape(axis);
        long step = range.step() == null ? 1 : range.step();
        long start = clamp(range.start(), length, step, true);
        long stop = clamp(range.stop(), length, step, false);
        long count = step > 0 ? Math.max(0, Math.ceilDiv(stop - start, step)) : Math.max(0, Math.ceilDiv(start - stop, -step));
        return array.slice(axis, start, step, count);
    }

    private static long clamp(Long bound, long length, long step, boolean isStart) {
        if (bound == null) {
            return step > 0 ? (isStart ? 0 : length) : (isStart ? length - 1 : -1);
        }
        long value = bound < 0 ? bound + length : bound;
        if (value < 0) {
            return step > 0 ? 0 : -1;
        }
        if (value >= length) {
            return step > 0 ? length : length - 1;
        }
        return value;
    }
}
