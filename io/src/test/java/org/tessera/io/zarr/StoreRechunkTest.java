package org.tessera.io.zarr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.io.TestArrays.assertSameArray;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.io.InstrumentedStore;
import org.tessera.io.StoreOptions;
import org.tessera.io.StoreReport;
import org.tessera.io.store.MemoryStore;

/** Store-to-store rechunks within a memory budget a task, through an intermediate store where chunks cross. */
class StoreRechunkTest {
    /** How often each chunk key (not metadata) under {@code path} was read. */
    private static Map<String, Integer> chunkReads(InstrumentedStore store, String path) {
        Map<String, Integer> counts = new TreeMap<>();
        store.reads().forEach((key, count) -> {
            if (key.startsWith(path + "/") && !key.substring(path.length() + 1).startsWith(".")) {
                counts.put(key, count);
            }
        });
        return counts;
    }

    private static final long SIDE = 480;

    private static ZarrArray columnStrips(InstrumentedStore store, ChunkedArray values) throws IOException {
        ZarrArray source = ZarrArray.create(store, "columns", ArrayMetadataV2.of(new long[] {SIDE, SIDE}, new long[] {SIDE, 8}, values.dtype()));
        Zarr.store(values, source);
        return source;
    }

    @Test
    void columnStripsBecomeRowStripsThroughAnIntermediateStoreWithinTheBudget() throws IOException {
        ChunkedArray values = Creation.random(4, Creation.Distribution.UNIFORM, new long[] {SIDE, SIDE}, ChunkSpec.of(SIDE, 8));
        InstrumentedStore store = new InstrumentedStore(new MemoryStore());
        InstrumentedStore scratch = new InstrumentedStore(new MemoryStore());
        ZarrArray source = columnStrips(store, values);
        // A whole column strip or row strip is 30 kB and the array 1.8 MB; a block that holds whole strips of both kinds is the array.
        long budget = 400_000;
        StoreRechunk.Plan plan = StoreRechunk.plan(source.shape(), source.chunkShape(), new long[] {8, SIDE}, 8, budget);
        assertTrue(plan.needsIntermediate(), plan.toString());
        assertTrue(plan.taskBytes() <= budget, plan.toString());
        assertTrue(plan.readBlocks()[1] > 8 && plan.writeBlocks()[0] > 8, "blocks grow towards the other side's chunks: " + plan);

        ThreadedScheduler scheduler = ThreadedScheduler.builder().workers(2).build();
        StoreReport report = StoreRechunk.rechunk(source, store, "rows", ArrayMetadataV2.of(source.shape(), new long[] {8, SIDE}, source.dtype()),
                budget, scratch, StoreOptions.defaults().withScheduler(scheduler));
        ZarrArray rows = ZarrArray.open(store, "rows");
        assertArrayEquals(new long[] {8, SIDE}, rows.chunkShape());
        assertSameArray(values.compute(), rows.readAll(), "rechunked values");
        assertEquals(SIDE / 8, report.chunksWritten());

        Map<String, Integer> sourceReads = chunkReads(store, "columns");
        assertEquals(SIDE / 8, sourceReads.size());
        assertTrue(sourceReads.values().stream().allMatch(count -> count == 1), "each source chunk read once: " + sourceReads);
        Map<String, Integer> intermediateReads = chunkReads(scratch, "rows");
        assertFalse(intermediateReads.isEmpty());
        assertTrue(intermediateReads.values().stream().allMatch(count -> count == 1), "each intermediate chunk read once: " + intermediateReads);
        assertTrue(scratch.list("rows").isEmpty(), "the intermediate array is deleted: " + scratch.list(""));
        // The blocks held between reading and writing: no more than one per worker, each within the budget.
        assertTrue(report.statistics().peakResultBytes() <= 2 * plan.taskBytes(), report.statistics() + " against " + plan);
    }

