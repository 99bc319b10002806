package org.tessera.io.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The store contract, and what only S3 has, against s3proxy on loopback. */
class S3StoreTest extends StoreContract {
    private static final AtomicInteger STORES = new AtomicInteger();
    private static Path directory;
    private static S3TestServer server;

    @BeforeAll
    static void startServer() throws Exception {
        directory = Files.createTempDirectory("s3-store-test");
        server = S3TestServer.start(directory);
        server.createBucket("contract");
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @Override
    protected Store newStore() {
        return server.store("contract", "store-" + STORES.incrementAndGet());
    }

    @Test
    void keysAreObjectsUnderThePrefixSoOtherToolsSeeTheSameLayout() throws IOException {
        S3Store store = server.store("contract", "layout/data.zarr");
        store.set("x/0.1", new byte[] {1, 2, 3});
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(server.bucketDirectory("contract").resolve("layout/data.zarr/x/0.1")));
        assertEquals(List.of("x/0.1"), store.list(""));
    }

    @Test
    void largeValuesGoUpInPartsAndReadBackWhole() throws IOException {
        S3Store store = S3Store.open(server.store("contract", "multipart").uri(), server.settings().withMultipart(6 << 20, 5 << 20));
        byte[] value = new byte[13 << 20];
        new Random(7).nextBytes(value);
        store.set("big", value);
        assertArrayEquals(value, store.get("big").orElseThrow());
        assertArrayEquals(java.util.Arrays.copyOfRange(value, (6 << 20) - 3, (6 << 20) + 5), store.getRange("big", (6 << 20) - 3, 8).orElseThrow());
        assertEquals(value.length, store.size("big").orElseThrow());
    }

    @Test
    void listingFollowsContinuationPastOneThousandKeys() throws Exception {
        S3Store store = server.store("contract", "many");
        int count = 1_010;
        try (var workers = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < count; i++) {
                int key = i;
                workers.submit(() -> {
                    store.set("k/" + key, new byte[] {(byte) key});
                    return null;
                });
            }
        }
        List<String> keys = store.list("k/");
        assertEquals(count, keys.size());
        assertEquals(count, keys.stream().distinct().count());
    }

    @Test
    void aMissingBucketIsAnErrorNamingTheUriNotAMissingKey() {
        S3Store store = server.store("no-such-bucket", "data.zarr");
        S3Exception failure = assertThrows(S3Exception.class, () -> store.get(".zarray"));
        assertEquals("NoSuchBucket", failure.code());
        assertTrue(failure.getMessage().contains("s3://no-such-bucket/data.zarr/.zarray"), failure.getMessage());
        assertTrue(failure.getMessage().contains("the bucket does not exist"), failure.getMessage());
    }

    @Test
    void badCredentialsAreRefusedWithOneMessageNamingTheKeyAndUri() {
        S3Store store = S3Store.open(server.store("contract", "secret").uri(), server.settings().withCredentials(S3TestServer.ACCESS_KEY, "wrong"));
        S3Exception failure = assertThrows(S3Exception.class, () -> store.set("a", new byte[] {1}));
        assertEquals(403, failure.status());
        assertTrue(failure.getMessage().contains("s3://contract/secret/a"), failure.getMessage());
        assertTrue(failure.getMessage().contains("refused the credentials (access key " + S3TestServer.ACCESS_KEY + ")"), failure.getMessage());
        assertFalse(Files.exists(server.bucketDirectory("contract").resolve("secret")));
    }

    @Test
    void anUnreachableEndpointFailsAfterItsRetriesNamingTheEndpointAndUri() throws IOException {
        int closedPort;
        try (var socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        S3Settings settings = server.settings().withEndpoint("http://127.0.0.1:" + closedPort).withRetries(2, java.time.Duration.ofSeconds(5));
        S3Store store = S3Store.open(java.net.URI.create("s3://contract/x"), settings);
        S3Exception failure = assertThrows(S3Exception.class, () -> store.get("a"));
        assertTrue(failure.getMessage().contains("GET s3://contract/x/a failed after 2 attempts: cannot connect to the endpoint http://127.0.0.1:" + closedPort),
                failure.getMessage());
    }

    @Test
    void aBodyThatDoesNotMatchItsChecksumIsRefusedAndNotStored() throws IOException {
        S3Store store = server.store("contract", "checked");
        java.net.URI uri = java.net.URI.create(server.endpoint() + "/contract/checked/a");
        S3Requests.Answer answer = S3Requests.send(store.settings(), "PUT", uri, new byte[] {1, 2, 3}, S3Requests.checksum(new byte[] {1, 2, 4}), "PUT a");
        assertEquals(400, answer.status(), answer.text());
        assertFalse(store.contains("a"));
        store.set("a", new byte[] {1, 2, 3});
        assertArrayEquals(new byte[] {1, 2, 3}, store.get("a").orElseThrow());
    }

    @Test
    void signedBodiesAreAcceptedToo() throws IOException {
        S3Store store = S3Store.open(server.store("contract", "signed").uri(), server.settings().withPayloadSigning(true));
        byte[] value = new byte[100_000];
        new Random(11).nextBytes(value);
        store.set("a", value);
        assertArrayEquals(value, store.get("a").orElseThrow());
    }

    @Test
    void settingsNeverShowTheSecret() {
        assertFalse(server.settings().toString().contains(S3TestServer.SECRET_KEY));
        assertFalse(server.store("contract", "x").toString().contains(S3TestServer.SECRET_KEY));
    }
}
