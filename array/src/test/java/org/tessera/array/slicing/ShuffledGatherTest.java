package org.tessera.array.slicing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.array.SameValues.assertSameValues;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.tessera.array.Allocation;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.api.ChunkedArrays;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.Key;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.index.Indexing;

/**
 * An integer index that comes back to an input block after leaving it (a shuffled one) gathers in
 * two steps: each input block's distinct points once, then the index's points from those. The
 * values and the output blocks (Dask's: a new block wherever the input block changes) are those of
 * the direct gather, and each input block is read by one task, not by every output block of a run
 * of its points.
 */
class ShuffledGatherTest {
    private static final ChunkSpec BLOCKS = ChunkSpec.of(10, 4);
    private static final long[] SHUFFLED = {37, 2, 55, 2, 14, 59, 0, 33, 21, 48, 5, 37, 38, 9, 50};

    private static NDArray values() {
        return Creation.random(4, Creation.Distribution.UNIFORM, new long[] {60, 8}, BLOCKS).compute();
    }

    /** Dask's take's blocks along the indexed axis: a run of points in one input block is one output block. */
    private static long[] runs(long[] positions, long blockLength) {
        List<Long> lengths = new ArrayList<>();
        long previous = -1;
        for (long position : positions) {
            if (position / blockLength != previous) {
                lengths.add(0L);
                previous = position / blockLength;
            }
            lengths.set(lengths.size() - 1, lengths.getLast() + 1);
        }
        return lengths.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void aShuffledIndexHasTheDirectGathersValuesAndBlocks() {
        NDArray values = values();
        NDArray index = NDArrays.array(SHUFFLED);
        for (ChunkedArray x : List.of(ChunkedArrays.fromArray(values, BLOCKS), Creation.fromSource(RegionSource.of(values), BLOCKS))) {
            ChunkedArray gathered = x.get(Index.of(index));
            assertArrayEquals(runs(SHUFFLED, 10), gathered.chunks().axis(0));
            assertArrayEquals(new long[] {4, 4}, gathered.chunks().axis(1));
            assertSameValues(Indexing.get(values, Index.of(index)), gathered.compute(), "x[idx]");
            // On the second axis, after a stepped slice, and with the points in two dimensions.
            NDArray columns = NDArrays.array(new long[] {7, 0, 6, 1, 7});
            assertSameValues(Indexing.get(values, Index.range(null, null, 2L), Index.of(columns)),
                    x.get(Index.range(null, null, 2L), Index.of(columns)).compute(), "x[::2, idx] along the blocks of 4");
            NDArray square = NDArrays.array(new long[] {37, 2, 55, 2, 14, 59}).reshape(2, 3);
            assertSameValues(Indexing.get(values, Index.of(square)), x.get(Index.of(square)).compute(), "x[idx] with idx of shape (2, 3)");
        }
    }

    @Test
    void eachSourceBlockIsReadByOneTask() {
        NDArray values = values();
        ChunkedArray x = Creation.fromSource(RegionSource.of(values), BLOCKS);
        ChunkedArray gathered = x.get(Index.of(NDArrays.array(SHUFFLED)));
        Map<Key, Set<Key>> dependencies = gathered.graph().materialize().dependencyMap();
        Map<Key, Integer> readers = new java.util.HashMap<>();
        for (Set<Key> reads : dependencies.values()) {
            for (Key read : reads) {
                if (read.name().equals(x.name())) {
                    readers.merge(read, 1, Integer::sum);
                }
            }
        }
        // Points in input blocks 0, 1, 2, 3, 4 and 5 along the first axis, each of two blocks along the second.
        assertEquals(12, readers.size(), "the blocks read: " + readers.keySet());
        readers.forEach((block, count) -> assertEquals(1, count, block + " is read by " + count + " tasks"));
    }

    @Test
    void aSortedIndexIsGatheredDirectly() {
        ChunkedArray x = Creation.fromSource(RegionSource.of(values()), BLOCKS);
        long[] sorted = {0, 2, 2, 5, 14, 21, 33, 37, 37, 48};
        ChunkedArray gathered = x.get(Index.of(NDArrays.array(sorted)));
        assertTrue(gathered.graph().materialize().dependencyMap().keySet().stream().noneMatch(key -> key.name().startsWith("take-picks")),
                "a sorted index reads each block in one output block already");
        assertArrayEquals(runs(sorted, 10), gathered.chunks().axis(0));
    }

    @Test
    void picksOfGeneratedBlocksGoIntoTheGathersAndPicksOfReadBlocksAreTasks() {
        // 4000 x 1000 float64 in blocks of 1000 x 500 (4 MB): picks of a generated block are copied into the gathers
        // that read them, each computing its few rows, so no block is made whole.
        ChunkedArray x = Creation.random(8, Creation.Distribution.UNIFORM, new long[] {4000, 1000}, ChunkSpec.of(1000, 500));
        java.util.Random random = new java.util.Random(3);
        long[] shuffled = random.longs(60, 0, 4000).toArray();
        ChunkedArray gathered = x.get(Index.of(NDArrays.array(shuffled)));
        Allocation run = Allocation.ofSecondCompute(gathered.sum());
        long blockBytes = 1000L * 500 * Double.BYTES;
        assertTrue(run.bytes() < blockBytes, "the gather allocated " + run.megabytes() + " MB; a block is " + (blockBytes >> 10) + " KB");
        double expected = NDArrays.sum(Indexing.get(x.compute(), Index.of(NDArrays.array(shuffled)))).getDouble();
        assertEquals(expected, run.result().getDouble(), Math.abs(expected) * 1e-12);
        assertEquals(0, picks(gathered.sum()), "picks of generated blocks are tasks");
        ChunkedArray source = Creation.fromSource(RegionSource.of(x.compute()), ChunkSpec.of(1000, 500));
        assertEquals(4 * 2, picks(source.get(Index.of(NDArrays.array(shuffled))).sum()), "picks of a source's blocks, one task per block");
    }

    /** The picks that are tasks of their own once the graph is optimised. */
    private static long picks(ChunkedArray array) {
        return array.optimizedGraph().dependencyMap().keySet().stream().filter(key -> key.name().startsWith("take-picks")).count();
    }
}
