package org.tessera.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.io.TestArrays.assertSameArray;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.graph.schedule.TaskFailedException;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.io.codec.Gzip;
import org.tessera.io.codec.Zstd;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.store.MemoryStore;
import org.tessera.io.store.Store;
import org.tessera.io.zarr.ArrayMetadata;
import org.tessera.io.zarr.ArrayMetadataV2;
import org.tessera.io.zarr.ArrayMetadataV3;
import org.tessera.io.zarr.Zarr;
import org.tessera.io.zarr.ZarrArray;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

class ChunkedStoreTest {
    @TempDir
    Path directory;

    private static ChunkedArray randomArray(long seed, long[] shape, long... blockShape) {
        return Creation.random(seed, Creation.Distribution.NORMAL, shape, ChunkSpec.of(blockShape));
    }

    /** Every chunk of {@code target} is absent or holds exactly the values of {@code expected}; returns how many are present. */
    static int assertEveryChunkAbsentOrCorrect(ZarrArray target, NDArray expected) throws IOException {
        int present = 0;
        int[] counts = target.chunkCounts();
        long[] chunkShape = target.chunkShape();
        for (int row = 0; row < counts[0]; row++) {
            for (int column = 0; column < counts[1]; column++) {
                int[] chunk = {row, column};
                if (!target.hasChunk(chunk)) {
                    continue;
                }
                present++;
                long[] start = {row * chunkShape[0], column * chunkShape[1]};
                long[] shape = {Math.min(chunkShape[0], expected.shape(0) - start[0]), Math.min(chunkShape[1], expected.shape(1) - start[1])};
                assertSameArray(expected.slice(0, start[0], 1, shape[0]).slice(1, start[1], 1, shape[1]), target.readRegion(start, shape),
                        "chunk " + target.chunkKey(chunk));
            }
        }
        return present;
    }

    @Test
    void fromZarrGivesOneBlockPerChunkAndABlockReadsOnlyItsChunk() throws IOException {
        InstrumentedStore store = new InstrumentedStore(new MemoryStore());
        NDArray values = TestArrays.random(DType.FLOAT32, 1, 10, 9);
        ZarrArray array = ZarrArray.create(store, "x", ArrayMetadataV2.of(new long[] {10, 9}, new long[] {4, 3}, DType.FLOAT32));
        array.writeAll(values);
        ChunkedArray chunked = Zarr.fromZarr(ZarrArray.open(store, "x"));
        assertEquals("((4, 4, 2), (3, 3, 3))", chunked.chunks().toString().replace("[", "(").replace("]", ")"));
        assertSameArray(values, chunked.compute(new SynchronousScheduler()), "whole array");

        store.resetCounts();
        NDArray block = chunked.block(1, 2).compute(new SynchronousScheduler());
        assertSameArray(values.slice(0, 4, 1, 4).slice(1, 6, 1, 3), block, "block (1, 2)");
        assertEquals(Map.of("x/1.2", 1), store.reads());
    }

    @Test
    void blocksOfAnotherChunkingReadOnlyTheChunksTheyOverlap() throws IOException {
        InstrumentedStore store = new InstrumentedStore(new MemoryStore());
        NDArray values = TestArrays.random(DType.INT64, 2, 12, 12);
        ZarrArray array = ZarrArray.create(store, "x", ArrayMetadataV3.sharded(new long[] {12, 12}, new long[] {4, 4}, new long[] {2, 2}, DType.INT64));
        array.writeAll(values);
        ChunkedArray chunked = Zarr.fromZarr(array, ChunkSpec.of(6, 6));
        assertSameArray(values, chunked.compute(new SynchronousScheduler()), "rechunked read");
        store.resetCounts();
        chunked.block(1, 0).compute(new SynchronousScheduler());
        // Rows 6..11 and columns 0..5 overlap shards 1..2 by 0..1; shard (2, 0) is covered whole and read whole,
        // the others only in part, so only their index and the inner chunks needed are read.
        assertEquals(Set.of("x/c/2/0"), store.reads().keySet());
        assertEquals(Set.of("x/c/1/0", "x/c/1/1", "x/c/2/1"), store.rangeReads().keySet());
    }

