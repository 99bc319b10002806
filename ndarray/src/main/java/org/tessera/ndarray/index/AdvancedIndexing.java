package org.tessera.ndarray.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;

/**
 * Advanced indexing (integer arrays, boolean masks, boolean scalars), as a gather for get and a
 * scatter for set. Basic items are applied first as a view; the advanced items, all broadcast to
 * one shape B, then select sub-arrays of the remaining axes. NumPy's placement rule: B replaces
 * the advanced axes in place when the advanced items are adjacent, and goes first otherwise.
 * Example: x of shape (2,3,4,5); x[:, [0,1], [0,1], :] has shape (2,2,5), x[[0,1], :, [0,1]] (2,3,5).
 */
final class AdvancedIndexing {
    private AdvancedIndexing() {}

    /** The view after basic items, which advanced axes select, and where B goes. */
    private record Plan(NDArray view, int[] advancedAxes, NDArray[] indices, long[] broadcastShape, int insertAt) {}

    static NDArray get(NDArray x, Index[] index) {
        Plan plan = plan(x, index);
        long[] restShape = restShape(plan);
        long[] gatheredShape = concat(plan.broadcastShape(), restShape);
        // Every element is written by one of the selections.
        NDArray gathered = NDArray.empty(x.dtype(), gatheredShape);
        forEachSelection(plan, (position, selected) -> slot(gathered, plan.broadcastShape(), position).assign(selected));
        return placeBroadcastAxes(gathered, plan).ascontiguousarray();
    }

    static void set(NDArray x, NDArray value, Index[] index) {
        if (!x.isWriteable()) {
            throw new UnsupportedOperationException("assignment destination is read-only (array of shape " + Shapes.format(x.shape()) + ")");
        }
        Plan plan = plan(x, index);
        long[] restShape = restShape(plan);
        long[] resultShape = placeBroadcastAxes(NDArray.zeros(DType.BOOL, concat(plan.broadcastShape(), restShape)), plan).shape();
        NDArray source = value.mayShareMemory(x) ? value.copy() : value;
        long[] valueShape = Indexing.assignedValueShape(source.shape(), resultShape, true);
        if (!Arrays.equals(valueShape, source.shape())) {
            source = Shapes.size(valueShape) == 0 ? NDArray.zeros(source.dtype(), valueShape) : source.reshape(valueShape);
        }
        NDArray broadcast = unplaceBroadcastAxes(source.broadcastTo(resultShape), plan);
        forEachSelection(plan, (position, selected) -> selected.assign(slot(broadcast, plan.broadcastShape(), position)));
    }

    @FunctionalInterface
    private interface SelectionVisitor {
        void visit(long[] position, NDArray selected);
    }

    /** Visits every position of B with the sub-array of the view it selects (a writeable view). */
    private static void forEachSelection(Plan plan, SelectionVisitor visitor) {
        NDArray view = plan.view();
        long[] broadcastShape = plan.broadcastShape();
        NDArray[] indices = new NDArray[plan.indices().length];
        for (int k = 0; k < indices.length; k++) {
            indices[k] = plan.indices()[k].broadcastTo(broadcastShape);
        }
        long[] restShape = restShape(plan);
        long[] restStrides = restStrides(plan);
        long total = Shapes.size(broadcastShape);
        long[] position = new long[broadcastShape.length];
        for (long flat = 0; flat < total; flat++) {
            long offset = view.byteOffset();
            for (int k = 0; k < indices.length; k++) {
                int axis = plan.advancedAxes()[k];
                long raw = indices[k].getLong(position);
                offset += view.checkIndex(raw, axis) * view.byteStride(axis);
            }
            visitor.visit(position, NDArray.wrap(view.segment(), offset, restShape, restStrides, view.dtype(), view.isWriteable()));
            for (int axis = position.length - 1; axis >= 0; axis--) {
                if (++position[axis] < broadcastShape[axis]) {
                    break;
                }
                position[axis] = 0;
            }
        }
    }

    private static NDArray slot(NDArray array, long[] broadcastShape, long[] position) {
        NDArray result = array;
        for (long coordinate : position) {
            result = result.take(0, coordinate);
        }
        return result;
    }

    private static NDArray placeBroadcastAxes(NDArray gathered, Plan plan) {
        int broadcastRank = plan.broadcastShape().length;
        int[] order = new int[gathered.ndim()];
        int next = 0;
        for (int axis = 0; axis < plan.insertAt(); axis++) {
            order[next++] = broadcastRank + axis;
        }
        for (int axis = 0; axis < broadcastRank; axis++) {
            order[next++] = axis;
        }
        for (int axis = broadcastRank + plan.insertAt(); axis < gathered.ndim(); axis++) {
            order[next++] = axis;
        }
        return gathered.transpose(order);
    }

    private static NDArray unplaceBroadcastAxes(NDArray placed, Plan plan) {
        int broadcastRank = plan.broadcastShape().length;
        int[] order = new int[placed.ndim()];
        int next = 0;
        for (int axis = 0; axis < broadcastRank; axis++) {
            order[next++] = plan.insertAt() + axis;
        }
        for (int axis = 0; axis < plan.insertAt(); axis++) {
            order[next++] = axis;
        }
        for (int axis = plan.insertAt() + broadcastRank; axis < placed.ndim(); axis++) {
            order[next++] = axis;
        }
        return placed.transpose(order);
    }

