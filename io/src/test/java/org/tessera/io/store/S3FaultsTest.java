package org.tessera.io.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Throttling and uploads cut off mid-way, injected in front of a real S3 server. */
class S3FaultsTest {
    private static S3TestServer server;

    @BeforeAll
    static void startServer(@TempDir Path directory) throws Exception {
        server = S3TestServer.start(directory, false);
        server.createBucket("faults");
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @Test
    void throttledRequestsAreRetriedUntilTheyPass() throws Exception {
        try (FaultyFront front = new FaultyFront(server, n -> n < 3 ? FaultyFront.Fault.SLOW_DOWN : FaultyFront.Fault.NONE)) {
            S3Store store = front.store("faults/throttled", 5);
            store.set("a", new byte[] {4, 5, 6});
            assertArrayEquals(new byte[] {4, 5, 6}, store.get("a").orElseThrow());
            assertEquals(5, front.requests());
        }
    }

    @Test
    void throttlingThatOutlastsTheRetriesIsOneMessageNamingTheUri() throws Exception {
        try (FaultyFront front = new FaultyFront(server, n -> FaultyFront.Fault.SLOW_DOWN)) {
            S3Store store = front.store("faults/always-throttled", 3);
            S3Exception failure = assertThrows(S3Exception.class, () -> store.get("a"));
            assertEquals("SlowDown", failure.code());
            assertTrue(failure.getMessage().startsWith("GET s3://faults/always-throttled/a: HTTP 503 SlowDown"), failure.getMessage());
            assertTrue(failure.getMessage().contains("on each of 3 attempts") && failure.getMessage().contains("is throttling requests"), failure.getMessage());
            assertEquals(3, front.requests());
        }
    }

    @Test
    void noMoreRequestsThanTheLimitAreInFlightToOneEndpoint() throws Exception {
        S3Store direct = S3Store.open(URI.create("s3://faults/bounded"), server.settings().withCredentials(null, null));
        for (int i = 0; i < 40; i++) {
            direct.set("k" + i, new byte[256 << 10]);
        }
        try (FaultyFront front = new FaultyFront(server, n -> FaultyFront.Fault.NONE)) {
            S3Settings settings = server.settings().withCredentials(null, null).withEndpoint(front.endpoint()).withMaxConcurrency(3);
            S3Store store = S3Store.open(URI.create("s3://faults/bounded"), settings);
            try (var readers = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < 40; i++) {
                    String key = "k" + i;
                    readers.submit(() -> store.get(key).orElseThrow());
                }
            }
            assertEquals(40, front.requests());
            assertTrue(front.mostInFlight() <= 3 && front.mostInFlight() >= 2, "requests in flight at once: " + front.mostInFlight());
        }
    }

    @Test
    void anUploadCutOffMidwayLeavesNoTornValueAndTheRetryWritesItWhole() throws Exception {
        byte[] value = new byte[1 << 20];
        new Random(3).nextBytes(value);
        Path object = server.bucketDirectory("faults").resolve("cut/chunk");
        try (FaultyFront front = new FaultyFront(server, n -> n == 0 ? FaultyFront.Fault.CUT_UPLOAD : FaultyFront.Fault.NONE)) {
            front.store("faults/cut", 3).set("chunk", value);
        }
        assertArrayEquals(value, Files.readAllBytes(object));
        try (FaultyFront front = new FaultyFront(server, n -> FaultyFront.Fault.CUT_UPLOAD)) {
            S3Store store = front.store("faults/cut", 2);
            byte[] other = new byte[value.length];
            assertThrows(S3Exception.class, () -> store.set("chunk", other));
            assertThrows(S3Exception.class, () -> store.set("fresh", other));
        }
        assertArrayEquals(value, Files.readAllBytes(object), "the old value stays whole");
        assertFalse(Files.exists(object.resolveSibling("fresh")), "a value never written whole is absent");
    }
}
