package org.tessera.array.slicing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.tessera.array.chunks.Chunks;
import org.tessera.array.chunks.UnknownChunksException;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.index.IndexItems;
import org.tessera.ndarray.layout.Shapes;

/**
 * Resolves an index expression against a shape with NumPy's rules, and raises NumPy's errors
 * (IndexError as {@link IndexOutOfBoundsException}) with the shape, the index and the axis named.
 * Axes of unknown length accept only whole slices and new axes.
 */
final class IndexResolver {
    private IndexResolver() {
    }

    /** How integer arrays combine with the rest of the index. */
    enum Mode {
        /** NumPy's {@code x[index]}: the point axes go in place when the advanced items are adjacent, else first. */
        NUMPY,
        /** Dask's {@code x.vindex[index]}: point-wise, the point axes always first; no masks, no new axes. */
        POINTWISE
    }

    static ResolvedIndex resolve(long[] shape, Index[] index, Mode mode) {
        for (int position = 0; position < index.length; position++) {
            if (index[position] == null) {
                throw new IllegalArgumentException("index item " + position + " is null; NumPy's None (a new axis) is Index.newAxis()");
            }
        }
        if (mode == Mode.POINTWISE && Arrays.stream(index).anyMatch(IndexItems::isBooleanScalar)) {
            throw new IndexOutOfBoundsException("vindex does not support indexing with boolean arrays: index " + IndexText.index(index));
        }
        if (IndexItems.hasBooleanScalars(index)) {
            throw new IllegalStateException("boolean scalars are rewritten before resolution: index " + IndexText.index(index));
        }
        List<Index> items = List.of(index);
        int consumed = IndexItems.indexedAxes(index);
        if (IndexItems.ellipses(items) > 1) {
            throw new IndexOutOfBoundsException("an index can only have a single ellipsis ('...'): index " + IndexText.index(index));
        }
        if (consumed > shape.length) {
            throw new IndexOutOfBoundsException("too many indices for array: array is " + shape.length + "-dimensional (shape "
                    + IndexText.shape(shape) + "), but " + consumed + " were indexed by " + IndexText.index(index));
        }
        List<AxisSelector> selectors = new ArrayList<>();
        List<NDArray> pointArrays = new ArrayList<>();
        List<Integer> advancedPositions = new ArrayList<>();
        int axis = 0;
        for (int position = 0; position < items.size(); position++) {
            Index item = items.get(position);
            switch (item) {
                case Index.At at -> {
                    selectors.add(new AxisSelector.Point(position(at.index(), shape, axis, index)));
                    advancedPositions.add(position);
                    axis++;
                }
                case Index.Range range -> {
                    selectors.add(slice(range, shape, axis, index));
                    axis++;
                }
                case Index.NewAxis ignored -> {
                    if (mode == Mode.POINTWISE) {
                        throw new IndexOutOfBoundsException("vindex does not support indexing with None (np.newaxis): index " + IndexText.index(index));
                    }
                    selectors.add(new AxisSelector.Insert());
                }
                case Index.Ellipsis ignored -> {
                    for (int whole = 0; whole < shape.length - consumed; whole++) {
                        selectors.add(new AxisSelector.Whole());
                        axis++;
                    }
                }
                case Index.IntArray array -> {
                    selectors.add(new AxisSelector.Gathered(pointArrays.size()));
                    pointArrays.add(positions(array.indices(), shape, axis, index));
                    advancedPositions.add(position);
                    axis++;
                }
                case Index.BoolMask mask -> {
                    if (mode == Mode.POINTWISE) {
                        throw new IndexOutOfBoundsException("vindex does not support indexing with boolean arrays: index " + IndexText.index(index));
                    }
                    for (NDArray coordinates : trueCoordinates(mask.mask(), shape, axis, index)) {
                        selectors.add(new AxisSelector.Gathered(pointArrays.size()));
                        pointArrays.add(coordinates);
                        axis++;
                    }
                    advancedPositions.add(position);
                }
                case Index.BoolScalar ignored -> throw new IllegalStateException("boolean scalars are rewritten before resolution");
            }
        }
        while (axis < shape.length) {
            selectors.add(new AxisSelector.Whole());
            axis++;
        }
        if (pointArrays.isEmpty()) {
            return new ResolvedIndex(selectors, pointArrays, new long[0], 0);
        }
        long[] pointShape = broadcastShape(pointArrays, index);
        if (pointShape.length == 0) {
            // Only 0-d arrays: NumPy gives what the same integers give.
            return new ResolvedIndex(selectors.stream().map(selector -> selector instanceof AxisSelector.Gathered gathered
                    ? (AxisSelector) new AxisSelector.Point(pointArrays.get(gathered.array()).getLong()) : selector).toList(), List.of(), pointShape, 0);
        }
        int pointPosition = mode == Mode.NUMPY && adjacent(advancedPositions) ? axesBeforeFirstGathered(selectors) : 0;
        return new ResolvedIndex(selectors, pointArrays, pointShape, pointPosition);
    }