    @Test
    void aBlockSmallerThanAShardReadsTheShardIndexAndOneInnerChunk() throws IOException {
        InstrumentedStore store = new InstrumentedStore(DirectoryStore.open(directory.resolve("sharded.zarr")));
        NDArray values = TestArrays.random(DType.FLOAT32, 3, 8, 8);
        ZarrArray array = ZarrArray.create(store, "", ArrayMetadataV3.sharded(new long[] {8, 8}, new long[] {8, 8}, new long[] {2, 2}, DType.FLOAT32,
                new Gzip(1)));
        array.writeAll(values);
        store.resetCounts();
        ChunkedArray blocks = Zarr.fromZarr(array, ChunkSpec.of(2, 2));
        assertSameArray(values.slice(0, 2, 1, 2).slice(1, 4, 1, 2), blocks.block(1, 2).compute(new SynchronousScheduler()), "inner chunk (1, 2)");
        assertEquals(Map.of(), store.reads());
        assertEquals(Map.of("c/0/0", 2), store.rangeReads());
        assertSameArray(values, blocks.compute(), "every inner chunk");
    }

    @Test
    void alignedBlocksWriteTheirChunksWithoutRechunkingAndEachChunkOnce() throws IOException {
        InstrumentedStore store = new InstrumentedStore(new MemoryStore());
        ChunkedArray source = randomArray(3, new long[] {100, 90}, 50, 30);
        StoreReport report = Zarr.toZarr(source, store, "x", ArrayMetadataV2.of(new long[] {100, 90}, new long[] {25, 15}, DType.FLOAT64)
                .withCompressor(new Zstd(1, false)), StoreOptions.defaults());
        assertFalse(report.rechunked());
        assertEquals(6, report.tasksRun());
        assertEquals(24, report.chunksWritten());
        assertTrue(store.writes().entrySet().stream().filter(entry -> !entry.getKey().endsWith(".zarray")).allMatch(entry -> entry.getValue() == 1));
        assertSameArray(source.compute(), ZarrArray.open(store, "x").readAll(), "stored");
    }

    @Test
    void misalignedBlocksCanBeRechunkedSoEveryChunkHasExactlyOneWriter() throws IOException {
        InstrumentedStore store = new InstrumentedStore(new MemoryStore());
        ChunkedArray source = randomArray(4, new long[] {100, 90}, 30, 35).astype(DType.FLOAT32);
        ArrayMetadataV2 metadata = ArrayMetadataV2.of(new long[] {100, 90}, new long[] {40, 40}, DType.FLOAT32);
        StoreReport report = Zarr.toZarr(source, store, "x", metadata, StoreOptions.defaults().withMisaligned(StoreOptions.Misaligned.RECHUNK));
        assertTrue(report.rechunked());
        assertEquals(9, report.tasksRun());
        assertEquals(9, report.chunksWritten());
        store.writes().forEach((key, count) -> assertEquals(1, count, key));
        assertSameArray(source.compute(), ZarrArray.open(store, "x").readAll(), "stored");
    }

    @Test
    void misalignedBlocksLockRegionsAndEveryChunkIsWrittenOnceWhole() throws IOException {
        for (boolean threaded : new boolean[] {false, true}) {
            InstrumentedStore store = new InstrumentedStore(new MemoryStore());
            ChunkedArray source = randomArray(4, new long[] {100, 90}, 30, 35).astype(DType.FLOAT32);
            ArrayMetadataV2 metadata = ArrayMetadataV2.of(new long[] {100, 90}, new long[] {40, 40}, DType.FLOAT32);
            StoreOptions options = StoreOptions.defaults().withScheduler(threaded ? ThreadedScheduler.builder().workers(2).build() : new SynchronousScheduler());
            StoreReport report = Zarr.toZarr(source, store, "x", metadata, options);
            assertFalse(report.rechunked());
            assertEquals(12, report.tasksRun(), "one task per block of (30, 35)");
            assertEquals(9, report.chunksWritten());
            store.writes().forEach((key, count) -> assertEquals(1, count, key));
            assertSameArray(source.compute(), ZarrArray.open(store, "x").readAll(), "stored");
            // Chunks of 40 x 40 float32 (6,400 bytes) wait while gathered: never more than one row of 3 and the next.
            assertTrue(report.peakGatheredBytes() > 0 && report.peakGatheredBytes() <= 6 * 6_400, report.toString());
        }
    }

