package org.tessera.io.zarr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.io.InstrumentedStore;
import org.tessera.io.StoreOptions;
import org.tessera.io.store.MemoryStore;

/**
 * One computation reads each stored chunk once where two layers need it. (Where two blocks of one
 * layer need it, as in {@code y + y.T}, each reading task reads it for itself, as Dask's fusion
 * does: holding the chunks until both readers ran would hold about half of y.)
 */
class ChunkReadsOnceTest {
    private static final long SIDE = 600;
    private static final long CHUNK = 150;

    private static Map<String, Integer> chunkReads(InstrumentedStore store) {
        Map<String, Integer> counts = new TreeMap<>();
        store.reads().forEach((key, count) -> {
            if (!key.startsWith(".")) {
                counts.put(key, count);
            }
        });
        return counts;
    }

    private static InstrumentedStore stored(ChunkedArray values) throws IOException {
        InstrumentedStore store = new InstrumentedStore(new MemoryStore());
        Zarr.toZarr(values, store, "", ArrayMetadataV2.of(values.shape(), new long[] {CHUNK, CHUNK}, values.dtype()), StoreOptions.defaults());
        store.resetCounts();
        return store;
    }

    @Test
    void aMeanAndAStandardDeviationTogetherReadEachChunkOnce() throws IOException {
        ChunkedArray values = Creation.random(9, Creation.Distribution.NORMAL, new long[] {SIDE, SIDE}, ChunkSpec.of(CHUNK, CHUNK));
        InstrumentedStore store = stored(values);
        ChunkedArray y = Zarr.fromZarr(ZarrArray.open(store, ""));
        ChunkedArray.computeAll(ChunkedArray.defaultScheduler(), java.util.List.of(y.mean(0), y.std(0, 0)));
        Map<String, Integer> reads = chunkReads(store);
        assertEquals(16, reads.size(), reads.toString());
        assertTrue(reads.values().stream().allMatch(count -> count == 1), "each chunk read once: " + reads);
    }
}
