package org.tessera.array.sorting;

import java.util.Arrays;

/**
 * Multi-sequence selection: where the element of a given rank falls in each of several sorted
 * runs, exactly, with ties broken as a stable sort breaks them (the total order is (key, run,
 * position): an element of an earlier run, which came earlier along the axis, sorts first).
 *
 * <p>For rank R the answer is one cut per run, {@code p_i} elements of run i, with
 * {@code sum p_i = R} and every element before a cut sorting before every element after any
 * cut. Each round takes the middle element of every run's open window {@code [lo_i, hi_i)}, picks
 * the weighted median of those (weights: window lengths) as the pivot, counts the elements that
 * sort before it (a binary search per run, inside the windows: every later pivot lies between the
 * pivots before it, so its counts do too), and closes the windows on the side the count puts R.
 * Each round removes at least a quarter of what is open, so there are O(log N) rounds of
 * O(k log(N / k)) key reads.
 */
final class RankSelection {
    private RankSelection() {
    }

    /** The cuts of lane {@code line} of {@code runs} at rank {@code rank} (0 to the lanes' total length). */
    static long[] cuts(SortedRun.Reader[] runs, int line, long rank) {
        int k = runs.length;
        long[] low = new long[k];
        long[] high = new long[k];
        long total = 0;
        for (int i = 0; i < k; i++) {
            high[i] = runs[i].length();
            total += high[i];
        }
        if (rank < 0 || rank > total) {
            throw new IllegalArgumentException("rank " + rank + " is outside [0, " + total + "]");
        }
        if (rank == 0) {
            return low;
        }
        if (rank == total) {
            return high;
        }
        int[] candidates = new int[k];
        long[] candidateKeys = new long[k];
        long[] counts = new long[k];
        Integer[] order = new Integer[k];
        while (true) {
            long open = 0;
            int candidateCount = 0;
            for (int i = 0; i < k; i++) {
                if (high[i] > low[i]) {
                    open += high[i] - low[i];
                    candidates[candidateCount] = i;
                    candidateKeys[i] = runs[i].key(line, middle(low[i], high[i]));
                    candidateCount++;
                }
            }
            if (open == 0) {
                return low;
            }
            for (int c = 0; c < candidateCount; c++) {
                order[c] = candidates[c];
            }
            Arrays.sort(order, 0, candidateCount, (first, second) -> {
                int byKey = Long.compare(candidateKeys[first], candidateKeys[second]);
                return byKey != 0 ? byKey : Integer.compare(first, second);
            });
            int pivotRun = order[candidateCount - 1];
            long cumulative = 0;
            for (int c = 0; c < candidateCount; c++) {
                int run = order[c];
                cumulative += high[run] - low[run];
                if (2 * cumulative >= open) {
                    pivotRun = run;
                    break;
                }
            }
            long pivotPosition = middle(low[pivotRun], high[pivotRun]);
            long pivotKey = candidateKeys[pivotRun];
            long before = 0;
            for (int i = 0; i < k; i++) {
                if (i == pivotRun) {
                    counts[i] = pivotPosition;
                } else {
                    // Earlier runs put their equal keys before the pivot, later runs after it.
                    counts[i] = runs[i].search(line, pivotKey, low[i], high[i], i < pivotRun);
                }
                before += counts[i];
            }
            if (before < rank) {
                // The pivot and everything before it are among the first R.
                System.arraycopy(counts, 0, low, 0, k);
                low[pivotRun] = pivotPosition + 1;
            } else {
                System.arraycopy(counts, 0, high, 0, k);
                high[pivotRun] = pivotPosition;
            }
        }
    }

    private static long middle(long low, long high) {
        return low + (high - low) / 2;
    }

    /**
     * The run holding the element of rank R, given the cuts at R: the smallest first element after
     * a cut (ties: the earliest run); -1 when every run is cut at its end.
     */
    static int runAtRank(SortedRun.Reader[] runs, int line, long[] cuts) {
        int best = -1;
        long bestKey = 0;
        for (int i = 0; i < runs.length; i++) {
            if (cuts[i] < runs[i].length()) {
                long key = runs[i].key(line, cuts[i]);
                if (best < 0 || key < bestKey) {
                    best = i;
                    bestKey = key;
                }
            }
        }
        return best;
    }

    /** The run holding the element of rank R - 1, given the cuts at R: the largest last element before a cut (ties: the latest run). */
    static int runBeforeRank(SortedRun.Reader[] runs, int line, long[] cuts) {
        int best = -1;
        long bestKey = 0;
        for (int i = 0; i < runs.length; i++) {
            if (cuts[i] > 0) {
                long key = runs[i].key(line, cuts[i] - 1);
                if (best < 0 || key >= bestKey) {
                    best = i;
                    bestKey = key;
                }
            }
        }
        return best;
    }
}
