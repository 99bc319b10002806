package org.tessera.array.slicing;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.tessera.array.Blocks;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.array.blockwise.ReadsDeferredBlocks;
import org.tessera.graph.TaskFunction;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.index.Indexing;
import org.tessera.ndarray.layout.Shapes;
import org.tessera.ndarray.memory.Scratch;

/**
 * One output block of a gather: the points of each input block picked (the indexed axes moved
 * first, so the picked points form the first axis), written to their places among the block's
 * points, and the point axes then moved to where NumPy puts them.
 *
 * <p>Input blocks not computed yet ({@link DeferredBlock}s) are not made whole: only the box around
 * their points is computed, or, for points far apart along one axis, each point's slab alone.
 *
 * @param axes          the indexed axes of the input blocks
 * @param coordinates   per input block, per indexed axis, the points' positions within the block
 * @param positions     per input block, where its points go among this block's points (C order of the point shape)
 * @param pointShape    the shape of this block's points
 * @param pointPosition where the point axes go among the other axes
 */
record GatherBlock(int[] axes, long[][][] coordinates, long[][] positions, long[] pointShape, int pointPosition) implements TaskFunction, ReadsDeferredBlocks {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * Elements per point from which a gather along one axis copies each point's slab (or run of
     * slabs) straight to its place in the output, rather than picking every input's points into an
     * array of their own and copying that into place; smaller slabs go through the general gather,
     * whose loop costs less than a call per slab.
     */
    private static final long SLAB_COPY_MIN_ELEMENTS = 256;

    @Override
    public Object apply(List<Object> arguments) {
        List<?> blocks = (List<?>) arguments.getFirst();
        NDArray first = Blocks.dense(blocks.getFirst(), "gather block");
        int[] order = indexedAxesFirst(first.ndim());
        long[] restShape = new long[first.ndim() - axes.length];
        for (int rest = 0; rest < restShape.length; rest++) {
            restShape[rest] = first.shape(order[axes.length + rest]);
        }
        long pointCount = pointCount();
        NDArray flat;
        if (axes.length == 1 && Shapes.size(restShape) >= SLAB_COPY_MIN_ELEMENTS) {
            // Every point is one of the inputs' slabs.
            flat = NDArray.empty(first.dtype(), concat(new long[] {pointCount}, restShape));
            for (int input = 0; input < blocks.size(); input++) {
                copySlabs(Blocks.dense(blocks.get(input), "gather block").transpose(order), coordinates[input][0], flat, positions[input]);
            }
        } else if (blocks.size() == 1 && isRange(positions[0], 0) && positions[0].length == pointCount) {
            flat = pick(first, order, coordinates[0]);
        } else {
            flat = NDArray.zeros(first.dtype(), concat(new long[] {pointCount}, restShape));
            for (int input = 0; input < blocks.size(); input++) {
                long[] targets = positions[input];
                if (targets.length == 0) {
                    continue;
                }
                NDArray picked = pick(Blocks.dense(blocks.get(input), "gather block"), order, coordinates[input]);
                if (isRange(targets, targets[0])) {
                    flat.slice(0, targets[0], 1, targets.length).assign(picked);
                } else {
                    Indexing.set(flat, picked, new Index.IntArray(int64(targets)));
                }
            }
        }
        return placed(flat, restShape);
    }

    /** The points, in C order of the point shape along the first axis of {@code flat}, moved to where NumPy puts them. */
    private NDArray placed(NDArray flat, long[] restShape) {
        NDArray shaped = flat.reshape(concat(pointShape, restShape));
        return shaped.transpose(pointAxesAt(shaped.ndim()));
    }

    @Override
    public Object applyDeferring(List<Object> arguments) throws Exception {
        List<?> blocks = (List<?>) arguments.getFirst();
        List<Object> computed = new ArrayList<>(blocks.size());
        long[][][] computedCoordinates = coordinates.clone();
        // What the deferred blocks compute lives only until their points are picked (copied out of it): in scratch
        // memory that the next gather reuses, where fresh arrays of a few megabytes would each take regions of their own.
        Scratch scratch = Scratch.borrow();
        try {
            for (int input = 0; input < blocks.size(); input++) {
                if (blocks.get(input) instanceof DeferredBlock deferred) {
                    long[][] within = new long[axes.length][];
                    computedCoordinates[input] = within;
                    long[][] blockCoordinates = coordinates[input];
                    computed.add(scratch.call(() -> pointsOf(deferred, blockCoordinates, within)));
                } else {
                    computed.add(blocks.get(input));
                }
            }
            if (blocks.size() == 1 && blocks.getFirst() instanceof DeferredBlock && isExactly(computed.getFirst(), computedCoordinates[0])) {
                NDArray points = (NDArray) computed.getFirst();
                return placed(points, Arrays.copyOfRange(points.shape(), 1, points.ndim()));
            }
            return new GatherBlock(axes, computedCoordinates, positions, pointShape, pointPosition).apply(List.of(computed));
        } finally {
            scratch.giveBack();
        }
    }

    /**
     * Whether {@code computed}, what this task made of its one deferred block, is already the
     * block's points along the first axis, each once and in the order of this block's: then it is
     * the result, where a gather of a random block's rows (W6: blocks of one or two rows) copied
     * every row it had just made into an array of its own (436 of the 1797 MB W6's process
     * allocated; 0.97 against 1.14 s at the medians of seven alternating runs). Memory the task
     * owns alone: an array of its own, not a view of memory other tasks hold, and not in scratch
     * memory, which the next task reuses.
     */
    private boolean isExactly(Object computed, long[][] within) {
        if (axes.length != 1 || axes[0] != 0 || !(computed instanceof NDArray points) || !points.ownsData() || !points.isCContiguous()
                || Scratch.holds(points.segment())) {
            return false;
        }
        long pointCount = pointCount();
        // One input block: its points are all of this block's, in this block's order.
        return points.shape(0) == pointCount && within[0].length == pointCount && isRange(within[0], 0);
    }

    /** The number of this block's points. */
    private long pointCount() {
        return Shapes.size(pointShape);
    }

    /**
     * What a deferred block must compute for its points: the box around them, or, along a single
     * indexed axis whose points lie sparse, the slab of each distinct point stacked in order. Writes
     * the points' coordinates within the result to {@code within}.
     */
    private NDArray pointsOf(DeferredBlock block, long[][] blockCoordinates, long[][] within) throws Exception {
        long[] start = new long[block.shape().length];
        long[] shape = block.shape();
        int points = blockCoordinates[0].length;
        if (axes.length == 1 && points > 0) {
            long[] distinct = distinctSorted(blockCoordinates[0]);
            long span = distinct[distinct.length - 1] - distinct[0] + 1;
            if (2 * distinct.length < span) {
                within[0] = Arrays.stream(blockCoordinates[0]).map(coordinate -> Arrays.binarySearch(distinct, coordinate)).toArray();
                return block.slabs(axes[0], distinct, start, shape);
            }
        }
        for (int indexed = 0; indexed < axes.length; indexed++) {
            long lowest = points == 0 ? 0 : Arrays.stream(blockCoordinates[indexed]).min().orElseThrow();
            long highest = points == 0 ? -1 : Arrays.stream(blockCoordinates[indexed]).max().orElseThrow();
            start[axes[indexed]] = lowest;
            shape[axes[indexed]] = highest - lowest + 1;
            within[indexed] = Arrays.stream(blockCoordinates[indexed]).map(coordinate -> coordinate - lowest).toArray();
        }
        return block.part(start, shape);
    }

    /**
     * Copies the slabs of {@code source} at {@code points} along its first axis to the slabs of
     * {@code target} at {@code targets}, a run of consecutive points to consecutive places in one
     * call: picks of a stored block's rows or of a random block's scattered rows arrive as exactly
     * the points asked, in order, and go over whole.
     */
    private static void copySlabs(NDArray source, long[] points, NDArray target, long[] targets) {
        for (int from = 0; from < points.length;) {
            int to = from + 1;
            while (to < points.length && points[to] == points[to - 1] + 1 && targets[to] == targets[to - 1] + 1) {
                to++;
            }
            target.slice(0, targets[from], 1, to - from).assign(source.slice(0, points[from], 1, to - from));
            from = to;
        }
    }

    /** The picked points of one block: shape (points, other axes...). */
    private NDArray pick(NDArray block, int[] order, long[][] blockCoordinates) {
        Index[] index = new Index[axes.length];
        for (int axis = 0; axis < axes.length; axis++) {
            index[axis] = new Index.IntArray(int64(blockCoordinates[axis]));
        }
        return Indexing.get(block.transpose(order), index);
    }

    private int[] indexedAxesFirst(int ndim) {
        int[] order = new int[ndim];
        int next = 0;
        for (int axis : axes) {
            order[next++] = axis;
        }
        for (int axis = 0; axis < ndim; axis++) {
            int candidate = axis;
            if (Arrays.stream(axes).noneMatch(indexed -> indexed == candidate)) {
                order[next++] = axis;
            }
        }
        return order;
    }

    /** The transpose that takes (point axes, other axes) to the other axes with the point axes at pointPosition. */
    private int[] pointAxesAt(int ndim) {
        int pointRank = pointShape.length;
        int[] order = new int[ndim];
        int next = 0;
        for (int rest = 0; rest < pointPosition; rest++) {
            order[next++] = pointRank + rest;
        }
        for (int point = 0; point < pointRank; point++) {
            order[next++] = point;
        }
        for (int rest = pointPosition; rest < ndim - pointRank; rest++) {
            order[next++] = pointRank + rest;
        }
        return order;
    }

    /** The distinct values, increasing. */
    private static long[] distinctSorted(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int distinct = 0;
        for (int position = 0; position < sorted.length; position++) {
            if (position == 0 || sorted[position] != sorted[distinct - 1]) {
                sorted[distinct++] = sorted[position];
            }
        }
        return Arrays.copyOf(sorted, distinct);
    }

    private static boolean isRange(long[] values, long first) {
        for (int position = 0; position < values.length; position++) {
            if (values[position] != first + position) {
                return false;
            }
        }
        return true;
    }

    static NDArray int64(long[] values) {
        NDArray array = NDArray.zeros(DType.INT64, values.length);
        for (int position = 0; position < values.length; position++) {
            array.setLong(values[position], position);
        }
        return array;
    }

    static long[] concat(long[] first, long[] second) {
        long[] result = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, result, first.length, second.length);
        return result;
    }

    @Override
    public String displayName() {
        return "take";
    }
}
