package org.tessera.ndarray.index;

import org.tessera.ndarray.NDArray;

/**
 * NumPy's {@code x[index]} and {@code x[index] = value}: only basic items (integers, slices,
 * ellipsis, newaxis) give a view; any advanced item (integer array, boolean mask or scalar) gives
 * a copy on get and a scatter on set.
 */
public final class Indexing {
    private Indexing() {}

    public static NDArray get(NDArray x, Index... index) {
        if (!isBasic(index)) {
            return AdvancedIndexing.get(x, index);
        }
        NDArray view = BasicIndexing.get(x, index);
        // An integer for every axis gives NumPy's array scalar, which is a copy, not a 0-d view.
        boolean selectsOneElement = index.length == x.ndim() && java.util.Arrays.stream(index).allMatch(Index.At.class::isInstance);
        return selectsOneElement ? view.copy() : view;
    }

    /** Writes {@code value}, broadcast to the selection and cast as NumPy's setitem casts. */
    public static void set(NDArray x, NDArray value, Index... index) {
        if (isBasic(index)) {
            BasicIndexing.get(x, index).assign(value);
        } else {
            AdvancedIndexing.set(x, value, index);
        }
    }

    private static boolean isBasic(Index[] index) {
        for (Index item : index) {
            if (item instanceof Index.IntArray || item instanceof Index.BoolMask || item instanceof Index.BoolScalar) {
                return false;
            }
        }
        return true;
    }
}
