package org.tessera.array.rechunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.Creation;
import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;

/** The rechunk planner against the answers of Dask's own plan tests, and the memory bound of planned rechunks. */
class RechunkPlanTest {
    private static final long[] COARSE = repeat(20, 2);
    private static final long[] FINE = repeat(2, 20);

    @Test
    void divideToWidthSplitsEachBlockIntoNearEqualParts() {
        assertArrayEquals(new long[] {8, 9, 10}, RechunkPlan.divideToWidth(new long[] {8, 9, 10}, 10));
        // 9 becomes (3, 3, 3), not (4, 4, 1).
        assertArrayEquals(new long[] {4, 4, 2, 3, 3, 3, 3, 3, 4, 3, 4, 4, 4, 4, 4}, RechunkPlan.divideToWidth(new long[] {8, 2, 9, 10, 11, 12}, 4));
    }

    @Test
    void mergeToCountMergesTheNarrowestNeighbours() {
        assertArrayEquals(repeat(10, 4), RechunkPlan.mergeToCount(repeat(10, 4), 5));
        assertArrayEquals(new long[] {20, 10, 10}, RechunkPlan.mergeToCount(repeat(10, 4), 3));
        assertArrayEquals(new long[] {40}, RechunkPlan.mergeToCount(repeat(10, 4), 1));
        assertArrayEquals(new long[] {50, 50}, RechunkPlan.mergeToCount(repeat(10, 10), 2));
        assertArrayEquals(new long[] {40, 30, 30}, RechunkPlan.mergeToCount(repeat(10, 10), 3));
        assertArrayEquals(new long[] {5, 2, 15, 10}, RechunkPlan.mergeToCount(new long[] {5, 1, 1, 15, 10}, 4));
        assertArrayEquals(new long[] {7, 15, 10}, RechunkPlan.mergeToCount(new long[] {5, 1, 1, 15, 10}, 3));
        assertArrayEquals(new long[] {22, 10}, RechunkPlan.mergeToCount(new long[] {5, 1, 1, 15, 10}, 2));
        assertArrayEquals(new long[] {2, 1, 1, 3, 1, 1}, RechunkPlan.mergeToCount(new long[] {1, 1, 1, 1, 3, 1, 1}, 6));
        assertArrayEquals(new long[] {2, 2, 3, 1, 1}, RechunkPlan.mergeToCount(new long[] {1, 1, 1, 1, 3, 1, 1}, 5));
        assertArrayEquals(new long[] {2, 2, 3, 2}, RechunkPlan.mergeToCount(new long[] {1, 1, 1, 1, 3, 1, 1}, 4));
        assertArrayEquals(new long[] {4, 3, 2}, RechunkPlan.mergeToCount(new long[] {1, 1, 1, 1, 3, 1, 1}, 3));
        assertArrayEquals(new long[] {4, 5}, RechunkPlan.mergeToCount(new long[] {1, 1, 1, 1, 3, 1, 1}, 2));
    }

    @Test
    void cheapChangesNeedNoIntermediate() {
        assertEquals(List.of(chunks(FINE)), plan(chunks(COARSE), chunks(FINE), 10_000_000));
        assertEquals(List.of(chunks(FINE, FINE)), plan(chunks(COARSE, COARSE), chunks(FINE, FINE), 10_000_000));
        assertEquals(List.of(chunks(COARSE, COARSE)), plan(chunks(FINE, FINE), chunks(COARSE, COARSE), 10_000_000));
        assertEquals(List.of(chunks(COARSE, COARSE)), plan(chunks(FINE, COARSE), chunks(COARSE, COARSE), 10_000_000));
        assertEquals(List.of(chunks(COARSE, FINE, COARSE, COARSE)),
                plan(chunks(COARSE, COARSE, COARSE, COARSE), chunks(COARSE, FINE, COARSE, COARSE), 10_000_000));
    }

    @Test
    void aTransposingChangeMergesFirst() {
        assertEquals(List.of(chunks(COARSE, COARSE), chunks(COARSE, FINE)), plan(chunks(FINE, COARSE), chunks(COARSE, FINE), 10_000_000));
        long[] coarseTwice = concat(COARSE, COARSE);
        assertEquals(List.of(chunks(coarseTwice, coarseTwice), chunks(concat(FINE, FINE), coarseTwice)),
                plan(chunks(coarseTwice, concat(COARSE, FINE)), chunks(concat(FINE, FINE), coarseTwice), 10_000_000));
        // Just at the limit the merge is whole; one element under it, it is partial.
        assertEquals(List.of(chunks(COARSE, COARSE), chunks(COARSE, FINE)), plan(chunks(FINE, COARSE), chunks(COARSE, FINE), 400));
        assertEquals(List.of(chunks(repeat(10, 4), COARSE), chunks(COARSE, FINE)), plan(chunks(FINE, COARSE), chunks(COARSE, FINE), 399));
    }

