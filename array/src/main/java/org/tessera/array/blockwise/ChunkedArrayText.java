package org.tessera.array.blockwise;

import org.tessera.array.ChunkedArray;

/** How error messages write an array's shape. */
final class ChunkedArrayText {
    private ChunkedArrayText() {
    }

    static String shape(ChunkedArray array) {
        return java.util.Arrays.toString(array.shape());
    }
}
