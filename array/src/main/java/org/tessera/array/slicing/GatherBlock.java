package org.tessera.array.slicing;

import java.io.Serial;
import java.util.Arrays;
import java.util.List;

import org.tessera.array.Blocks;
import org.tessera.graph.TaskFunction;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.index.Indexing;

/**
 * One output block of a gather: the points of each input block picked (the indexed axes moved
 * first, so the picked points form the first axis), written to their places among the block's
 * points, and the point axes then moved to where NumPy puts them.
 *
 * @param axes          the indexed axes of the input blocks
 * @param coordinates   per input block, per indexed axis, the points' positions within the block
 * @param positions     per input block, where its points go among this block's points (C order of the point shape)
 * @param pointShape    the shape of this block's points
 * @param pointPosition where the point axes go among the other axes
 */
record GatherBlock(int[] axes, long[][][] coordinates, long[][] positions, long[] pointShape, int pointPosition) implements TaskFunction {
    @Serial
    private static final long serialVersionUID = 1L;

    @Override
    public Object apply(List<Object> arguments) {
        List<?> blocks = (List<?>) arguments.getFirst();
        NDArray first = Blocks.dense(blocks.getFirst(), "gather block");
        int[] order = indexedAxesFirst(first.ndim());
        long[] restShape = new long[first.ndim() - axes.length];
        for (int rest = 0; rest < restShape.length; rest++) {
            restShape[rest] = first.shape(order[axes.length + rest]);
        }
        long pointCount = Arrays.stream(pointShape).reduce(1, Math::multiplyExact);
        NDArray flat;
        if (blocks.size() == 1 && isRange(positions[0], 0) && positions[0].length == pointCount) {
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
        NDArray shaped = flat.reshape(concat(pointShape, restShape));
        return shaped.transpose(pointAxesAt(shaped.ndim()));
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