    /**
     * A boolean scalar (or 0-d mask) is a new axis of length 1 selected by {@code [0]} (true) or
     * {@code []} (false), which is how NumPy treats it.
     */
    private static long knownLength(long[] shape, int axis, Index[] index, String what) {
        if (shape[axis] == Chunks.UNKNOWN) {
            throw new UnknownChunksException("indexing axis " + axis + " of an array of shape " + IndexText.shape(shape) + " with " + what
                    + " (index " + IndexText.index(index) + ") needs its length");
        }
        return shape[axis];
    }

    private static long position(long raw, long[] shape, int axis, Index[] index) {
        long length = knownLength(shape, axis, index, "an integer");
        if (raw < -length || raw >= length) {
            throw new IndexOutOfBoundsException("index " + raw + " is out of bounds for axis " + axis + " with size " + length
                    + " (array of shape " + IndexText.shape(shape) + ", index " + IndexText.index(index) + ")");
        }
        return raw < 0 ? raw + length : raw;
    }

    /** Python's {@code slice.indices}, with Dask's normalisation of an empty forward slice's stop. */
    private static AxisSelector slice(Index.Range range, long[] shape, int axis, Index[] index) {
        long step = range.step() == null ? 1 : range.step();
        if (shape[axis] == Chunks.UNKNOWN) {
            if (range.start() == null && range.stop() == null && step == 1) {
                return new AxisSelector.Whole();
            }
            knownLength(shape, axis, index, "a slice other than ':'");
        }
        long length = shape[axis];
        long lower = step > 0 ? 0 : -1;
        long upper = step > 0 ? length : length - 1;
        long start = range.start() == null ? (step > 0 ? lower : upper) : clamp(range.start(), length, lower, upper);
        long stop = range.stop() == null ? (step > 0 ? upper : lower) : clamp(range.stop(), length, lower, upper);
        long count = step > 0 ? (stop > start ? Math.ceilDiv(stop - start, step) : 0) : (start > stop ? Math.ceilDiv(start - stop, -step) : 0);
        if (step > 0 && stop < start) {
            stop = start;
        }
        if (step == 1 && start == 0 && stop == length) {
            return new AxisSelector.Whole();
        }
        return new AxisSelector.Stride(start, stop, step, count);
    }

    private static long clamp(long bound, long length, long lower, long upper) {
        long value = bound < 0 ? bound + length : bound;
        if (value < lower) {
            return lower;
        }
        return Math.min(value, upper);
    }