    @Test
    void aLargerTransposeMergesAndSplitsInSeveralSteps() {
        long[] coarse = repeat(1000, 2);
        long[] fine = repeat(2, 1000);
        List<Chunks> steps = plan(chunks(fine, coarse), chunks(coarse, fine), 99_999);
        assertEquals(3, steps.size());
        assertEquals(chunks(coarse, fine), steps.getLast());
        for (int step = 0; step + 1 < steps.size(); step++) {
            assertTrue(steps.get(step + 1).blockCount(0) <= steps.get(step).blockCount(0) / 2.0, steps.toString());
            assertTrue(steps.get(step + 1).blockCount(1) >= steps.get(step).blockCount(1) * 2.0, steps.toString());
        }
    }

    @Test
    void fiveAxesAndMixedBlocks() {
        long[] coarse = {10};
        long[] fine = repeat(1, 10);
        assertEquals(List.of(chunks(coarse, coarse, coarse, fine, coarse), chunks(coarse, coarse, coarse, fine, fine)),
                plan(chunks(fine, fine, fine, fine, coarse), chunks(coarse, coarse, coarse, fine, fine), 10_000_000));
        assertEquals(List.of(chunks(coarse, coarse, coarse, fine, coarse), chunks(coarse, coarse, coarse, fine, fine)),
                plan(chunks(coarse, coarse, fine, fine, coarse), chunks(coarse, coarse, coarse, fine, fine), 20_000));
        long[] cc = concat(coarse, coarse);
        long[] cf = concat(coarse, fine);
        long[] ff = concat(fine, fine);
        assertEquals(List.of(chunks(ff, ff)), plan(chunks(cc, cf), chunks(ff, ff), 10_000_000));
        assertEquals(List.of(chunks(cc, cc), chunks(ff, cc)), plan(chunks(cc, cf), chunks(ff, cc), 10_000_000));
        assertEquals(List.of(chunks(cc, ff, cc), chunks(ff, cf, cc)), plan(chunks(cc, ff, cf), chunks(ff, cf, cc), 100));
    }

    @Test
    void aTransposingRechunkNeverBuildsATaskOverTheMemoryLimit() {
        int n = 240;
        long limit = 24_000;
        NDArray values = NDArrays.arange(0, (long) n * n, 1).astype(DType.FLOAT64).reshape(n, n);
        ChunkedArray columns = Creation.fromSource(RegionSource.of(values), ChunkSpec.of(n, 1));
        ChunkedArray rows = columns.rechunk(ChunkSpec.of(1, n), limit);
        assertEquals(Chunks.regular(new long[] {n, n}, new long[] {1, n}), rows.chunks());

        TaskGraph graph = rows.optimizedGraph();
        Map<Key, Object> blocks = new SynchronousScheduler().compute(graph, graph.keys());
        long largest = 0;
        int tasks = 0;
        for (Key key : graph.keys()) {
            long bytes = ((NDArray) blocks.get(key)).byteSize();
            for (Key input : graph.dependencies(key)) {
                bytes += ((NDArray) blocks.get(input)).byteSize();
            }
            assertTrue(bytes <= limit, key + " holds " + bytes + " bytes of input and output blocks, over the limit of " + limit);
            largest = Math.max(largest, bytes);
            tasks++;
        }
        // The direct rechunk would read all 240 columns (460 kB) for each row.
        assertTrue(largest > limit / 4, "largest task " + largest + " bytes");
        assertTrue(tasks < n * n, tasks + " tasks");
        assertEquals(values.toString(), rows.compute(new SynchronousScheduler()).toString());
    }

    @Test
    void randomRechunksKeepTheirValuesAndTheirTasksUnderTheLimit() {
        java.util.Random random = new java.util.Random(20240611);
        int splitTrials = 0;
        int plannedTrials = 0;
        for (int trial = 0; trial < 40; trial++) {
            int ndim = 2 + random.nextInt(2);
            long[] shape = new long[ndim];
            for (int axis = 0; axis < ndim; axis++) {
                shape[axis] = 8 + random.nextInt(ndim == 2 ? 56 : 12);
            }
            boolean transposing = trial % 2 == 0;
            Chunks source = transposing ? fineThenCoarse(random, shape, false) : randomChunks(random, shape);
            Chunks target = transposing ? fineThenCoarse(random, shape, true) : randomChunks(random, shape);
            long limit = 64L << random.nextInt(8);
            NDArray values = NDArrays.arange(0, Arrays.stream(shape).reduce(1, Math::multiplyExact), 1).astype(DType.FLOAT64).reshape(shape);
            ChunkedArray before = Creation.fromSource(RegionSource.of(values), ChunkSpec.explicit(lengths(source)));
            ChunkedArray after = before.rechunk(target, limit);
            String what = "trial " + trial + ": " + source + " -> " + target + " under " + limit + " bytes";
            assertEquals(target, after.chunks(), what);
            long allowed = Math.max(limit, 2 * 8 * Math.max(largestBlock(source), largestBlock(target)));
            TaskGraph graph = after.optimizedGraph();
            Map<Key, Object> blocks = new SynchronousScheduler().compute(graph, graph.keys());
            for (Key key : graph.keys()) {
                long bytes = ((NDArray) blocks.get(key)).byteSize();
                for (Key input : graph.dependencies(key)) {
                    bytes += ((NDArray) blocks.get(input)).byteSize();
                }
                assertTrue(bytes <= allowed, what + ": " + key + " holds " + bytes + " bytes");
            }
            assertEquals(values.toString(), after.compute(new SynchronousScheduler()).toString(), what);
            splitTrials += after.graph().layers().keySet().stream().anyMatch(name -> name.startsWith("rechunk-split")) ? 1 : 0;
            plannedTrials += RechunkPlan.plan(source, target, 8, limit / 2, RechunkPlan.DEFAULT_THRESHOLD).size() > 1 ? 1 : 0;
        }
        // The trials must reach the paths under test: planned intermediate chunkings, and split-then-merge steps.
        assertTrue(splitTrials > 0 && plannedTrials > 0, splitTrials + " trials split, " + plannedTrials + " had intermediate chunkings");
    }

