package org.tessera.ndarray.ufunc;

import org.tessera.ndarray.NDArray;

/** The elements of an array in C order as Java arrays, for assertions. */
final class Flat {
    private Flat() {}

    static double[] doubles(NDArray array) {
        NDArray flat = array.copy().reshape(array.size());
        double[] result = new double[(int) array.size()];
        for (int i = 0; i < result.length; i++) {
            result[i] = flat.getDouble(i);
        }
        return result;
    }

    static long[] longs(NDArray array) {
        NDArray flat = array.copy().reshape(array.size());
        long[] result = new long[(int) array.size()];
        for (int i = 0; i < result.length; i++) {
            result[i] = flat.getLong(i);
        }
        return result;
    }
}
