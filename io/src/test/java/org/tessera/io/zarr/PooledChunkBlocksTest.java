package org.tessera.io.zarr;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.overlap.Boundary;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.io.StoreOptions;
import org.tessera.io.TestArrays;
import org.tessera.io.codec.Blosc;
import org.tessera.io.store.MemoryStore;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.filter.EdgeMode;
import org.tessera.ndarray.filter.UniformFilter;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.memory.BlockPool;

/**
 * Chunks decoded from a store into pooled blocks, which the threaded scheduler gives back and the
 * next decode reuses: every computation gives what the synchronous scheduler, which gives nothing
 * back, gives for the same graph, bit for bit, though its blocks' memory is reused while it runs and
 * some of its results (slices, transposes) are views of decoded blocks.
 */
class PooledChunkBlocksTest {
    /** 2048 x 2048 float64 in 512 x 512 chunks: 2 MB a chunk, blocks the pool keeps. */
    private static final long SIDE = 2048;
    private static final long CHUNK = 512;

    private static void assertSameReusingBlocks(ChunkedArray stored, UnaryOperator<ChunkedArray> operation, String what) {
        ChunkedArray result = operation.apply(stored);
        TestArrays.assertSameArray(result.compute(new SynchronousScheduler()), result.compute(ThreadedScheduler.builder().workers(2).build()), what);
    }

    @Test
    void storedChunksInReusedBlocksGiveWhatNoReuseGives() throws IOException {
        ChunkedArray values = Creation.random(21, Creation.Distribution.UNIFORM, new long[] {SIDE, SIDE}, ChunkSpec.of(CHUNK, CHUNK));
        MemoryStore store = new MemoryStore();
        Zarr.toZarr(values, store, "", ArrayMetadataV2.of(values.shape(), new long[] {CHUNK, CHUNK}, values.dtype()), StoreOptions.defaults());
        ChunkedArray y = Zarr.fromZarr(ZarrArray.open(store, ""));
        long reusesBefore = BlockPool.reuses();
        assertSameReusingBlocks(y, x -> x.mapOverlap(block -> UniformFilter.apply(block, 3, EdgeMode.REFLECT), 1, Boundary.REFLECT).sum(),
                "3 x 3 mean filter, then the sum");
        assertSameReusingBlocks(y, x -> x.add(x.T()).mean(0), "(y + y.T).mean(0)");
        assertSameReusingBlocks(y, x -> x.get(Index.range(null, null, 3L), Index.range(100L, -100L, null)), "y[::3, 100:-100], views of blocks");
        assertSameReusingBlocks(y, ChunkedArray::T, "y.T, views of blocks");
        assertSameReusingBlocks(y, x -> x.get(Index.range(null, null, 2L), Index.range(null, null, -2L)).add(1.0).cumsum(0), "a view's cumulative sum");
        assertSameReusingBlocks(y, x -> x.rechunk(ChunkSpec.of(128, SIDE)), "rows of 128");
        NDArray picks = NDArrays.array(new long[] {5, 600, 3, 2, 200, 401, 650, 17, 5});
        assertSameReusingBlocks(y, x -> x.get(Index.range(null, null, 3L), Index.range(100L, -100L, null)).get(Index.of(picks)),
                "rows picked from a stored slice, each chunk's rows read in one pass");
        if (Blosc.defaults().decodesInto()) {
            assertTrue(BlockPool.reuses() > reusesBefore, "decoded blocks were given back and taken again");
        }
        TestArrays.assertSameArray(values.compute(), y.compute(), "the stored values");
    }
}