    /** A scheduler that may run tasks in other processes cannot gather chunks in one: the store rechunks. */
    @Test
    void misalignedBlocksAreRechunkedForASchedulerOutsideThisProcess() throws IOException {
        InstrumentedStore store = new InstrumentedStore(new MemoryStore());
        ChunkedArray source = randomArray(4, new long[] {100, 90}, 30, 35);
        SynchronousScheduler local = new SynchronousScheduler();
        org.tessera.graph.schedule.Scheduler elsewhere = local::compute;
        assertTrue(local.runsTasksInThisProcess());
        assertFalse(elsewhere.runsTasksInThisProcess());
        StoreReport report = Zarr.toZarr(source, store, "x", ArrayMetadataV2.of(new long[] {100, 90}, new long[] {40, 40}, DType.FLOAT64),
                StoreOptions.defaults().withScheduler(elsewhere));
        assertTrue(report.rechunked());
        assertEquals(0, report.peakGatheredBytes());
        store.writes().forEach((key, count) -> assertEquals(1, count, key));
        assertSameArray(source.compute(), ZarrArray.open(store, "x").readAll(), "stored");
    }

    @Test
    void aShardedTargetIsWrittenOnceWholePerShard() throws IOException {
        InstrumentedStore store = new InstrumentedStore(new MemoryStore());
        ChunkedArray source = randomArray(10, new long[] {30, 20}, 7, 20);
        ArrayMetadataV3 metadata = ArrayMetadataV3.sharded(new long[] {30, 20}, new long[] {10, 10}, new long[] {5, 5}, DType.FLOAT64, new Zstd(1, false));
        StoreReport report = Zarr.toZarr(source, store, "s", metadata, StoreOptions.defaults());
        assertFalse(report.rechunked());
        assertEquals(6, report.chunksWritten());
        // The root group (zarr.json) is made because the array is created below it.
        assertEquals(Set.of("s/c/0/0", "s/c/0/1", "s/c/1/0", "s/c/1/1", "s/c/2/0", "s/c/2/1", "s/zarr.json", "zarr.json"), store.writes().keySet());
        store.writes().forEach((key, count) -> assertEquals(1, count, key));
        assertSameArray(source.compute(), Zarr.fromZarr(ZarrArray.open(store, "s"), ChunkSpec.of(5, 5)).compute(), "read by inner chunks");
    }

