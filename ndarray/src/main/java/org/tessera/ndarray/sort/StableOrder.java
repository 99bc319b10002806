package org.tessera.ndarray.sort;

/** A stable merge sort of indices: the permutation that sorts {@link Keys}, ties kept in index order. */
final class StableOrder {
    private StableOrder() {}

    /** Runs shorter than this are insertion-sorted: fewer moves than merging for tiny runs. */
    private static final int INSERTION_RUN = 16;

    static int[] of(Keys keys) {
        int[] order = identity(keys.length());
        sortRange(keys, order, 0, order.length);
        return order;
    }

    static int[] identity(int length) {
        int[] order = new int[length];
        for (int i = 0; i < length; i++) {
            order[i] = i;
        }
        return order;
    }

    /** Sorts positions [from, to) of {@code order} by the keys they index, stably. */
    static void sortRange(Keys keys, int[] order, int from, int to) {
        for (int start = from; start < to; start += INSERTION_RUN) {
            insertionSort(keys, order, start, Math.min(to, start + INSERTION_RUN));
        }
        int[] buffer = new int[order.length];
        for (int width = INSERTION_RUN; width < to - from; width *= 2) {
            for (int start = from; start < to - width; start += 2 * width) {
                merge(keys, order, buffer, start, start + width, Math.min(to, start + 2 * width));
            }
        }
    }

    private static void insertionSort(Keys keys, int[] order, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            int moving = order[i];
            int position = i;
            while (position > from && keys.compare(order[position - 1], moving) > 0) {
                order[position] = order[position - 1];
                position--;
            }
            order[position] = moving;
        }
    }

    /** Merges the sorted runs [from, middle) and [middle, to); left wins ties, which keeps it stable. */
    private static void merge(Keys keys, int[] order, int[] buffer, int from, int middle, int to) {
        if (keys.compare(order[middle - 1], order[middle]) <= 0) {
            return;
        }
        System.arraycopy(order, from, buffer, from, to - from);
        int left = from, right = middle, target = from;
        while (left < middle && right < to) {
            order[target++] = keys.compare(buffer[right], buffer[left]) < 0 ? buffer[right++] : buffer[left++];
        }
        while (left < middle) {
            order[target++] = buffer[left++];
        }
        while (right < to) {
            order[target++] = buffer[right++];
        }
    }
}
