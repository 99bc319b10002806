package org.tessera.io.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.io.StoreOptions;
import org.tessera.io.zarr.ArrayMetadataV2;
import org.tessera.io.zarr.Zarr;
import org.tessera.io.zarr.ZarrArray;
import org.tessera.ndarray.NDArray;

/** Chunks fetched ahead of the tasks that read them, each fetched once, counted at the server's door. */
class S3ReadAheadTest {
    private static S3TestServer server;

    @BeforeAll
    static void startServer(@TempDir Path directory) throws Exception {
        server = S3TestServer.start(directory, false);
        server.createBucket("ahead");
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    private static Map<String, Long> chunkGets(FaultyFront front, String prefix) {
        return front.requestLines().stream().filter(line -> line.startsWith("GET /ahead/" + prefix + "/") && !line.contains("/."))
                .map(line -> line.split(" ")[1]).collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }

    @Test
    void aHintedKeyIsFetchedOnceAndHandedToItsRead() throws Exception {
        S3Store direct = server.store("ahead", "hinted");
        direct.set("a", new byte[] {1, 2});
        try (FaultyFront front = new FaultyFront(server, n -> FaultyFront.Fault.NONE)) {
            S3Store store = front.store("ahead/hinted", 3);
            store.prefetch("a");
            store.prefetch("a");
            store.prefetch("absent");
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (front.requests() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(2, front.requests(), "the hints alone sent the requests");
            assertArrayEquals(new byte[] {1, 2}, store.get("a").orElseThrow());
            assertTrue(store.get("absent").isEmpty());
            assertEquals(List.of("GET /ahead/hinted/a HTTP/1.1", "GET /ahead/hinted/absent HTTP/1.1"),
                    front.requestLines().stream().sorted(java.util.Comparator.comparing(line -> line.contains("absent"))).toList());
        }
    }

    @Test
    void hintsNeverReadAreDroppedOldestFirstBeyondTheLimit() throws Exception {
        S3Store store = server.store("ahead", "never-read");
        for (int i = 0; i < ReadAhead.LIMIT + 20; i++) {
            store.prefetch("k" + i);
        }
        assertEquals(ReadAhead.LIMIT, store.prefetchedValues());
    }

    @Test
    void aReductionOverAnS3StoreFetchesEveryChunkOnceWithReadAhead() throws Exception {
        ChunkedArray source = Creation.random(3, Creation.Distribution.UNIFORM, new long[] {240, 160}, ChunkSpec.of(30, 40));
        S3Store direct = server.store("ahead", "y.zarr");
        Zarr.toZarr(source, direct, "", ArrayMetadataV2.of(new long[] {240, 160}, new long[] {30, 40}, source.dtype()), StoreOptions.defaults());
        NDArray expected = source.sum().compute();
        NDArray expectedColumns = source.sum(0).compute();
        ThreadedScheduler scheduler = ThreadedScheduler.builder().workers(2).build();
        try (FaultyFront front = new FaultyFront(server, n -> FaultyFront.Fault.NONE)) {
            ChunkedArray y = Zarr.fromZarr(ZarrArray.open(front.store("ahead/y.zarr", 3), ""));
            assertEquals(expected.getDouble(), y.sum().compute(scheduler).getDouble(), 1e-9);
            Map<String, Long> gets = chunkGets(front, "y.zarr");
            assertEquals(32, gets.size(), "every chunk read: " + gets.keySet());
            assertTrue(gets.values().stream().allMatch(count -> count == 1), "no chunk read twice: " + gets);
        }
        try (FaultyFront front = new FaultyFront(server, n -> FaultyFront.Fault.NONE)) {
            ChunkedArray y = Zarr.fromZarr(ZarrArray.open(front.store("ahead/y.zarr", 3), ""));
            NDArray columns = y.sum(0).compute(scheduler);
            for (int column = 0; column < 160; column++) {
                assertEquals(expectedColumns.getDouble(column), columns.getDouble(column), 1e-9);
            }
            assertTrue(chunkGets(front, "y.zarr").values().stream().allMatch(count -> count == 1), "no chunk read twice: " + chunkGets(front, "y.zarr"));
        }
    }
}
