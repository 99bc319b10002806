package org.tessera.array.sorting;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The k-way merge of one output block's pieces: for each lane, the ranges {@code [from_i, to_i)}
 * of every sorted run, merged by a tournament tree on the keys (ties to the earlier run, so the
 * merge is stable) into the lane of the output. File runs are read through a window per run of
 * {@value #WINDOW} elements, so a merge holds its output and k windows, never a whole run.
 */
final class RunMerge {
    /** Elements a file run's window holds. */
    static final int WINDOW = 1 << 14;

    private RunMerge() {
    }

    /** What to write: the values (into {@code values} at {@code valuesOffset}) and/or the positions. */
    record Target(MemorySegment values, long valuesOffset, MemorySegment positions, long positionsOffset) {
    }

    /** Merges lane {@code line} of the runs between the cuts {@code from} and {@code to} into the target lane (contiguous). */
    static void merge(SortedRun.Reader[] runs, int line, long[] from, long[] to, Target target) {
        int k = runs.length;
        Cursor[] cursors = new Cursor[k];
        int live = 0;
        int lastLive = -1;
        for (int i = 0; i < k; i++) {
            cursors[i] = new Cursor(runs[i], line, from[i], to[i], target.positions() != null);
            if (!cursors[i].exhausted) {
                live++;
                lastLive = i;
            }
        }
        int itemSize = runs.length == 0 ? 0 : runs[0].itemSize;
        long out = 0;
        if (live == 1) {
            // One piece: a copy.
            Cursor only = cursors[lastLive];
            while (!only.exhausted) {
                int count = only.available - only.index;
                MemorySegment.copy(only.values, (long) only.index * itemSize, target.values(), target.valuesOffset() + out * itemSize, (long) count * itemSize);
                if (target.positions() != null) {
                    MemorySegment.copy(only.positions, (long) only.index * Long.BYTES, target.positions(), target.positionsOffset() + out * Long.BYTES,
                            (long) count * Long.BYTES);
                }
                out += count;
                only.skip(count);
            }
            return;
        }
        if (live == 0) {
            return;
        }
        int leaves = Integer.highestOneBit(Math.max(1, k - 1)) << 1;
        int[] tree = new int[leaves];
        for (int node = leaves - 1; node >= 1; node--) {
            tree[node] = better(cursors, child(tree, leaves, 2 * node), child(tree, leaves, 2 * node + 1));
        }
        MemorySegment values = target.values();
        MemorySegment positions = target.positions();
        long valuesAt = target.valuesOffset();
        long positionsAt = target.positionsOffset();
        while (true) {
            int winner = tree[1];
            if (winner < 0 || cursors[winner].exhausted) {
                return;
            }
            Cursor cursor = cursors[winner];
            OrderKeys.copy(cursor.values, (long) cursor.index * itemSize, values, valuesAt, itemSize);
            valuesAt += itemSize;
            if (positions != null) {
                positions.set(ValueLayout.JAVA_LONG_UNALIGNED, positionsAt, cursor.positions.get(ValueLayout.JAVA_LONG_UNALIGNED, (long) cursor.index * Long.BYTES));
                positionsAt += Long.BYTES;
            }
            cursor.skip(1);
            for (int node = (winner + leaves) >>> 1; node >= 1; node >>>= 1) {
                tree[node] = better(cursors, child(tree, leaves, 2 * node), child(tree, leaves, 2 * node + 1));
            }
        }
    }

    private static int child(int[] tree, int leaves, int node) {
        return node >= leaves ? node - leaves : tree[node];
    }

    /** The run whose head comes first: a smaller key, or on equal keys the earlier run; -1 for none. */
    private static int better(Cursor[] cursors, int first, int second) {
        boolean firstOut = first < 0 || first >= cursors.length || cursors[first].exhausted;
        boolean secondOut = second < 0 || second >= cursors.length || cursors[second].exhausted;
        if (firstOut) {
            return secondOut ? -1 : second;
        }
        if (secondOut) {
            return first;
        }
        long a = cursors[first].head;
        long b = cursors[second].head;
        if (a != b) {
            return a < b ? first : second;
        }
        return Math.min(first, second);
    }

    /** A read position in one run's piece of a lane, with a window of its values (and positions). */
    private static final class Cursor {
        private final SortedRun.Reader run;
        private final int line;
        private final boolean withPositions;
        private long next;
        private final long end;
        private MemorySegment values;
        private MemorySegment positions;
        private int index;
        private int available;
        private long head;
        private boolean exhausted;
        private MemorySegment valueScratch;
        private ByteBuffer valueBuffer;
        private MemorySegment positionScratch;
        private ByteBuffer positionBuffer;

        Cursor(SortedRun.Reader run, int line, long from, long to, boolean withPositions) {
            this.run = run;
            this.line = line;
            this.next = from;
            this.end = to;
            this.withPositions = withPositions;
            refill();
        }

        void skip(int count) {
            index += count;
            if (index >= available) {
                refill();
            } else {
                head = run.keys.key(values, (long) index * run.itemSize);
            }
        }

        private void refill() {
            if (next >= end) {
                exhausted = true;
                values = null;
                positions = null;
                return;
            }
            int count = (int) Math.min(WINDOW, end - next);
            if (!run.run.inMemory() && valueScratch == null) {
                byte[] bytes = new byte[(int) Math.min(WINDOW, end - next) * run.itemSize];
                valueBuffer = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
                valueScratch = MemorySegment.ofArray(bytes);
                if (withPositions) {
                    byte[] positionBytes = new byte[(int) Math.min(WINDOW, end - next) * Long.BYTES];
                    positionBuffer = ByteBuffer.wrap(positionBytes).order(ByteOrder.nativeOrder());
                    positionScratch = MemorySegment.ofArray(positionBytes);
                }
            }
            values = run.values(line, next, count, valueScratch, valueBuffer);
            if (withPositions) {
                positions = run.positions(line, next, count, positionScratch, positionBuffer);
            }
            next += count;
            index = 0;
            available = count;
            head = run.keys.key(values, 0);
        }
    }
}
