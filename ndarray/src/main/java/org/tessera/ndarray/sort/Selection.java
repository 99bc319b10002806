package org.tessera.ndarray.sort;

import java.util.Arrays;

/**
 * Quickselect for {@code partition}: puts the element of each kth rank at its sorted position,
 * with nothing that sorts after it before it and nothing that sorts before it after it, in O(n)
 * expected time. Three-way partitioning keeps runs of equal keys (and NaNs) from degrading it; a
 * range that still needs too many rounds is sorted outright, which bounds the worst case at
 * O(n log n) as NumPy's introselect does.
 */
final class Selection {
    private Selection() {}

    /** The permutation that partitions {@code keys} at every position in {@code kth} (already in [0, n)). */
    static int[] partitionOrder(Keys keys, int[] kth) {
        int[] order = StableOrder.identity(keys.length());
        int[] ranks = Arrays.stream(kth).sorted().distinct().toArray();
        int low = 0;
        for (int rank : ranks) {
            select(keys, order, low, order.length - 1, rank);
            low = rank + 1;
        }
        return order;
    }

    private static void select(Keys keys, int[] order, int low, int high, int rank) {
        int roundsLeft = 2 * (32 - Integer.numberOfLeadingZeros(Math.max(1, high - low + 1)));
        while (low < high) {
            if (roundsLeft-- == 0) {
                StableOrder.sortRange(keys, order, low, high + 1);
                return;
            }
            int pivot = medianOfThree(keys, order[low], order[(low + high) >>> 1], order[high]);
            // Invariant: [low, less) < pivot, [less, scan) == pivot, (greater, high] > pivot.
            int less = low, scan = low, greater = high;
            while (scan <= greater) {
                int comparison = keys.compare(order[scan], pivot);
                if (comparison < 0) {
                    swap(order, less++, scan++);
                } else if (comparison > 0) {
                    swap(order, scan, greater--);
                } else {
                    scan++;
                }
            }
            if (rank < less) {
                high = less - 1;
            } else if (rank > greater) {
                low = greater + 1;
            } else {
                return;
            }
        }
    }

    private static int medianOfThree(Keys keys, int first, int second, int third) {
        if (keys.compare(first, second) > 0) {
            int swapped = first;
            first = second;
            second = swapped;
        }
        if (keys.compare(second, third) <= 0) {
            return second;
        }
        return keys.compare(first, third) > 0 ? first : third;
    }

    private static void swap(int[] order, int i, int j) {
        int held = order[i];
        order[i] = order[j];
        order[j] = held;
    }
}