    /**
     * A rechunk to row bands stored into new chunks (R7's shape, small): each new block takes rows
     * of four stored chunks, decoded straight into it, and the computation measures within the
     * plan made before it ran (with a slab of each stored chunk between, R7 measured 1.5 times
     * its plan), raw chunks and Blosc's alike.
     */
    @Test
    void rowsOfStoredChunksGoStraightIntoEachNewBlockWithinThePlan() throws IOException {
        ChunkedArray values = Creation.random(6, Creation.Distribution.UNIFORM, new long[] {800, 800}, ChunkSpec.of(200, 200));
        java.util.List<ArrayMetadataV2> kinds = new java.util.ArrayList<>(java.util.List.of(
                ArrayMetadataV2.of(values.shape(), new long[] {200, 200}, values.dtype()).withCompressor(null)));
        if (org.tessera.io.codec.Blosc.defaults().decodesRanges()) {
            kinds.add(ArrayMetadataV2.of(values.shape(), new long[] {200, 200}, values.dtype()));
        }
        for (ArrayMetadataV2 kind : kinds) {
            MemoryStore store = new MemoryStore();
            Zarr.toZarr(values, store, "square", kind, StoreOptions.defaults());
            // Under a limit that four stored chunks and a band exceed, so each band's task reads its rows of the chunks itself.
            ChunkedArray bands = Zarr.fromZarr(ZarrArray.open(store, "square"))
                    .rechunk(org.tessera.array.chunks.Chunks.regular(values.shape(), new long[] {50, 800}), 1_000_000);
            assertEquals(java.util.Set.of(bands.name()), bands.graph().layers().keySet().stream().filter(name -> name.startsWith("rechunk")).collect(
                    java.util.stream.Collectors.toSet()), "one rechunk step: " + bands.graph().layers().keySet());
            java.util.List<Long> projected = new java.util.ArrayList<>();
            StoreReport report;
            try (AutoCloseable planning = org.tessera.array.plan.PlanObservers.observe(plan -> projected.add(plan.projectedPeakBytes()))) {
                report = Zarr.toZarr(bands, store, "bands", ArrayMetadataV2.of(values.shape(), new long[] {50, 800}, values.dtype()),
                        StoreOptions.defaults().withScheduler(ThreadedScheduler.builder().workers(1).build()));
            } catch (Exception failure) {
                throw new AssertionError(failure);
            }
            assertSameArray(values.compute(), ZarrArray.open(store, "bands").readAll(), "the bands, " + kind.compressor());
            assertEquals(1, projected.size(), projected.toString());
            long measured = report.statistics().measuredPeakBytes();
            assertTrue(measured <= projected.getFirst(), "measured " + measured + " bytes, projected " + projected.getFirst() + ", " + kind.compressor());
        }
    }

    @Test
    void chunksThatNestGoInOnePass() throws IOException {
        ChunkedArray values = Creation.random(5, Creation.Distribution.NORMAL, new long[] {SIDE, SIDE}, ChunkSpec.of(SIDE, 8));
        InstrumentedStore store = new InstrumentedStore(new MemoryStore());
        ZarrArray source = columnStrips(store, values);
        StoreRechunk.Plan plan = StoreRechunk.plan(source.shape(), source.chunkShape(), new long[] {SIDE, 24}, 8, StoreRechunk.DEFAULT_BUDGET_BYTES);
        assertFalse(plan.needsIntermediate(), plan.toString());
        InstrumentedStore scratch = new InstrumentedStore(new MemoryStore());
        StoreRechunk.rechunk(source, store, "wider", ArrayMetadataV2.of(source.shape(), new long[] {SIDE, 24}, source.dtype()),
                StoreRechunk.DEFAULT_BUDGET_BYTES, scratch, StoreOptions.defaults());
        assertSameArray(values.compute(), ZarrArray.open(store, "wider").readAll(), "rechunked values");
        assertTrue(scratch.list("").isEmpty(), "no intermediate store was written");
        assertTrue(chunkReads(store, "columns").values().stream().allMatch(count -> count == 1), chunkReads(store, "columns").toString());
    }

    @Test
    void aBudgetBelowOneChunkOfEachSideIsRefusedBeforeAnythingIsRead() throws IOException {
        ChunkedArray values = Creation.random(6, Creation.Distribution.UNIFORM, new long[] {SIDE, SIDE}, ChunkSpec.of(SIDE, 8));
        InstrumentedStore store = new InstrumentedStore(new MemoryStore());
        ZarrArray source = columnStrips(store, values);
        store.resetCounts();
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> StoreRechunk.rechunk(source, store, "rows", ArrayMetadataV2.of(source.shape(), new long[] {8, SIDE}, source.dtype()),
                        50_000, new MemoryStore(), StoreOptions.defaults()));
        assertTrue(refused.getMessage().contains("[480, 8] (30720 bytes)") && refused.getMessage().contains("within 50000 bytes")
                && refused.getMessage().contains("122880 bytes"), refused.getMessage());
        assertTrue(chunkReads(store, "columns").isEmpty(), "nothing was read");
        assertFalse(store.contains("rows/.zarray"), "nothing was created");
    }
}
