package org.tessera.array.reduction;

import java.io.Serial;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.ufunc.Statistics;

/**
 * argmax/argmin (and the nan-variants) along one axis, or over the flattened array: a partial is
 * the best value with its global position, so combining compares values and keeps the first
 * position among equals, as NumPy does.
 *
 * @param flat whether the reduction is over the flattened array (axis None): positions are then
 *             flat C-order indices into the whole array
 */
public record ArgKind(String name, boolean largest, boolean skipNan, boolean flat) implements ReductionKind {
    @Serial
    private static final long serialVersionUID = 1L;

    @Override
    public NDArray[] chunk(NDArray block, int[] axes, BlockPlace place) {
        if (flat) {
            NDArray values = block.ravel();
            long local = best(values, 0).getLong(0);
            long[] kept = ones(block.ndim());
            NDArray value = values.slice(0, local, 1, 1).copy().reshape(kept);
            NDArray position = NDArray.zeros(DType.INT64, kept);
            position.fill(flatIndex(local, block.shape(), place));
            return new NDArray[] {value, position};
        }
        int axis = axes[0];
        NDArray local = best(block, axis);
        NDArray position = org.tessera.ndarray.ufunc.Ufuncs.ADD.apply(local, place.start()[axis]);
        return new NDArray[] {takeAlong(block, local, axis), position};
    }

    @Override
    public NDArray[] combine(NDArray[] joined, int[] axes) {
        if (flat) {
            // Partials joined in block-grid order are not in flat order (a later block can start
            // earlier in C order), so candidates are put in position order before the first best wins.
            NDArray positions = joined[1].ravel();
            Integer[] byPosition = new Integer[(int) positions.size()];
            for (int candidate = 0; candidate < byPosition.length; candidate++) {
                byPosition[candidate] = candidate;
            }
            java.util.Arrays.sort(byPosition, java.util.Comparator.comparingLong(candidate -> positions.getLong((long) candidate)));
            NDArray order = NDArrays.array(java.util.Arrays.stream(byPosition).mapToLong(Integer::longValue).toArray());
            NDArray values = NDArrays.get(joined[0].ravel(), Index.of(order));
            NDArray orderedPositions = NDArrays.get(positions, Index.of(order));
            long winner = best(values, 0).getLong(0);
            long[] kept = ones(joined[0].ndim());
            return new NDArray[] {values.slice(0, winner, 1, 1).copy().reshape(kept), orderedPositions.slice(0, winner, 1, 1).copy().reshape(kept)};
        }
        int axis = axes[0];
        NDArray winner = best(joined[0], axis);
        return new NDArray[] {takeAlong(joined[0], winner, axis), takeAlong(joined[1], winner, axis)};
    }

    @Override
    public NDArray finish(NDArray[] joined, int[] axes, boolean keepdims) {
        NDArray positions = combine(joined, axes)[1];
        if (keepdims) {
            return positions;
        }
        return flat ? positions.reshape() : positions.squeeze(axes);
    }

    /** The best value, of the input's dtype, and its int64 position. */
    @Override
    public long partialItemBytes(DType input, DType result) {
        return input.byteSize() + Long.BYTES;
    }

    @Override
    public int partialArrays() {
        return 2;
    }

    /** The block copied to lines along the axis (or flattened), the NaN mask of the nan-variants, the positions gathered. */
    @Override
    public double chunkBytesPerElement(DType input, DType result) {
        return input.byteSize() + 3;
    }

    /** The local positions, and the gathered values before their copy. */
    @Override
    public double chunkTimesPartial() {
        return 2;
    }

    /** The winners' positions and values, gathered then copied. */
    @Override
    public double finishTimesPartial() {
        return 2;
    }

    /** The joined values copied to lines, put in position order (flat), the winners gathered. */
    @Override
    public double combineTimesJoined() {
        return 4;
    }

    /** The position of the best value along {@code axis}, kept as a length-1 axis. */
    private NDArray best(NDArray values, int axis) {
        if (skipNan) {
            return largest ? Statistics.nanargmax(values, axis, true) : Statistics.nanargmin(values, axis, true);
        }
        return largest ? Statistics.argmax(values, axis, true) : Statistics.argmin(values, axis, true);
    }

    /** {@code source[..., positions[...], ...]} along {@code axis}, keeping the axis with length 1. */
    static NDArray takeAlong(NDArray source, NDArray positions, int axis) {
        NDArray moved = source.moveAxis(axis, source.ndim() - 1);
        long length = moved.shape(moved.ndim() - 1);
        long rows = moved.size() / Math.max(1, length);
        NDArray table = moved.reshape(rows, length);
        NDArray picks = positions.moveAxis(axis, positions.ndim() - 1).reshape(rows);
        NDArray gathered = NDArrays.get(table, Index.of(NDArrays.arange(rows)), Index.of(picks));
        long[] keptShape = moved.shape();
        keptShape[keptShape.length - 1] = 1;
        return gathered.reshape(keptShape).moveAxis(source.ndim() - 1, axis).copy();
    }

    private static long[] ones(int ndim) {
        long[] shape = new long[ndim];
        java.util.Arrays.fill(shape, 1);
        return shape;
    }

    private static long flatIndex(long local, long[] blockShape, BlockPlace place) {
        long[] within = new long[blockShape.length];
        long remainder = local;
        for (int axis = blockShape.length - 1; axis >= 0; axis--) {
            within[axis] = remainder % blockShape[axis];
            remainder /= blockShape[axis];
        }
        long global = 0;
        for (int axis = 0; axis < blockShape.length; axis++) {
            global = global * place.arrayShape()[axis] + place.start()[axis] + within[axis];
        }
        return global;
    }
}
