package org.tessera.array.shape;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.tessera.array.ChunkedArray;
import org.tessera.array.reshape.Transpose;
import org.tessera.ndarray.error.AxisException;

/**
 * NumPy's {@code moveaxis} and {@code swapaxes} on chunked arrays: both are axis permutations, so
 * the chunks move with their axes and every block is a transposed view (see {@link Transpose}).
 */
public final class AxisOrder {
    private AxisOrder() {
    }

    /** Axis {@code source} moved to position {@code destination}, the others keeping their order. */
    public static ChunkedArray moveaxis(ChunkedArray x, int source, int destination) {
        return moveaxis(x, new int[] {source}, new int[] {destination});
    }

    /** Each axis {@code sources[k]} moved to position {@code destinations[k]}, the others keeping their order. */
    public static ChunkedArray moveaxis(ChunkedArray x, int[] sources, int[] destinations) {
        int ndim = x.ndim();
        if (sources.length != destinations.length) {
            throw new IllegalArgumentException("moveaxis: `source` " + Arrays.toString(sources) + " and `destination` " + Arrays.toString(destinations)
                    + " arguments must have the same number of elements");
        }
        int[] from = normalizeDistinct(sources, ndim, "source");
        int[] to = normalizeDistinct(destinations, ndim, "destination");
        List<Integer> order = new ArrayList<>();
        for (int axis = 0; axis < ndim; axis++) {
            int candidate = axis;
            if (Arrays.stream(from).noneMatch(moved -> moved == candidate)) {
                order.add(axis);
            }
        }
        // Inserting by increasing destination puts every moved axis exactly where it was asked to go.
        Integer[] byDestination = new Integer[from.length];
        Arrays.setAll(byDestination, position -> position);
        Arrays.sort(byDestination, (left, right) -> Integer.compare(to[left], to[right]));
        for (int position : byDestination) {
            order.add(to[position], from[position]);
        }
        return Transpose.transpose(x, order.stream().mapToInt(Integer::intValue).toArray());
    }

    /** Axes {@code first} and {@code second} exchanged. */
    public static ChunkedArray swapaxes(ChunkedArray x, int first, int second) {
        int ndim = x.ndim();
        int a = normalize(first, ndim);
        int b = normalize(second, ndim);
        int[] order = new int[ndim];
        Arrays.setAll(order, axis -> axis);
        order[a] = b;
        order[b] = a;
        return Transpose.transpose(x, order);
    }

    static int normalize(int axis, int ndim) {
        int normalized = axis < 0 ? axis + ndim : axis;
        if (normalized < 0 || normalized >= ndim) {
            throw new AxisException(axis, ndim);
        }
        return normalized;
    }

    private static int[] normalizeDistinct(int[] axes, int ndim, String role) {
        int[] normalized = new int[axes.length];
        boolean[] seen = new boolean[ndim];
        for (int position = 0; position < axes.length; position++) {
            normalized[position] = normalize(axes[position], ndim);
            if (seen[normalized[position]]) {
                throw new IllegalArgumentException("moveaxis: repeated axis in `" + role + "` argument " + Arrays.toString(axes));
            }
            seen[normalized[position]] = true;
        }
        return normalized;
    }
}
