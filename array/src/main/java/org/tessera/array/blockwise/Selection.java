package org.tessera.array.blockwise;

import org.tessera.array.ChunkedArray;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * Elementwise choices between operands, NumPy's {@code where} and {@code clip}, over chunked
 * arrays. Operands are ChunkedArrays, NDArrays or Java scalars, broadcast and chunk-unified as in
 * {@link Elementwise}.
 */
public final class Selection {
    private Selection() {
    }

    /** {@code where(condition, x, y)}: x where the condition is true, else y; the condition is taken as bool. */
    public static ChunkedArray where(Object condition, Object x, Object y) {
        return Elementwise.apply(Ufuncs.WHERE, truth(condition), x, y);
    }

    /**
     * {@code clip(x, min, max)}; one bound may be null, as NumPy's None, and then only the other
     * one limits (the same as minimum or maximum, which is how NumPy treats it).
     */
    public static ChunkedArray clip(ChunkedArray x, Object min, Object max) {
        if (min == null && max == null) {
            throw new IllegalArgumentException("clip: one of min or max must be given (both are null) for array of shape "
                    + ChunkedArrayText.shape(x) + " and dtype " + x.dtype().numpyName());
        }
        if (min == null) {
            return Elementwise.apply(Ufuncs.MINIMUM, x, max);
        }
        if (max == null) {
            return Elementwise.apply(Ufuncs.MAXIMUM, x, min);
        }
        return Elementwise.apply(Ufuncs.CLIP, x, min, max);
    }

    /** The where ufunc's loops take a bool condition, and NumPy reads any other dtype by truth value. */
    private static Object truth(Object condition) {
        return switch (condition) {
            case ChunkedArray array -> Cast.astype(array, DType.BOOL);
            case NDArray array when array.dtype() != DType.BOOL -> array.astype(DType.BOOL);
            // A weak Java scalar would be promoted with x and y and miss the bool loop, so a scalar
            // condition becomes a 0-d bool array. NaN is true, as bool(nan) in Python.
            case Boolean truth -> NDArray.scalar(truth);
            case Number number -> NDArray.scalar(number.doubleValue() != 0);
            case null -> throw new IllegalArgumentException("where: the condition is null");
            default -> condition;
        };
    }
}
