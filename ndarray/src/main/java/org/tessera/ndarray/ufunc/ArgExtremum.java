package org.tessera.ndarray.ufunc;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.kernel.Lanes;

/** argmax and argmin: the index of the first extreme element of each row; the first NaN counts as extreme. */
final class ArgExtremum {
    private ArgExtremum() {}

    static NDArray find(NDArray x, Integer axis, boolean keepdims, boolean maximum) {
        NDArray input = axis == null ? x.ravel() : x;
        int normalizedAxis = axis == null ? 0 : org.tessera.ndarray.layout.Shapes.normalizeAxis(axis, Math.max(1, x.ndim()));
        if (input.ndim() == 0) {
            input = input.reshape(1);
        }
        Axes axes = Axes.of(new int[] {normalizedAxis}, input.ndim());
        if (input.shape(normalizedAxis) == 0) {
            throw new IllegalArgumentException("attempt to get arg" + (maximum ? "max" : "min") + " of an empty sequence");
        }
        DType dtype = input.dtype();
        NDArray rows = axes.asRows(input, dtype);
        long columns = rows.shape(1);
        NDArray result = NDArray.zeros(DType.INT64, rows.shape(0));
        boolean longLane = Lanes.isLongLane(dtype);
        long[] longs = longLane ? new long[(int) columns] : null;
        double[] doubles = longLane ? null : new double[(int) columns];
        for (long row = 0; row < rows.shape(0); row++) {
            long offset = rows.byteOffset() + row * rows.byteStride(0);
            long index;
            if (longLane) {
                Lanes.loadLongs(dtype, rows.segment(), offset, rows.byteStride(1), longs, (int) columns);
                index = longIndex(dtype, longs, maximum);
            } else {
                Lanes.loadDoubles(dtype, rows.segment(), offset, rows.byteStride(1), doubles, (int) columns);
                index = doubleIndex(doubles, maximum);
            }
            result.setLong(index, row);
        }
        long[] shape;
        if (axis == null) {
            shape = keepdims ? onesLike(x.ndim()) : new long[0];
        } else {
            shape = axes.resultShape(input.shape(), keepdims);
        }
        return result.reshape(shape);
    }

    private static long longIndex(DType dtype, long[] values, boolean maximum) {
        int best = 0;
        for (int i = 1; i < values.length; i++) {
            int order = IntegerMath.compare(dtype, values[i], values[best]);
            if (maximum ? order > 0 : order < 0) {
                best = i;
            }
        }
        return best;
    }

    private static long doubleIndex(double[] values, boolean maximum) {
        int best = 0;
        for (int i = 0; i < values.length; i++) {
            if (Double.isNaN(values[i])) {
                return i;
            }
            if (maximum ? values[i] > values[best] : values[i] < values[best]) {
                best = i;
            }
        }
        return best;
    }

    private static long[] onesLike(int ndim) {
        long[] shape = new long[ndim];
        java.util.Arrays.fill(shape, 1);
        return shape;
    }
}
