package org.tessera.io.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.io.TestArrays.assertSameArray;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.SimpleFileServer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.metrics.StoreTraffic;
import org.tessera.io.StoreOptions;
import org.tessera.io.codec.Gzip;
import org.tessera.io.zarr.ArrayMetadataV2;
import org.tessera.io.zarr.ArrayMetadataV3;
import org.tessera.io.zarr.Zarr;
import org.tessera.io.zarr.ZarrArray;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.npy.Npy;

/**
 * Zarr stores read over HTTP from servers on the loopback interface: the JDK's
 * {@link SimpleFileServer}, which ignores {@code Range} (it answers 200 with the whole file) and
 * answers 404 for hidden files, so for Zarr v2 ({@code .zarray}) and for 206 answers a small file
 * server of this test ({@link RangeServer}) that serves every file and honours ranges.
 */
class HttpStoreTest {
    @TempDir
    Path directory;

    private final List<HttpServer> servers = new ArrayList<>();

    @AfterEach
    void stopServers() {
        servers.forEach(server -> server.stop(0));
    }

    /** A SimpleFileServer over {@code root}; returns its base URL, "http://127.0.0.1:port/". */
    private String simpleFileServer(Path root) {
        HttpServer server = SimpleFileServer.createFileServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), root.toAbsolutePath(),
                SimpleFileServer.OutputLevel.NONE);
        server.start();
        servers.add(server);
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    private RangeServer rangeServer(Path root) throws IOException {
        RangeServer server = new RangeServer(root);
        servers.add(server.server);
        return server;
    }

    private static ChunkedArray randomArray(long seed, long[] shape, long... blockShape) {
        return Creation.random(seed, Creation.Distribution.NORMAL, shape, ChunkSpec.of(blockShape));
    }

    @Test
    void aVersion3ArrayReadsOverHttpExactlyAsFromItsDirectory() throws IOException {
        Path local = directory.resolve("x.zarr");
        Zarr.toZarr(randomArray(1, new long[] {30, 20}, 7, 20), DirectoryStore.open(local), "",
                ArrayMetadataV3.of(new long[] {30, 20}, new long[] {8, 6}, DType.FLOAT64, new Gzip(1)), StoreOptions.defaults());
        String base = simpleFileServer(directory);

        ChunkedArray remote = Zarr.fromZarr(URI.create(base + "x.zarr"));
        ChunkedArray fromDisk = Zarr.fromZarr(local);
        assertEquals(fromDisk.chunks().toString(), remote.chunks().toString());
        assertSameArray(fromDisk.multiply(2).compute(), remote.multiply(2).compute(), "twice the array, over HTTP");
        assertSameArray(fromDisk.compute(), Zarr.fromZarr(URI.create(base + "x.zarr/")).compute(), "base URI ending with /");
        assertEquals(HttpStore.open(URI.create(base + "x.zarr")), Zarr.open(URI.create(base + "x.zarr")).store());
    }

    @Test
    void aMissingChunkReadsAsTheFillValue() throws IOException {
        Path local = directory.resolve("x.zarr");
        Zarr.toZarr(randomArray(2, new long[] {16, 12}, 8, 6), DirectoryStore.open(local), "",
                ArrayMetadataV3.of(new long[] {16, 12}, new long[] {8, 6}, DType.FLOAT32), StoreOptions.defaults());
        Files.delete(local.resolve("c/1/0"));
        ZarrArray remote = Zarr.open(URI.create(simpleFileServer(directory) + "x.zarr"));
        assertFalse(remote.hasChunk(new int[] {1, 0}));
        assertTrue(remote.hasChunk(new int[] {1, 1}));
        NDArray values = remote.readAll();
        assertSameArray(NDArray.zeros(DType.FLOAT32, 8, 6), values.slice(0, 8, 1, 8).slice(1, 0, 1, 6), "the missing chunk");
        assertSameArray(Zarr.open(local).readAll(), values, "the whole array");
    }

    @Test
    void arraysThatZarrPythonWroteReadOverHttpExactly() throws IOException, URISyntaxException {
        Path fixtures = Path.of(HttpStoreTest.class.getResource("/zarr/manifest.json").toURI()).getParent();
        JsonNode manifest = new ObjectMapper().readTree(fixtures.resolve("manifest.json").toFile());
        RangeServer server = rangeServer(fixtures.resolve("v2"));
        int arrays = 0;
        for (JsonNode entry : manifest.get("arrays")) {
            String path = entry.get("path").asText();
            NDArray expected = Npy.read(fixtures.resolve("expected").resolve(entry.get("expected").asText()));
            assertSameArray(expected, Zarr.open(URI.create(server.base()), path).readAll(), path);
            arrays++;
        }
        assertTrue(arrays > 10, "the manifest lists " + arrays + " arrays");
        // One of them has missing chunks, which read as its fill value, NaN.
        assertTrue(Double.isNaN(Zarr.open(URI.create(server.base()), "float64_nan_fill_missing").readChunk(2, 1).getDouble(0, 0)));
        assertSameArray(Zarr.open(fixtures.resolve("v2"), "float64_blosc_lz4").readAll(),
                Zarr.fromZarr(Zarr.open(URI.create(server.base() + "float64_blosc_lz4"))).compute(), "fromZarr over HTTP");
    }

    @Test
    void aShardedVersion3ArrayReadsInnerChunksByRangeRequests() throws IOException {
        Path local = directory.resolve("s.zarr");
        Zarr.toZarr(randomArray(3, new long[] {16, 16}, 8, 16), DirectoryStore.open(local), "",
                ArrayMetadataV3.sharded(new long[] {16, 16}, new long[] {8, 8}, new long[] {2, 2}, DType.FLOAT64, new Gzip(1)), StoreOptions.defaults());
        NDArray expected = Zarr.open(local).readAll();

        // A server that honours Range: blocks of one inner chunk read the shard index and the chunk, by 206 answers.
        RangeServer server = rangeServer(directory);
        ChunkedArray byInnerChunks = Zarr.fromZarr(Zarr.open(URI.create(server.base() + "s.zarr")), ChunkSpec.of(2, 2));
        assertSameArray(expected, byInnerChunks.compute(), "inner chunks over 206 answers");
        assertTrue(server.rangeRequests.get() > 0, "range requests were sent");
        assertEquals(0, server.ignoredRanges.get());

        // SimpleFileServer ignores Range: the store slices the whole shard it answers with.
        String base = simpleFileServer(directory);
        assertSameArray(expected, Zarr.fromZarr(Zarr.open(URI.create(base + "s.zarr")), ChunkSpec.of(2, 2)).compute(), "inner chunks over 200 answers");
        assertSameArray(expected, Zarr.fromZarr(URI.create(base + "s.zarr")).compute(), "whole shards");
    }

    @Test
    void rangedReadsReturnTheBytesAskedForWithOrWithoutRangeSupport() throws IOException {
        byte[] value = new byte[1000];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) (i * 7);
        }
        Files.createDirectories(directory.resolve("d"));
        Files.write(directory.resolve("d/v"), value);
        RangeServer server = rangeServer(directory);
        HttpStore honoured = HttpStore.open(URI.create(server.base()));
        HttpStore ignored = HttpStore.open(URI.create(simpleFileServer(directory)));
        for (HttpStore store : List.of(honoured, ignored)) {
            assertArrayEquals(Arrays.copyOfRange(value, 100, 350), store.getRange("d/v", 100, 250).orElseThrow(), store.describe());
            assertArrayEquals(Arrays.copyOfRange(value, 990, 1000), store.getRange("d/v", 990, 10).orElseThrow(), store.describe());
            assertArrayEquals(new byte[0], store.getRange("d/v", 1000, 0).orElseThrow(), store.describe());
            assertEquals(Optional.empty(), store.getRange("d/missing", 0, 10));
            assertEquals(OptionalLong.of(1000), store.size("d/v"));
            assertEquals(OptionalLong.empty(), store.size("d/missing"));
            assertTrue(store.contains("d/v"));
            assertFalse(store.contains("d/missing"));
            assertArrayEquals(value, store.get("d/v").orElseThrow());
            IOException pastTheEnd = assertThrows(IOException.class, () -> store.getRange("d/v", 995, 10));
            assertTrue(pastTheEnd.getMessage().contains(store.uri("d/v").toString()), pastTheEnd.getMessage());
            assertTrue(pastTheEnd.getMessage().contains("[995, 1005)"), pastTheEnd.getMessage());
        }
        assertTrue(server.rangeRequests.get() >= 3);
        IOException unsatisfiable = assertThrows(IOException.class, () -> honoured.getRange("d/v", 2000, 10));
        assertTrue(unsatisfiable.getMessage().contains("416") && unsatisfiable.getMessage().contains(honoured.uri("d/v").toString()), unsatisfiable.getMessage());
    }

    @Test
    void readsAreCountedAsStoreTraffic() throws IOException {
        Files.write(directory.resolve("v"), new byte[123]);
        HttpStore store = HttpStore.open(URI.create(simpleFileServer(directory)));
        long before = StoreTraffic.bytesRead();
        store.get("v");
        assertTrue(StoreTraffic.bytesRead() - before >= 123);
    }

    @Test
    void aMissingArrayIsAnErrorNamingItsUrl() throws IOException {
        String location = simpleFileServer(directory) + "nothing.zarr";
        NoSuchFileException missing = assertThrows(NoSuchFileException.class, () -> Zarr.fromZarr(URI.create(location)));
        assertTrue(missing.getMessage().contains(location), missing.getMessage());
        NoSuchFileException noGroup = assertThrows(NoSuchFileException.class, () -> Zarr.openGroup(URI.create(location)));
        assertTrue(noGroup.getMessage().contains(location), noGroup.getMessage());
    }

    @Test
    void aServerThatIsDownIsAnIOExceptionNamingTheUrlAfterRetries() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String location = "http://127.0.0.1:" + port + "/x.zarr";
        IOException down = assertThrows(IOException.class, () -> Zarr.open(URI.create(location)));
        assertTrue(down.getMessage().contains(location + "/"), down.getMessage());
        assertTrue(down.getMessage().contains("after 3 attempts"), down.getMessage());
    }

    @Test
    void serverErrorsAreRetriedAndClientErrorsAreNot() throws IOException {
        Files.write(directory.resolve("v"), new byte[] {1, 2, 3});
        RangeServer server = rangeServer(directory);
        HttpStore store = HttpStore.open(URI.create(server.base()));

        server.fail(2, 503);
        assertArrayEquals(new byte[] {1, 2, 3}, store.get("v").orElseThrow(), "third attempt succeeds");
        assertEquals(3, server.requests.get());

        server.fail(5, 429);
        IOException busy = assertThrows(IOException.class, () -> store.get("v"));
        assertTrue(busy.getMessage().contains(store.uri("v").toString()) && busy.getMessage().contains("429"), busy.getMessage());
        assertEquals(3, server.requests.get());

        server.fail(5, 400);
        IOException bad = assertThrows(IOException.class, () -> store.get("v"));
        assertTrue(bad.getMessage().contains(store.uri("v").toString()) && bad.getMessage().contains("400"), bad.getMessage());
        assertEquals(1, server.requests.get(), "a 4xx is not retried");

        server.fail(5, 403);
        assertThrows(IOException.class, () -> store.contains("v"));
        assertEquals(1, server.requests.get(), "a 4xx is not retried");
    }

    @Test
    void theStoreIsReadOnlyAndCannotList() {
        HttpStore store = HttpStore.open(URI.create("http://127.0.0.1:1/x.zarr"));
        UnsupportedOperationException set = assertThrows(UnsupportedOperationException.class, () -> store.set("a/0", new byte[1]));
        assertTrue(set.getMessage().contains("read-only HTTP http://127.0.0.1:1/x.zarr/"), set.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> store.delete("a/0"));
        assertThrows(UnsupportedOperationException.class, () -> store.list(""));
    }

    @Test
    void keysAreValidatedAndPercentEncoded() {
        HttpStore store = HttpStore.open(URI.create("https://example.org/data/x.zarr"));
        assertEquals("HTTP https://example.org/data/x.zarr/", store.describe());
        assertEquals(URI.create("https://example.org/data/x.zarr/a%20b/c%23d/%C3%A9/0.1"), store.uri("a b/c#d/é/0.1"));
        assertEquals(URI.create("https://example.org/data/x.zarr/.zarray"), store.uri(".zarray"));
        assertThrows(IllegalArgumentException.class, () -> store.uri("../secret"));
        assertThrows(IllegalArgumentException.class, () -> store.uri("/a"));
        assertEquals(store, HttpStore.open(URI.create("https://example.org/data/./x.zarr/")));
    }

    @Test
    void aStoreSurvivesSerialization() throws IOException, ClassNotFoundException {
        HttpStore store = HttpStore.open(URI.create("https://example.org/x.zarr"));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(store);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            HttpStore copy = (HttpStore) in.readObject();
            assertEquals(store, copy);
            assertEquals(store.hashCode(), copy.hashCode());
        }
    }

    @Test
    void locationsAreOpenedByScheme() throws IOException {
        Path local = directory.resolve("x.zarr");
        Zarr.toZarr(Creation.asarray(NDArray.zeros(DType.INT32, 4, 4), ChunkSpec.of(2, 2)), local, 2, 2);
        assertSameArray(NDArray.zeros(DType.INT32, 4, 4), Zarr.fromZarr(local.toUri()).compute(), "file URI");
        assertEquals(DirectoryStore.open(local), Zarr.open(local.toUri()).store());
        IllegalArgumentException ftp = assertThrows(IllegalArgumentException.class, () -> Zarr.open(URI.create("ftp://example.org/x.zarr")));
        assertTrue(ftp.getMessage().contains("ftp://example.org/x.zarr") && ftp.getMessage().contains("http, https and file"), ftp.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Zarr.open(URI.create("x.zarr")));
        assertThrows(IllegalArgumentException.class, () -> HttpStore.open(URI.create("https://example.org/x.zarr?sig=1")));
        assertTrue(Zarr.open(local.toUri()).metadata() instanceof ArrayMetadataV2);
    }

    /**
     * A static file server that serves hidden files too and honours single {@code Range} requests
     * (206, or 416 past the end), counts its requests and can be told to fail the next ones.
     */
    private static final class RangeServer {
        private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-(\\d+)");

        final HttpServer server;
        final Path root;
        final AtomicInteger requests = new AtomicInteger();
        final AtomicInteger rangeRequests = new AtomicInteger();
        final AtomicInteger ignoredRanges = new AtomicInteger();
        private final AtomicInteger failuresLeft = new AtomicInteger();
        private volatile int failureStatus;

        RangeServer(Path root) throws IOException {
            this.root = root.toAbsolutePath().normalize();
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", this::handle);
            server.start();
        }

        String base() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
        }

        void fail(int times, int status) {
            requests.set(0);
            failureStatus = status;
            failuresLeft.set(times);
        }

        private void handle(HttpExchange exchange) throws IOException {
            try (exchange) {
                requests.incrementAndGet();
                boolean head = exchange.getRequestMethod().equals("HEAD");
                if (failuresLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
                    exchange.sendResponseHeaders(failureStatus, -1);
                    return;
                }
                Path file = root.resolve(exchange.getRequestURI().getPath().substring(1)).normalize();
                if (!file.startsWith(root) || !Files.isRegularFile(file)) {
                    exchange.sendResponseHeaders(404, -1);
                    return;
                }
                byte[] value = Files.readAllBytes(file);
                String range = exchange.getRequestHeaders().getFirst("Range");
                int status = 200;
                byte[] body = value;
                if (range != null) {
                    Matcher matcher = RANGE.matcher(range);
                    if (!matcher.matches()) {
                        ignoredRanges.incrementAndGet();
                    } else {
                        rangeRequests.incrementAndGet();
                        long first = Long.parseLong(matcher.group(1));
                        long last = Math.min(Long.parseLong(matcher.group(2)), value.length - 1);
                        if (first >= value.length) {
                            exchange.getResponseHeaders().set("Content-Range", "bytes */" + value.length);
                            exchange.sendResponseHeaders(416, -1);
                            return;
                        }
                        status = 206;
                        body = Arrays.copyOfRange(value, (int) first, (int) last + 1);
                        exchange.getResponseHeaders().set("Content-Range", "bytes " + first + "-" + last + "/" + value.length);
                    }
                }
                if (head) {
                    exchange.getResponseHeaders().set("Content-Length", Long.toString(body.length));
                    exchange.sendResponseHeaders(status, -1);
                    return;
                }
                exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }
}
