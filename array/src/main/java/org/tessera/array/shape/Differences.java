package org.tessera.array.shape;

import org.tessera.array.ChunkedArray;
import org.tessera.array.blockwise.Elementwise;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * NumPy's {@code diff}: {@code x[1:] - x[:-1]} along an axis, {@code n} times. The two ranges are
 * cut at different places, so their chunks are unified (Dask's output chunks: the input blocks
 * split at both sets of boundaries); each output block reads the matching parts of two inputs.
 * Booleans differ by {@code !=}, as NumPy's diff takes them.
 */
public final class Differences {
    private Differences() {
    }

    /** The first difference along the last axis. */
    public static ChunkedArray diff(ChunkedArray x) {
        return diff(x, 1, -1);
    }

    /** The {@code n}-th difference along {@code axis}; n = 0 gives {@code x}. */
    public static ChunkedArray diff(ChunkedArray x, int n, int axis) {
        if (x.ndim() == 0) {
            throw new IllegalArgumentException("diff requires input that is at least one dimensional, got shape ()");
        }
        if (n < 0) {
            throw new IllegalArgumentException("order must be non-negative but got " + n);
        }
        int normalized = AxisOrder.normalize(axis, x.ndim());
        ChunkedArray result = x;
        for (int order = 0; order < n; order++) {
            long length = result.chunks().requireKnownShape("diff")[normalized];
            long shorter = Math.max(length - 1, 0);
            ChunkedArray later = AxisSlices.range(result, normalized, Math.min(1, length), length);
            ChunkedArray earlier = AxisSlices.range(result, normalized, 0, shorter);
            result = Elementwise.apply(result.dtype() == DType.BOOL ? Ufuncs.NOT_EQUAL : Ufuncs.SUBTRACT, later, earlier);
        }
        return result;
    }
}
