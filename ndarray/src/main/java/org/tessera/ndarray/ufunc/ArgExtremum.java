package org.tessera.ndarray.ufunc;

import java.util.Arrays;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.kernel.Lanes;
import org.tessera.ndarray.layout.Shapes;

/**
 * argmax and argmin: the index of the first extreme element of each row, scanned a block at a
 * time; the first NaN counts as the extreme, as in NumPy.
 */
final class ArgExtremum {
    private final DType dtype;
    private final boolean maximum;
    private final long[] longs = new long[Elementwise.BLOCK];
    private final double[] doubles = new double[Elementwise.BLOCK];

    /** The best element so far of the current row. */
    private long bestIndex;
    private long bestLong;
    private double bestDouble;
    private boolean foundNaN;

    private ArgExtremum(DType dtype, boolean maximum) {
        this.dtype = dtype;
        this.maximum = maximum;
    }

    static NDArray find(NDArray x, Integer axis, boolean keepdims, boolean maximum) {
        NDArray input = axis == null ? x.ravel() : x;
        if (input.ndim() == 0) {
            input = input.reshape(1);
        }
        int normalizedAxis = axis == null ? 0 : Shapes.normalizeAxis(axis, input.ndim());
        if (input.shape(normalizedAxis) == 0) {
            throw new IllegalArgumentException("attempt to get arg" + (maximum ? "max" : "min") + " of an empty sequence (input shape "
                    + Shapes.format(x.shape()) + ", axis " + (axis == null ? "None" : axis) + ")");
        }
        if (x.dtype().isComplex()) {
            throw new UnsupportedOperationException("arg" + (maximum ? "max" : "min") + " of complex arrays is not supported");
        }
        Axes axes = Axes.of(new int[] {normalizedAxis}, input.ndim());
        NDArray rows = axes.asRows(input, input.dtype());
        NDArray result = NDArray.zeros(DType.INT64, rows.shape(0));
        ArgExtremum search = new ArgExtremum(input.dtype(), maximum);
        for (long row = 0; row < rows.shape(0); row++) {
            long offset = rows.byteOffset() + row * rows.byteStride(0);
            result.setLong(search.scan(rows, offset, rows.shape(1)), row);
        }
        long[] shape;
        if (axis == null) {
            shape = new long[keepdims ? x.ndim() : 0];
            Arrays.fill(shape, 1);
        } else {
            shape = axes.resultShape(input.shape(), keepdims);
        }
        return result.reshape(shape);
    }

    private long scan(NDArray rows, long offset, long count) {
        bestIndex = 0;
        foundNaN = false;
        long stride = rows.byteStride(1);
        for (long start = 0; start < count && !foundNaN; start += Elementwise.BLOCK) {
            int blockCount = (int) Math.min(Elementwise.BLOCK, count - start);
            if (Lanes.isLongLane(dtype)) {
                Lanes.loadLongs(dtype, rows.segment(), offset + start * stride, stride, longs, blockCount);
                scanLongs(start, blockCount);
            } else {
                Lanes.loadDoubles(dtype, rows.segment(), offset + start * stride, stride, doubles, blockCount);
                scanDoubles(start, blockCount);
            }
        }
        return bestIndex;
    }

    private void scanLongs(long start, int count) {
        for (int i = 0; i < count; i++) {
            int order = start + i == 0 ? 1 : IntegerMath.compare(dtype, longs[i], bestLong);
            if (start + i == 0 || (maximum ? order > 0 : order < 0)) {
                bestLong = longs[i];
                bestIndex = start + i;
            }
        }
    }

    private void scanDoubles(long start, int count) {
        for (int i = 0; i < count; i++) {
            double value = doubles[i];
            if (Double.isNaN(value)) {
                bestIndex = start + i;
                foundNaN = true;
                return;
            }
            if (start + i == 0 || (maximum ? value > bestDouble : value < bestDouble)) {
                bestDouble = value;
                bestIndex = start + i;
            }
        }
    }
}
