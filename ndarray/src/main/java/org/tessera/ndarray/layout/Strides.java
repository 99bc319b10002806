package org.tessera.ndarray.layout;

/**
 * Arithmetic on byte strides: contiguous strides for an order, the contiguity tests NumPy uses for
 * its flags, and whether a reshape can be expressed as a view.
 */
public final class Strides {
    private Strides() {}

    /** Byte strides of a contiguous array of {@code shape} in {@code order}. */
    public static long[] contiguous(long[] shape, long itemSize, Order order) {
        long[] strides = new long[shape.length];
        long stride = itemSize;
        if (order == Order.C) {
            for (int axis = shape.length - 1; axis >= 0; axis--) {
                strides[axis] = stride;
                stride *= Math.max(shape[axis], 1);
            }
        } else {
            for (int axis = 0; axis < shape.length; axis++) {
                strides[axis] = stride;
                stride *= Math.max(shape[axis], 1);
            }
        }
        return strides;
    }

    /**
     * NumPy's C-contiguity: strides equal the packed row-major strides, ignoring axes of length 1;
     * an empty array is contiguous.
     */
    public static boolean isCContiguous(long[] shape, long[] strides, long itemSize) {
        long expected = itemSize;
        for (int axis = shape.length - 1; axis >= 0; axis--) {
            if (shape[axis] == 0) {
                return true;
            }
            if (shape[axis] != 1) {
                if (strides[axis] != expected) {
                    return isEmpty(shape);
                }
                expected *= shape[axis];
            }
        }
        return true;
    }

    /** NumPy's F-contiguity, as {@link #isCContiguous} with the axes reversed. */
    public static boolean isFContiguous(long[] shape, long[] strides, long itemSize) {
        long expected = itemSize;
        for (int axis = 0; axis < shape.length; axis++) {
            if (shape[axis] == 0) {
                return true;
            }
            if (shape[axis] != 1) {
                if (strides[axis] != expected) {
                    return isEmpty(shape);
                }
                expected *= shape[axis];
            }
        }
        return true;
    }

    private static boolean isEmpty(long[] shape) {
        for (long length : shape) {
            if (length == 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The strides that show an array of {@code oldShape}/{@code oldStrides} as {@code newShape}
     * without copying, reading elements in {@code order}; {@code null} when only a copy can do it.
     * Works axis group by axis group: each run of old axes whose product equals a run of new axes
     * must be contiguous in {@code order}, and the new strides are derived inside the run.
     */
    public static long[] reshapeView(long[] oldShape, long[] oldStrides, long[] newShape, long itemSize, Order order) {
        // Axes of length 1 carry no layout information: drop them from the old array.
        int oldCount = 0;
        long[] shape = new long[oldShape.length];
        long[] strides = new long[oldShape.length];
        for (int axis = 0; axis < oldShape.length; axis++) {
            if (oldShape[axis] == 0) {
                return contiguous(newShape, itemSize, order);
            }
            if (oldShape[axis] != 1) {
                shape[oldCount] = oldShape[axis];
                strides[oldCount] = oldStrides[axis];
                oldCount++;
            }
        }
        long[] result = new long[newShape.length];
        int oldStart = 0;
        int newStart = 0;
        while (oldStart < oldCount && newStart < newShape.length) {
            int oldEnd = oldStart + 1;
            int newEnd = newStart + 1;
            long oldProduct = shape[oldStart];
            long newProduct = newShape[newStart];
            while (oldProduct != newProduct) {
                if (oldProduct < newProduct) {
                    oldProduct *= shape[oldEnd++];
                } else {
                    newProduct *= newShape[newEnd++];
                }
            }
            for (int axis = oldStart; axis < oldEnd - 1; axis++) {
                boolean contiguousHere = order == Order.C
                        ? strides[axis] == shape[axis + 1] * strides[axis + 1]
                        : strides[axis + 1] == shape[axis] * strides[axis];
                if (!contiguousHere) {
                    return null;
                }
            }
            if (order == Order.C) {
                result[newEnd - 1] = strides[oldEnd - 1];
                for (int axis = newEnd - 1; axis > newStart; axis--) {
                    result[axis - 1] = result[axis] * newShape[axis];
                }
            } else {
                result[newStart] = strides[oldStart];
                for (int axis = newStart + 1; axis < newEnd; axis++) {
                    result[axis] = result[axis - 1] * newShape[axis - 1];
                }
            }
            oldStart = oldEnd;
            newStart = newEnd;
        }
        // Trailing new axes of length 1: any stride will do, since they are never stepped along.
        for (int axis = newStart; axis < newShape.length; axis++) {
            result[axis] = itemSize;
        }
        return result;
    }
}