    private static long[] restShape(Plan plan) {
        return restOf(plan, plan.view().shape());
    }

    private static long[] restStrides(Plan plan) {
        return restOf(plan, plan.view().byteStrides());
    }

    private static long[] restOf(Plan plan, long[] values) {
        long[] rest = new long[values.length - plan.advancedAxes().length];
        int next = 0;
        for (int axis = 0; axis < values.length; axis++) {
            int current = axis;
            if (Arrays.stream(plan.advancedAxes()).noneMatch(advanced -> advanced == current)) {
                rest[next++] = values[axis];
            }
        }
        return rest;
    }

    private static long[] concat(long[] first, long[] second) {
        long[] result = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, result, first.length, second.length);
        return result;
    }

    /** Applies the basic items as a view and lists the advanced axes of that view with their indices. */
    private static Plan plan(NDArray x, Index[] index) {
        List<Index> items = List.of(index);
        int consumed = IndexItems.indexedAxes(index);
        if (IndexItems.ellipses(items) > 1) {
            throw new IndexOutOfBoundsException("an index can only have a single ellipsis ('...')");
        }
        if (consumed > x.ndim()) {
            throw new IndexOutOfBoundsException("too many indices for array: array is " + x.ndim() + "-dimensional, but " + consumed + " were indexed");
        }
        NDArray view = x;
        int axis = 0;
        List<Integer> advancedAxes = new ArrayList<>();
        List<NDArray> indices = new ArrayList<>();
        List<Integer> advancedItemPositions = new ArrayList<>();
        for (int position = 0; position < items.size(); position++) {
            Index item = items.get(position);
            switch (item) {
                case Index.At at -> {
                    // Checked here: NumPy raises for an integer out of bounds even when the selection is empty.
                    view.checkIndex(at.index(), axis);
                    advancedAxes.add(axis++);
                    indices.add(NDArray.scalar(at.index()));
                    advancedItemPositions.add(position);
                }
                case Index.IntArray array -> {
                    advancedAxes.add(axis++);
                    indices.add(array.indices());
                    advancedItemPositions.add(position);
                }
                case Index.BoolMask mask -> {
                    NDArray[] nonzero = nonzero(mask.mask(), view, axis);
                    for (NDArray coordinates : nonzero) {
                        advancedAxes.add(axis++);
                        indices.add(coordinates);
                    }
                    advancedItemPositions.add(position);
                }
                case Index.Range range -> {
                    view = BasicIndexing.slice(view, axis, range);
                    axis++;
                }
                case Index.NewAxis ignored -> view = view.expandDims(axis++);
                case Index.Ellipsis ignored -> axis += x.ndim() - consumed;
                case Index.BoolScalar ignored -> throw new IllegalStateException("boolean scalars are rewritten before planning");
            }
        }
        long[][] shapes = indices.stream().map(NDArray::shape).toArray(long[][]::new);
        long[] broadcastShape;
        try {
            broadcastShape = Shapes.broadcast(shapes);
        } catch (IllegalArgumentException e) {
            StringBuilder message = new StringBuilder("shape mismatch: indexing arrays could not be broadcast together with shapes");
            for (long[] shape : shapes) {
                message.append(' ').append(Shapes.format(shape));
            }
            throw new IndexOutOfBoundsException(message.toString());
        }
        boolean adjacent = true;
        for (int i = 1; i < advancedItemPositions.size(); i++) {
            adjacent &= advancedItemPositions.get(i) == advancedItemPositions.get(i - 1) + 1;
        }
        int insertAt = adjacent ? advancedAxes.getFirst() : 0;
        return new Plan(view, advancedAxes.stream().mapToInt(Integer::intValue).toArray(), indices.toArray(NDArray[]::new),
                broadcastShape, insertAt);
    }

    /** The coordinates of the true elements of {@code mask}, which covers axes from {@code firstAxis}. */
    private static NDArray[] nonzero(NDArray mask, NDArray view, int firstAxis) {
        for (int axis = 0; axis < mask.ndim(); axis++) {
            long expected = view.shape(firstAxis + axis);
            // NumPy lets a mask axis of length 0 stand for an axis of any length (it selects nothing).
            if (mask.shape(axis) != expected && mask.shape(axis) != 0) {
                throw new IndexOutOfBoundsException("boolean index did not match indexed array along axis " + (firstAxis + axis)
                        + "; size of axis is " + expected + " but size of corresponding boolean axis is " + mask.shape(axis));
            }
        }
        NDArray flat = mask.ravel();
        long count = 0;
        for (long i = 0; i < flat.size(); i++) {
            if (flat.getBoolean(i)) {
                count++;
            }
        }
        NDArray[] coordinates = new NDArray[mask.ndim()];
        for (int axis = 0; axis < mask.ndim(); axis++) {
            coordinates[axis] = NDArray.zeros(DType.INT64, count);
        }
        long[] shape = mask.shape();
        long next = 0;
        for (long i = 0; i < flat.size(); i++) {
            if (flat.getBoolean(i)) {
                long remainder = i;
                for (int axis = mask.ndim() - 1; axis >= 0; axis--) {
                    coordinates[axis].setLong(remainder % shape[axis], next);
                    remainder /= shape[axis];
                }
                next++;
            }
        }
        return coordinates;
    }
}
