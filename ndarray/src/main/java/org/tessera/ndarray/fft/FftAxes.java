package org.tessera.ndarray.fft;

import java.util.Arrays;

/**
 * NumPy's {@code _cook_nd_args}: the axes a multi-axis transform runs along and the length it
 * transforms each to, from the array's shape and the {@code s} and {@code axes} arguments. Shared
 * by the NDArray transforms and the chunked ones, so both refuse and default alike.
 *
 * @param sizes the length of each transformed axis (as given in {@code s}, else the axis' length)
 * @param axes  the transformed axes, as given (negative ones count from the end)
 */
public record FftAxes(long[] sizes, int[] axes) {

    /**
     * The axes and lengths for an array of {@code shape}: all axes when {@code s} and {@code axes}
     * are null, the last {@code s.length} when only {@code s} is given; an {@code s} entry of -1
     * keeps the axis' length. For an inverse real transform without {@code s} the last length is
     * {@code 2 (m - 1)} for an input axis of m, as NumPy's irfftn.
     *
     * @throws IllegalArgumentException when {@code s} and {@code axes} differ in length
     * @throws IndexOutOfBoundsException for an axis outside the shape (NumPy's IndexError)
     */
    public static FftAxes cook(long[] shape, long[] s, int[] axes, boolean inverseReal) {
        int ndim = shape.length;
        long[] sizes;
        int[] transformed;
        if (s == null) {
            transformed = axes == null ? range(0, ndim) : axes.clone();
            sizes = new long[transformed.length];
            for (int i = 0; i < transformed.length; i++) {
                sizes[i] = shape[takeIndex(transformed[i], ndim)];
            }
        } else {
            sizes = s.clone();
            transformed = axes == null ? range(-s.length, 0) : axes.clone();
        }
        if (sizes.length != transformed.length) {
            throw new IllegalArgumentException("Shape and axes have different lengths: s " + Arrays.toString(sizes) + " and axes "
                    + Arrays.toString(transformed) + ".");
        }
        int count = transformed.length;
        if (inverseReal && s == null && count > 0) {
            sizes[count - 1] = (shape[takeIndex(transformed[count - 1], ndim)] - 1) * 2;
        }
        for (int i = 0; i < count; i++) {
            if (sizes[i] == -1) {
                sizes[i] = shape[takeIndex(transformed[i], ndim)];
            }
        }
        return new FftAxes(sizes, transformed);
    }

    /** The number of transformed axes. */
    public int count() {
        return axes.length;
    }

    /**
     * The position of the last transformed axis, which rfftn and irfftn transform as real; NumPy's
     * IndexError when there is none.
     */
    public int requireLast(String function) {
        if (axes.length == 0) {
            throw new IndexOutOfBoundsException("list index out of range: " + function + " needs at least one axis");
        }
        return axes.length - 1;
    }

    /** Python's indexing of a shape tuple by an axis (IndexError outside [-ndim, ndim)). */
    private static int takeIndex(int axis, int ndim) {
        if (axis < -ndim || axis >= ndim) {
            throw new IndexOutOfBoundsException("index " + axis + " is out of bounds for axis 0 with size " + ndim
                    + " (axes of an array of dimension " + ndim + ")");
        }
        return axis < 0 ? axis + ndim : axis;
    }

    private static int[] range(int from, int to) {
        int[] values = new int[Math.max(0, to - from)];
        Arrays.setAll(values, i -> from + i);
        return values;
    }
}
