package org.tessera.ndarray.linalg;

import java.util.Arrays;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.layout.Shapes;

/** Lists of axes and the lengths they select, as contractions need them. */
final class AxisLists {
    private AxisLists() {}

    /** Axes in [0, ndim); fails on an axis out of range or named twice. */
    static int[] normalize(int[] axes, int ndim) {
        int[] normalized = new int[axes.length];
        for (int i = 0; i < axes.length; i++) {
            normalized[i] = Shapes.normalizeAxis(axes[i], ndim);
            for (int j = 0; j < i; j++) {
                if (normalized[j] == normalized[i]) {
                    throw new IllegalArgumentException("repeated axis " + axes[i] + " in " + Arrays.toString(axes));
                }
            }
        }
        return normalized;
    }

    /** The axes of [0, ndim) not in {@code axes}, in order. */
    static int[] complement(int[] axes, int ndim) {
        int[] rest = new int[ndim - axes.length];
        int count = 0;
        for (int axis = 0; axis < ndim; axis++) {
            final int candidate = axis;
            if (Arrays.stream(axes).noneMatch(used -> used == candidate)) {
                rest[count++] = axis;
            }
        }
        return rest;
    }

    static int[] concat(int[] first, int[] second) {
        int[] joined = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, joined, first.length, second.length);
        return joined;
    }

    static long[] concat(long[] first, long[] second) {
        long[] joined = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, joined, first.length, second.length);
        return joined;
    }

    /** The lengths of {@code array} along {@code axes}. */
    static long[] lengthsOf(NDArray array, int[] axes) {
        long[] shape = new long[axes.length];
        for (int i = 0; i < axes.length; i++) {
            shape[i] = array.shape(axes[i]);
        }
        return shape;
    }

    /** The number of elements {@code axes} of {@code array} span together. */
    static long product(NDArray array, int[] axes) {
        long product = 1;
        for (int axis : axes) {
            product *= array.shape(axis);
        }
        return product;
    }
}
