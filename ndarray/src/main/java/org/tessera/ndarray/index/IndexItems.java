package org.tessera.ndarray.index;

import java.util.ArrayList;
import java.util.List;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * What every resolver of an index expression does first, in-memory or chunked: boolean scalars
 * rewritten as NumPy treats them, and the count of axes the items consume.
 */
public final class IndexItems {
    private IndexItems() {
    }

    /** Whether {@code item} is a boolean scalar: {@code True}/{@code False}, or a 0-d boolean mask. */
    public static boolean isBooleanScalar(Index item) {
        return item instanceof Index.BoolScalar || item instanceof Index.BoolMask mask && mask.mask().ndim() == 0;
    }

    /**
     * An index expression rewritten without boolean scalars, for the indexed array with a new axis
     * of length 1 inserted at each of {@code newAxes} (in increasing order, each position counting the
     * ones inserted before it, as successive {@code expandDims} calls take them).
     *
     * @param newAxes where the array gets its new axes
     * @param index   the expression over that array: each boolean scalar is an int64 index array
     *                {@code [0]} (true) or {@code []} (false) that selects from its new axis
     */
    public record Rewritten(int[] newAxes, Index[] index) {
        /** The indexed array as the rewritten expression reads it: a view with the new axes. */
        public NDArray expand(NDArray x) {
            NDArray result = x;
            for (int axis : newAxes) {
                result = result.expandDims(axis);
            }
            return result;
        }
    }

    /** Whether any item of the expression is a boolean scalar. */
    public static boolean hasBooleanScalars(Index[] index) {
        for (Index item : index) {
            if (isBooleanScalar(item)) {
                return true;
            }
        }
        return false;
    }

    /**
     * NumPy's reading of a boolean scalar: a 0-d mask, which adds an axis of length 1 to the array
     * and selects from it with an index array of one position (true) or none (false). The index array
     * takes part in advanced indexing as any other does (it broadcasts with the others and counts in
     * the placement rule), and the boolean scalar consumes no axis of {@code x}, so
     * {@code x[True]} has shape {@code (1, *x.shape)} and {@code x[..., False]} {@code (*x.shape, 0)}.
     *
     * @throws IndexOutOfBoundsException when the other items index more axes than {@code ndim}
     */
    public static Rewritten withoutBooleanScalars(int ndim, Index[] index) {
        int consumed = indexedAxes(index);
        if (consumed > ndim) {
            throw new IndexOutOfBoundsException("too many indices for array: array is " + ndim + "-dimensional, but " + consumed + " were indexed");
        }
        List<Integer> newAxes = new ArrayList<>();
        Index[] rewritten = new Index[index.length];
        int axis = 0;
        boolean ellipsisSeen = false;
        for (int position = 0; position < index.length; position++) {
            Index item = index[position];
            rewritten[position] = item;
            switch (item) {
                case Index.At ignored -> axis++;
                case Index.Range ignored -> axis++;
                case Index.IntArray ignored -> axis++;
                case Index.NewAxis ignored -> { }
                case Index.Ellipsis ignored -> {
                    if (!ellipsisSeen) {
                        axis += ndim - consumed;
                    }
                    ellipsisSeen = true;
                }
                case Index.BoolMask mask when mask.mask().ndim() > 0 -> axis += mask.mask().ndim();
                default -> {
                    boolean value = item instanceof Index.BoolScalar bool ? bool.value() : ((Index.BoolMask) item).mask().getBoolean();
                    newAxes.add(axis);
                    rewritten[position] = new Index.IntArray(NDArray.zeros(DType.INT64, value ? 1 : 0));
                    axis++;
                }
            }
        }
        return new Rewritten(newAxes.stream().mapToInt(Integer::intValue).toArray(), rewritten);
    }

    /**
     * How many axes of the indexed array the items of an index expression select from, before its
     * boolean scalars are expanded: a mask takes as many as it has, a boolean scalar none (its index
     * array selects from the new axis it brings).
     */
    public static int indexedAxes(Index[] index) {
        int consumed = 0;
        for (Index item : index) {
            switch (item) {
                case Index.At ignored -> consumed++;
                case Index.Range ignored -> consumed++;
                case Index.IntArray ignored -> consumed++;
                case Index.BoolMask mask -> consumed += mask.mask().ndim();
                default -> { }
            }
        }
        return consumed;
    }

    /** How many ellipses the items hold (NumPy allows one). */
    public static int ellipses(List<Index> items) {
        int count = 0;
        for (Index item : items) {
            count += item instanceof Index.Ellipsis ? 1 : 0;
        }
        return count;
    }
}
