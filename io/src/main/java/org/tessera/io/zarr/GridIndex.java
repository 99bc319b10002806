package org.tessera.io.zarr;

/** Steps through the positions of a grid in C order, without a callback, so loops may throw. */
final class GridIndex {
    private GridIndex() {
    }

    /** The number of positions; 0 when any count is 0, 1 for a grid of no axes. */
    static long size(int[] counts) {
        long size = 1;
        for (int count : counts) {
            size *= count;
        }
        return size;
    }

    /** Advances {@code index} to the next position; false (and index back at zeros) after the last. */
    static boolean next(int[] index, int[] counts) {
        for (int axis = index.length - 1; axis >= 0; axis--) {
            if (++index[axis] < counts[axis]) {
                return true;
            }
            index[axis] = 0;
        }
        return false;
    }
}
