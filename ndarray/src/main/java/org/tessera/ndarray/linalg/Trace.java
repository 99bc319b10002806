package org.tessera.ndarray.linalg;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/** NumPy's {@code trace}: the sum along a diagonal, in the dtype NumPy's {@code sum} would use. */
public final class Trace {
    private Trace() {}

    public static NDArray trace(NDArray a) {
        return trace(a, 0, 0, 1);
    }

    /** Sums diagonal {@code offset} of the (axis1, axis2) planes; the other axes remain, in order. */
    public static NDArray trace(NDArray a, long offset, int axis1, int axis2) {
        return sumLastAxis(a.diagonal(offset, axis1, axis2));
    }

    /** The sum over the last axis as a matrix-vector product with ones; integers widen as NumPy's sum does. */
    static NDArray sumLastAxis(NDArray array) {
        DType dtype = sumType(array.dtype());
        NDArray ones = NDArray.zeros(dtype, array.shape(-1));
        ones.fill(1L);
        return Matmul.matmul(Matmul.cast(array, dtype), ones);
    }

    /** NumPy's sum accumulates bool and narrow signed integers in int64, narrow unsigned ones in uint64. */
    static DType sumType(DType dtype) {
        return switch (dtype.kind()) {
            case BOOL, SIGNED -> DType.INT64;
            case UNSIGNED -> DType.UINT64;
            default -> dtype;
        };
    }
}
