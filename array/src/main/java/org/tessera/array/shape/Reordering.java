package org.tessera.array.shape;

import java.util.Arrays;
import java.util.List;

import org.tessera.array.ChunkedArray;
import org.tessera.array.join.ChunkedJoining;
import org.tessera.array.reshape.Reshape;

/**
 * NumPy's {@code flip} and {@code roll} with Dask's chunks. A flip reverses the order of the
 * blocks along the axis and views each block backwards; a roll by {@code shift} is the
 * concatenation of the two ranges {@code [n - shift, n)} and {@code [0, n - shift)}, so the blocks
 * are cut once, at the seam.
 */
public final class Reordering {
    private Reordering() {
    }

    /** The elements in reverse order along every axis. */
    public static ChunkedArray flip(ChunkedArray x) {
        int[] all = new int[x.ndim()];
        Arrays.setAll(all, axis -> axis);
        return flip(x, all);
    }

    /** The elements in reverse order along the given axes (negative count from the end). */
    public static ChunkedArray flip(ChunkedArray x, int... axes) {
        ChunkedArray result = x;
        for (int axis : distinct(axes, x.ndim(), "flip")) {
            result = AxisSlices.range(result, axis, 0, result.shape(axis), true);
        }
        return result;
    }

    /** The flattened elements rolled by {@code shift} (positive moves them towards the end), in the original shape. */
    public static ChunkedArray roll(ChunkedArray x, long shift) {
        long[] shape = x.chunks().requireKnownShape("roll");
        return Reshape.reshape(roll(Reshape.ravel(x), new long[] {shift}, new int[] {0}), shape);
    }

    /** The elements rolled by {@code shift} along {@code axis}. */
    public static ChunkedArray roll(ChunkedArray x, long shift, int axis) {
        return roll(x, new long[] {shift}, new int[] {axis});
    }

    /**
     * The elements rolled by {@code shifts[k]} along {@code axes[k]}; one shift or one axis applies
     * to all of the other (NumPy broadcasts them), and shifts on a repeated axis add up.
     */
    public static ChunkedArray roll(ChunkedArray x, long[] shifts, int[] axes) {
        int count = Math.max(shifts.length, axes.length);
        if ((shifts.length != count && shifts.length != 1) || (axes.length != count && axes.length != 1)) {
            throw new IllegalArgumentException("roll: shifts " + Arrays.toString(shifts) + " and axes " + Arrays.toString(axes)
                    + " should be of the same length (or one of them of length 1)");
        }
        long[] total = new long[x.ndim()];
        for (int position = 0; position < count; position++) {
            int axis = AxisOrder.normalize(axes[axes.length == 1 ? 0 : position], x.ndim());
            total[axis] += shifts[shifts.length == 1 ? 0 : position];
        }
        ChunkedArray result = x;
        for (int axis = 0; axis < x.ndim(); axis++) {
            long length = result.shape(axis);
            if (length == 0) {
                continue;
            }
            long seam = Math.floorMod(-total[axis], length);
            if (seam != 0) {
                result = ChunkedJoining.concatenate(List.of(AxisSlices.range(result, axis, seam, length), AxisSlices.range(result, axis, 0, seam)), axis);
            }
        }
        return result;
    }

    static int[] distinct(int[] axes, int ndim, String operation) {
        boolean[] seen = new boolean[ndim];
        int[] normalized = new int[axes.length];
        for (int position = 0; position < axes.length; position++) {
            normalized[position] = AxisOrder.normalize(axes[position], ndim);
            if (seen[normalized[position]]) {
                throw new IllegalArgumentException(operation + ": repeated axis " + axes[position] + " in " + Arrays.toString(axes));
            }
            seen[normalized[position]] = true;
        }
        return normalized;
    }
}
