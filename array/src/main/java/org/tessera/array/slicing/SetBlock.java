package org.tessera.array.slicing;

import java.io.Serial;
import java.util.Arrays;
import java.util.List;

import org.tessera.array.Blocks;
import org.tessera.graph.TaskFunction;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.index.Indexing;

/**
 * One block of an assignment: a copy of the input block (which other keys may share, so it is
 * never written) with the selected part overwritten by the matching part of the value.
 *
 * <p>The second argument is the region of the value that this block needs, in the value's own
 * axes; broadcast to {@code regionShape} it is the part of the indexing result this block holds.
 * Without point arrays the {@code steps} select exactly that part. With them, the steps select the
 * other axes, and the points are written one block-local coordinate per indexed axis, each point
 * taking the value at its coordinates in the region's point axes.
 *
 * @param steps            the basic selection within the block (indexed axes kept whole)
 * @param indexedAxes      the axes of the selection that the points index (empty without points)
 * @param localCoordinates per indexed axis, the points' positions within the block
 * @param regionShape      the shape of this block's part of the indexing result (a bounding box with points)
 * @param pointPosition    where the point axes are in the indexing result
 * @param pointCoordinates per point axis, each point's position within the region
 */
record SetBlock(List<BlockSlice.Step> steps, int[] indexedAxes, long[][] localCoordinates, long[] regionShape, int pointPosition,
        long[][] pointCoordinates) implements TaskFunction {
    @Serial
    private static final long serialVersionUID = 1L;

    SetBlock {
        steps = List.copyOf(steps);
    }

    @Override
    public Object apply(List<Object> arguments) {
        NDArray result = Blocks.dense(arguments.get(0), "set block").copy();
        NDArray target = BlockSlice.view(result, steps);
        NDArray region = Blocks.dense(arguments.get(1), "set block");
        if (region.ndim() > regionShape.length) {
            // NumPy drops leading length-1 axes of a value with more axes than the selection.
            region = region.reshape(Arrays.copyOfRange(region.shape(), region.ndim() - regionShape.length, region.ndim()));
        }
        if (region.size() == 1) {
            region = region.reshape();
        }
        if (indexedAxes.length == 0) {
            target.assign(region);
            return result;
        }
        NDArray values = region.ndim() == 0 ? region : pickPoints(region.broadcastTo(regionShape));
        Index[] index = new Index[indexedAxes.length];
        for (int axis = 0; axis < index.length; axis++) {
            index[axis] = new Index.IntArray(GatherBlock.int64(localCoordinates[axis]));
        }
        Indexing.set(target.transpose(firstAxes(target.ndim(), indexedAxes)), values, index);
        return result;
    }

    /** The region's values at the points: shape (points, other axes...). */
    private NDArray pickPoints(NDArray region) {
        int pointRank = pointCoordinates.length;
        int[] pointAxes = new int[pointRank];
        for (int axis = 0; axis < pointRank; axis++) {
            pointAxes[axis] = pointPosition + axis;
        }
        Index[] index = new Index[pointRank];
        for (int axis = 0; axis < pointRank; axis++) {
            index[axis] = new Index.IntArray(GatherBlock.int64(pointCoordinates[axis]));
        }
        return Indexing.get(region.transpose(firstAxes(region.ndim(), pointAxes)), index);
    }

    /** The axis order that puts {@code first} first and keeps the others in order. */
    private static int[] firstAxes(int ndim, int[] first) {
        int[] order = new int[ndim];
        int next = 0;
        for (int axis : first) {
            order[next++] = axis;
        }
        for (int axis = 0; axis < ndim; axis++) {
            int candidate = axis;
            if (Arrays.stream(first).noneMatch(chosen -> chosen == candidate)) {
                order[next++] = axis;
            }
        }
        return order;
    }

    @Override
    public String displayName() {
        return "setitem";
    }
}