    /** The positions of an integer index array, checked and made non-negative, as a new int64 array. */
    private static NDArray positions(NDArray indices, long[] shape, int axis, Index[] index) {
        if (!indices.dtype().isInteger()) {
            throw new IndexOutOfBoundsException("arrays used as indices must be of integer (or boolean) type, got " + indices.dtype()
                    + " in index " + IndexText.index(index));
        }
        NDArray result = NDArray.zeros(DType.INT64, indices.shape());
        if (result.size() == 0) {
            return result;
        }
        long length = knownLength(shape, axis, index, "an integer array");
        NDArray flatIndices = indices.ravel();
        NDArray flatResult = result.ravel();
        boolean unsigned64 = indices.dtype() == DType.UINT64;
        for (long element = 0; element < flatIndices.size(); element++) {
            long raw = flatIndices.getLong(element);
            if ((unsigned64 && raw < 0) || raw < -length || raw >= length) {
                String value = unsigned64 ? Long.toUnsignedString(raw) : Long.toString(raw);
                throw new IndexOutOfBoundsException("index " + value + " is out of bounds for axis " + axis + " with size " + length
                        + " (array of shape " + IndexText.shape(shape) + ", index " + IndexText.index(index) + ")");
            }
            flatResult.setLong(raw < 0 ? raw + length : raw, element);
        }
        return result;
    }

    /** The coordinates of the true elements of a mask over the axes from {@code firstAxis}, one int64 array per mask axis. */
    private static NDArray[] trueCoordinates(NDArray mask, long[] shape, int firstAxis, Index[] index) {
        for (int maskAxis = 0; maskAxis < mask.ndim(); maskAxis++) {
            int axis = firstAxis + maskAxis;
            long length = knownLength(shape, axis, index, "a boolean mask");
            if (mask.shape(maskAxis) != length && mask.shape(maskAxis) != 0) {
                throw new IndexOutOfBoundsException("boolean index did not match indexed array along axis " + axis + "; size of axis is "
                        + length + " but size of corresponding boolean axis is " + mask.shape(maskAxis) + " (array of shape "
                        + IndexText.shape(shape) + ", mask of shape " + IndexText.shape(mask.shape()) + ")");
            }
        }
        NDArray flat = mask.ravel();
        long count = 0;
        for (long element = 0; element < flat.size(); element++) {
            if (flat.getBoolean(element)) {
                count++;
            }
        }
        NDArray[] coordinates = new NDArray[mask.ndim()];
        for (int maskAxis = 0; maskAxis < coordinates.length; maskAxis++) {
            coordinates[maskAxis] = NDArray.zeros(DType.INT64, count);
        }
        long[] maskShape = mask.shape();
        long next = 0;
        for (long element = 0; element < flat.size(); element++) {
            if (flat.getBoolean(element)) {
                long remainder = element;
                for (int maskAxis = maskShape.length - 1; maskAxis >= 0; maskAxis--) {
                    coordinates[maskAxis].setLong(remainder % maskShape[maskAxis], next);
                    remainder /= maskShape[maskAxis];
                }
                next++;
            }
        }
        return coordinates;
    }

    private static long[] broadcastShape(List<NDArray> pointArrays, Index[] index) {
        long[][] shapes = pointArrays.stream().map(NDArray::shape).toArray(long[][]::new);
        try {
            return Shapes.broadcast(shapes);
        } catch (IllegalArgumentException mismatch) {
            StringBuilder message = new StringBuilder("shape mismatch: indexing arrays could not be broadcast together with shapes");
            for (long[] shape : shapes) {
                message.append(' ').append(IndexText.shape(shape));
            }
            throw new IndexOutOfBoundsException(message.append(" (index ").append(IndexText.index(index)).append(')').toString());
        }
    }

    private static boolean adjacent(List<Integer> positions) {
        for (int next = 1; next < positions.size(); next++) {
            if (positions.get(next) != positions.get(next - 1) + 1) {
                return false;
            }
        }
        return true;
    }

    /** The number of result axes before the first gathered axis: every selector except points and gathered ones makes one. */
    private static int axesBeforeFirstGathered(List<AxisSelector> selectors) {
        int axes = 0;
        for (AxisSelector selector : selectors) {
            if (selector instanceof AxisSelector.Gathered) {
                return axes;
            }
            if (!(selector instanceof AxisSelector.Point)) {
                axes++;
            }
        }
        return axes;
    }
}
