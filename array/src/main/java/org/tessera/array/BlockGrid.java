package org.tessera.array;

import java.util.function.Consumer;

/** Walks a grid of blocks in C order (the last axis fastest). */
public final class BlockGrid {
    private BlockGrid() {
    }

    /** Calls {@code action} with every block index; the array passed is reused between calls. */
    public static void forEach(int[] counts, Consumer<int[]> action) {
        for (int count : counts) {
            if (count == 0) {
                return;
            }
        }
        int[] index = new int[counts.length];
        while (true) {
            action.accept(index);
            int axis = counts.length - 1;
            while (axis >= 0 && ++index[axis] == counts[axis]) {
                index[axis] = 0;
                axis--;
            }
            if (axis < 0) {
                return;
            }
        }
    }
}