    /** Narrow blocks along the first axis and whole other axes, or (reversed) the other way round. */
    private static Chunks fineThenCoarse(java.util.Random random, long[] shape, boolean reversed) {
        long[][] lengths = new long[shape.length][];
        for (int axis = 0; axis < shape.length; axis++) {
            boolean fine = (axis == 0) != reversed;
            lengths[axis] = fine ? Chunks.regularAxis(shape[axis], 1 + random.nextInt(2)) : new long[] {shape[axis]};
        }
        return Chunks.of(lengths);
    }

    private static Chunks randomChunks(java.util.Random random, long[] shape) {
        long[][] lengths = new long[shape.length][];
        for (int axis = 0; axis < shape.length; axis++) {
            List<Long> blocks = new ArrayList<>();
            long left = shape[axis];
            boolean regular = random.nextBoolean();
            long regularLength = 1 + random.nextInt((int) shape[axis]);
            while (left > 0) {
                long length = Math.min(left, regular ? regularLength : 1 + random.nextInt((int) Math.min(left, 12)));
                blocks.add(length);
                left -= length;
            }
            lengths[axis] = blocks.stream().mapToLong(Long::longValue).toArray();
        }
        return Chunks.of(lengths);
    }

    private static long[][] lengths(Chunks chunks) {
        long[][] lengths = new long[chunks.ndim()][];
        for (int axis = 0; axis < lengths.length; axis++) {
            lengths[axis] = chunks.axis(axis);
        }
        return lengths;
    }

    private static long largestBlock(Chunks chunks) {
        return Arrays.stream(chunks.largestBlock()).reduce(1, Math::multiplyExact);
    }

    @Test
    void aLimitBelowOneBlockIsRaisedToWhatTheBlocksNeed() {
        NDArray values = NDArrays.arange(0, 64 * 64, 1).astype(DType.FLOAT64).reshape(64, 64);
        ChunkedArray columns = Creation.fromSource(RegionSource.of(values), ChunkSpec.of(64, 1));
        ChunkedArray rows = columns.rechunk(ChunkSpec.of(1, 64), 16);
        assertEquals(values.toString(), rows.compute(new SynchronousScheduler()).toString());
    }

    @Test
    void rechunkKeepsAxesAMapLeavesOutAndEmptyArrays() {
        ChunkedArray x = Creation.zeros(new long[] {10, 12}, DType.FLOAT64, ChunkSpec.of(3, 5));
        ChunkedArray y = Rechunk.rechunk(x, ChunkSpec.byAxis(Map.of(-2, ChunkSpec.size(4))));
        assertEquals(Chunks.of(new long[] {4, 4, 2}, new long[] {5, 5, 2}), y.chunks());
        ChunkedArray empty = Creation.zeros(new long[] {0, 0}, DType.FLOAT64, ChunkSpec.of(1, 1));
        assertSame(empty, Rechunk.rechunk(empty, ChunkSpec.of(5, 5)));
    }

    @Test
    void theCommonRefinementHasEveryBoundary() {
        Chunks first = Chunks.of(new long[] {3, 3}, new long[] {4});
        Chunks second = Chunks.of(new long[] {2, 4}, new long[] {1, 3});
        assertEquals(Chunks.of(new long[] {2, 1, 3}, new long[] {1, 3}), Rechunk.commonRefinement(first, second));
        // New block [0, 4) of axis 0 overlaps [0, 3) and [3, 6): 6 rows of 4, plus the 4 x 3 new block.
        assertEquals(6 * 4 + 4 * 3, Rechunk.largestTaskElements(first, Chunks.of(new long[] {4, 2}, new long[] {3, 1})));
    }

    private static List<Chunks> plan(Chunks source, Chunks target, long blockLimitBytes) {
        return RechunkPlan.plan(source, target, 1, blockLimitBytes, RechunkPlan.DEFAULT_THRESHOLD);
    }

    private static Chunks chunks(long[]... axes) {
        return Chunks.of(axes);
    }

    private static long[] repeat(long length, int count) {
        long[] lengths = new long[count];
        Arrays.fill(lengths, length);
        return lengths;
    }

    private static long[] concat(long[] first, long[] second) {
        List<Long> all = new ArrayList<>();
        Arrays.stream(first).forEach(all::add);
        Arrays.stream(second).forEach(all::add);
        return all.stream().mapToLong(Long::longValue).toArray();
    }
}
