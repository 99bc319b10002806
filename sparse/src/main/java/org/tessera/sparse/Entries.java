package org.tessera.sparse;

import java.lang.foreign.ValueLayout;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.sort.SortKind;
import org.tessera.ndarray.ufunc.Reductions;
import org.tessera.ndarray.ufunc.Ufunc;

/**
 * The arithmetic on stored entries shared by the sparse operations: flat C-order positions and
 * their coordinates, gathers and scatters of value vectors, and grouped reductions. Value vectors
 * are 1-D NDArrays, so every per-value computation is a dense ufunc over them.
 */
final class Entries {
    private Entries() {
    }

    /** The coordinates of flat C-order {@code positions} in {@code shape}, one row per axis. */
    static long[][] unravel(long[] positions, long[] shape) {
        long[][] coordinates = new long[shape.length][positions.length];
        for (int entry = 0; entry < positions.length; entry++) {
            long rest = positions[entry];
            for (int axis = shape.length - 1; axis >= 0; axis--) {
                coordinates[axis][entry] = rest % shape[axis];
                rest /= shape[axis];
            }
        }
        return coordinates;
    }

    /** The flat C-order position of entry {@code entry} of {@code coordinates} in {@code shape}. */
    static long ravel(long[][] coordinates, int entry, long[] shape) {
        long position = 0;
        for (int axis = 0; axis < shape.length; axis++) {
            position = position * shape[axis] + coordinates[axis][entry];
        }
        return position;
    }

    /** The permutation that sorts {@code keys} stably. */
    static long[] stableOrder(long[] keys) {
        if (isSorted(keys)) {
            long[] identity = new long[keys.length];
            for (int index = 0; index < keys.length; index++) {
                identity[index] = index;
            }
            return identity;
        }
        return longs(NDArrays.argsort(NDArrays.array(keys), 0, SortKind.STABLE));
    }

    static boolean isSorted(long[] keys) {
        for (int index = 1; index < keys.length; index++) {
            if (keys[index - 1] > keys[index]) {
                return false;
            }
        }
        return true;
    }

    static long[] permute(long[] values, long[] order) {
        long[] permuted = new long[order.length];
        for (int index = 0; index < order.length; index++) {
            permuted[index] = values[(int) order[index]];
        }
        return permuted;
    }

    /** {@code values[order]} as a new contiguous vector. */
    static NDArray take(NDArray values, long[] order) {
        if (order.length == 0) {
            return NDArray.zeros(values.dtype(), 0);
        }
        return NDArrays.get(values, Index.of(NDArrays.array(order)));
    }

    /** A zero vector of {@code length} with {@code values} written at {@code slots}. */
    static NDArray scatter(NDArray values, long[] slots, int length) {
        NDArray result = NDArray.zeros(values.dtype(), length);
        if (slots.length > 0) {
            NDArrays.set(result, values, Index.of(NDArrays.array(slots)));
        }
        return result;
    }

    /** An int64 vector's elements as a Java array. */
    static long[] longs(NDArray vector) {
        NDArray contiguous = vector.dtype() == DType.INT64 ? vector.ascontiguousarray() : vector.astype(DType.INT64);
        long[] result = new long[(int) contiguous.size()];
        for (int index = 0; index < result.length; index++) {
            result[index] = contiguous.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, contiguous.byteOffset() + (long) index * Long.BYTES);
        }
        return result;
    }

    /** Sorted unique keys and, for each, {@code ufunc} folded over the values of its entries. */
    record Groups(long[] keys, long[] counts, NDArray values) {
    }

    /**
     * The entries grouped by {@code keys} (any order), each group's values folded with
     * {@code ufunc} into {@code dtype}; empty groups do not appear.
     */
    static Groups reduceByKey(Ufunc ufunc, long[] keys, NDArray values, DType dtype) {
        if (keys.length == 0) {
            return new Groups(new long[0], new long[0], NDArray.zeros(dtype, 0));
        }
        long[] order = stableOrder(keys);
        long[] sortedKeys = permute(keys, order);
        NDArray sortedValues = take(values, order);
        int groupCount = 0;
        for (int index = 0; index < sortedKeys.length; index++) {
            if (index == 0 || sortedKeys[index] != sortedKeys[index - 1]) {
                groupCount++;
            }
        }
        long[] starts = new long[groupCount];
        long[] unique = new long[groupCount];
        long[] counts = new long[groupCount];
        int group = -1;
        for (int index = 0; index < sortedKeys.length; index++) {
            if (index == 0 || sortedKeys[index] != sortedKeys[index - 1]) {
                group++;
                starts[group] = index;
                unique[group] = sortedKeys[index];
            }
            counts[group]++;
        }
        NDArray reduced = Reductions.reduceat(ufunc, sortedValues, starts, 0, dtype);
        return new Groups(unique, counts, reduced.dtype() == dtype ? reduced : reduced.astype(dtype));
    }
}