    @Test
    void storingCastsToTheTargetDtypeAndRefusesAnotherShape() throws IOException {
        Store store = new MemoryStore();
        ChunkedArray source = randomArray(5, new long[] {8, 8}, 4, 4);
        ZarrArray target = ZarrArray.create(store, "x", ArrayMetadataV3.of(new long[] {8, 8}, new long[] {4, 4}, DType.FLOAT32, new Gzip(1)));
        Zarr.store(source, target);
        assertSameArray(source.compute().astype(DType.FLOAT32), target.readAll(), "cast on store");
        ZarrArray small = ZarrArray.create(store, "small", ArrayMetadataV2.of(new long[] {8, 7}, new long[] {4, 4}, DType.FLOAT64));
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> Zarr.store(source, small));
        assertTrue(error.getMessage().contains("[8, 8]") && error.getMessage().contains("[8, 7]") && error.getMessage().contains("\"small\""), error.getMessage());
    }

    /**
     * Blocks of 10 x 10 write their own chunks; blocks of 15 x 25 share chunks, which are gathered
     * under region locks and so are written whole or not at all too.
     */
    /** Caught by KilledWriterTest: a writer killed while it wrote the metadata leaves only its temporary file. */
    @Test
    void resumingWhereOnlyAHalfWrittenMetadataFileIsLeftRemovesIt() throws IOException {
        Path root = directory.resolve("killed-early.zarr");
        java.nio.file.Files.createDirectories(root);
        Path partial = root.resolve("..zarray.e234d4b2c776d1f6.partial");
        java.nio.file.Files.writeString(partial, "{\"zarr_format\": 2, \"sha");
        ChunkedArray source = randomArray(8, new long[] {20, 20}, 10, 10);
        ArrayMetadataV2 metadata = ArrayMetadataV2.of(new long[] {20, 20}, new long[] {10, 10}, DType.FLOAT64);
        Zarr.toZarr(source, DirectoryStore.open(root), "", metadata, StoreOptions.defaults().withResume(true));
        assertFalse(java.nio.file.Files.exists(partial), "the killed writer's temporary file is gone");
        assertSameArray(source.compute(), Zarr.fromZarr(root).compute(), "resumed");
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 15})
    void aWriterThatDiesMidStoreLeavesCompleteChunksAndResumeWritesOnlyTheRest(int blockRows) throws IOException {
        InstrumentedStore store = new InstrumentedStore(DirectoryStore.open(directory.resolve("x.zarr")));
        boolean aligned = blockRows == 10;
        ChunkedArray source = randomArray(6, new long[] {60, 60}, blockRows, aligned ? 10 : 25);
        NDArray expected = source.compute();
        ArrayMetadataV2 metadata = ArrayMetadataV2.of(new long[] {60, 60}, new long[] {10, 10}, DType.FLOAT64);
        store.failAfterChunkWrites(13);
        StoreOptions options = StoreOptions.defaults().withScheduler(ThreadedScheduler.builder().workers(2).build());
        TaskFailedException failure = assertThrows(TaskFailedException.class, () -> Zarr.toZarr(source, store, "", metadata, options));
        assertTrue(failure.getMessage().contains("store"), failure.getMessage());

        ZarrArray interrupted = ZarrArray.open(store, "");
        int present = assertEveryChunkAbsentOrCorrect(interrupted, expected);
        // The failure interrupts the other worker, whose chunk write in flight may then be abandoned
        // (its temporary file removed): 12 or 13 chunks, every one of them whole.
        assertTrue(present == 13 || present == 12, present + " chunks present after the failure");

        store.failAfterChunkWrites(Integer.MAX_VALUE);
        store.resetCounts();
        StoreReport resumed = Zarr.toZarr(source, store, "", metadata, options.withResume(true));
        assertEquals(36 - present, resumed.chunksWritten());
        assertEquals(present, resumed.chunksSkipped(), "each present chunk counted once, by the block holding its first element");
        if (aligned) {
            assertEquals(36 - present, resumed.tasksRun());
        }
        assertEquals(36 - present, store.writes().size());
        assertEquals(36, assertEveryChunkAbsentOrCorrect(ZarrArray.open(store, ""), expected));
    }

    @Test
    void resumingIntoAnArrayWithOtherMetadataIsRefusedNamingBoth() throws IOException {
        Store store = new MemoryStore();
        ChunkedArray source = randomArray(7, new long[] {20}, 5);
        Zarr.toZarr(source, store, "x", ArrayMetadataV2.of(new long[] {20}, new long[] {5}, DType.FLOAT64), StoreOptions.defaults());
        ArrayMetadata other = ArrayMetadataV2.of(new long[] {20}, new long[] {10}, DType.FLOAT64);
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> Zarr.toZarr(source, store, "x", other, StoreOptions.defaults().withResume(true)));
        assertTrue(error.getMessage().contains("chunks=[5]") && error.getMessage().contains("chunks=[10]"), error.getMessage());
        StoreReport nothingToDo = Zarr.toZarr(source, store, "x", ArrayMetadataV2.of(new long[] {20}, new long[] {5}, DType.FLOAT64),
                StoreOptions.defaults().withResume(true));
        assertEquals(0, nothingToDo.tasksRun());
        assertEquals(4, nothingToDo.chunksSkipped());
    }

    @Test
    void storingAnArrayManyTimesLargerThanTheMemoryBudgetStaysUnderIt() throws IOException {
        // 64 MB of float64 into 2 MB chunks under a 12 MiB budget: with blocks equal to the chunks (each
        // block is made and written inside one fused task), with blocks that are rechunked first, and with
        // blocks whose parts of shared chunks are gathered under region locks (at most two rows of 4 chunks).
        long[] shape = {4000, 2000};
        MemoryBudget budget = MemoryBudget.ofMebibytes(12);
        for (long[] blockShape : new long[][] {{500, 500}, {250, 400}, {300, 400}}) {
            ChunkedArray source = randomArray(8, shape, blockShape);
            boolean rechunk = blockShape[0] == 250;
            assertTrue(source.byteSize() > 5 * budget.bytes());
            Path target = directory.resolve("big-" + blockShape[0] + "x" + blockShape[1] + ".zarr");
            ThreadedScheduler scheduler = ThreadedScheduler.builder().workers(2).memoryBudget(budget).spillDirectory(directory).build();
            StoreReport report = Zarr.toZarr(source, DirectoryStore.open(target), "", ArrayMetadataV2.of(shape, new long[] {500, 500}, DType.FLOAT64)
                    .withCompressor(new Zstd(1, false)), StoreOptions.defaults().withScheduler(scheduler)
                    .withMisaligned(rechunk ? StoreOptions.Misaligned.RECHUNK : StoreOptions.Misaligned.LOCK_REGIONS));
            assertEquals(32, report.chunksWritten());
            assertEquals(rechunk, report.rechunked());
            assertTrue(report.statistics().peakResultBytes() <= budget.bytes(), report.statistics().toString());
            assertTrue(report.peakGatheredBytes() <= 8 * 2_000_000, report.peakGatheredBytes() + " bytes gathered at once");
            ChunkedArray stored = Zarr.fromZarr(target);
            double expectedMean = source.mean().compute(scheduler).getDouble();
            assertEquals(expectedMean, stored.mean().compute(scheduler).getDouble(), 1e-12);
        }
    }

    @Test
    void zarrArraysAndTheirWritingTasksSerializeSoTheyCanTravelToOtherProcesses() throws Exception {
        ZarrArray array = ZarrArray.create(DirectoryStore.open(directory.resolve("travel.zarr")), "a",
                ArrayMetadataV3.sharded(new long[] {6, 6}, new long[] {6, 6}, new long[] {3, 3}, DType.INT32,
                        new org.tessera.io.codec.Blosc("zstd", 3, org.tessera.io.codec.Blosc.Shuffle.BYTE, 0, 0)),
                Map.of("tags", java.util.List.of("x", "y")), false);
        NDArray values = TestArrays.random(DType.INT32, 13, 6, 6);
        array.writeAll(values);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream output = new java.io.ObjectOutputStream(bytes)) {
            output.writeObject(array);
            output.writeObject(new ChunkedStore.WriteBlock(array, org.tessera.array.chunks.Chunks.regular(new long[] {6, 6}, new long[] {6, 6}),
                    new long[] {6, 6}, true, null));
            // A task that gathers chunks in this process refuses to travel rather than lose their parts.
            assertThrows(java.io.NotSerializableException.class, () -> output.writeObject(new ChunkedStore.WriteBlock(array,
                    org.tessera.array.chunks.Chunks.regular(new long[] {6, 6}, new long[] {4, 4}), new long[] {6, 6}, false,
                    new ChunkAssembly(DType.INT32))));
        }
        try (java.io.ObjectInputStream input = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            ZarrArray copy = (ZarrArray) input.readObject();
            assertEquals(array, copy);
            assertEquals(array.attributes(), copy.attributes());
            assertSameArray(values, copy.readAll(), "deserialized array");
            assertTrue(input.readObject() instanceof ChunkedStore.WriteBlock);
        }
    }

    @Test
    void zeroLengthArraysStoreNothing() throws IOException {
        Store store = new MemoryStore();
        ChunkedArray empty = Creation.zeros(new long[] {0, 5}, DType.INT32, ChunkSpec.of(2, 2));
        StoreReport report = Zarr.toZarr(empty, store, "e", ArrayMetadataV2.of(new long[] {0, 5}, new long[] {2, 2}, DType.INT32), StoreOptions.defaults());
        assertEquals(0, report.chunksWritten());
        assertArrayEquals(new long[] {0, 5}, Zarr.fromZarr(ZarrArray.open(store, "e")).compute().shape());
    }
}
