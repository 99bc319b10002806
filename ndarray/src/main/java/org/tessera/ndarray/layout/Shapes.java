package org.tessera.ndarray.layout;

import org.tessera.ndarray.error.AxisException;
import org.tessera.ndarray.error.ShapeMismatchException;

/** Arithmetic on shapes: sizes, broadcasting, axis normalisation, NumPy-style formatting. */
public final class Shapes {
    private Shapes() {}

    /** Number of elements; fails on negative lengths or a product beyond {@code Long.MAX_VALUE}. */
    public static long size(long[] shape) {
        long size = 1;
        for (long length : shape) {
            if (length < 0) {
                throw new IllegalArgumentException("negative dimensions are not allowed: shape " + format(shape));
            }
            size = Math.multiplyExact(size, length);
        }
        return size;
    }

    /** {@code (2,3)} or {@code (4,)} or {@code ()}, as NumPy prints shapes in its messages. */
    public static String format(long[] shape) {
        StringBuilder text = new StringBuilder("(");
        for (int axis = 0; axis < shape.length; axis++) {
            if (axis > 0) {
                text.append(',');
            }
            text.append(shape[axis]);
        }
        if (shape.length == 1) {
            text.append(',');
        }
        return text.append(')').toString();
    }

    /** The shape all operands broadcast to, by NumPy's rule (align right; 1 stretches). */
    public static long[] broadcast(long[]... shapes) {
        int ndim = 0;
        for (long[] shape : shapes) {
            ndim = Math.max(ndim, shape.length);
        }
        long[] result = new long[ndim];
        java.util.Arrays.fill(result, 1);
        for (long[] shape : shapes) {
            int shift = ndim - shape.length;
            for (int axis = 0; axis < shape.length; axis++) {
                long length = shape[axis];
                long current = result[shift + axis];
                if (length == current || length == 1) {
                    continue;
                }
                if (current == 1) {
                    result[shift + axis] = length;
                } else {
                    throw broadcastFailure(shapes);
                }
            }
        }
        return result;
    }

    private static ShapeMismatchException broadcastFailure(long[][] shapes) {
        StringBuilder message = new StringBuilder(shapes.length == 2
                ? "operands could not be broadcast together with shapes"
                : "shape mismatch: objects cannot be broadcast to a single shape, shapes");
        for (long[] shape : shapes) {
            message.append(' ').append(format(shape));
        }
        return new ShapeMismatchException(message.toString());
    }

    /** Maps {@code axis} in {@code [-ndim, ndim)} onto {@code [0, ndim)}. */
    public static int normalizeAxis(int axis, int ndim) {
        if (axis < -ndim || axis >= ndim) {
            throw new AxisException(axis, ndim);
        }
        return axis < 0 ? axis + ndim : axis;
    }

    /**
     * Replaces a single {@code -1} in {@code requested} by the length that keeps {@code size}
     * elements, and checks that the element counts agree (NumPy's reshape messages).
     */
    public static long[] resolveUnknownLength(long size, long[] requested) {
        long[] shape = requested.clone();
        int unknownAxis = -1;
        long known = 1;
        for (int axis = 0; axis < shape.length; axis++) {
            if (shape[axis] == -1) {
                if (unknownAxis >= 0) {
                    throw new IllegalArgumentException("can only specify one unknown dimension");
                }
                unknownAxis = axis;
            } else if (shape[axis] < 0) {
                throw new IllegalArgumentException("negative dimensions not allowed: shape " + format(requested));
            } else {
                known = Math.multiplyExact(known, shape[axis]);
            }
        }
        if (unknownAxis >= 0) {
            if (known == 0 || size % known != 0) {
                throw new ShapeMismatchException("cannot reshape array of size " + size + " into shape " + format(requested));
            }
            shape[unknownAxis] = size / known;
        } else if (known != size) {
            throw new ShapeMismatchException("cannot reshape array of size " + size + " into shape " + format(requested));
        }
        return shape;
    }
}
