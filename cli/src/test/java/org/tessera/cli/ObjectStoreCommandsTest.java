package org.tessera.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.SimpleFileServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.io.StoreOptions;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.store.S3Settings;
import org.tessera.io.store.S3Store;
import org.tessera.io.store.S3TestServer;
import org.tessera.io.zarr.ArrayMetadataV2;
import org.tessera.io.zarr.ArrayMetadataV3;
import org.tessera.io.zarr.Zarr;
import org.tessera.io.zarr.ZarrGroup;
import org.tessera.ndarray.dtype.DType;

/**
 * {@code demo --store s3://...} and {@code info s3://...} (and {@code https://...}) against a real
 * S3 server on loopback (s3proxy, in this JVM but in a class loader of its own, see
 * {@link S3ServerLoader}), configured as a user would: the {@code aws.*} system properties.
 */
class ObjectStoreCommandsTest {
    private static final List<String> PROPERTIES = List.of("aws.endpointUrl", "aws.accessKeyId", "aws.secretAccessKey", "aws.region");

    @TempDir
    static Path serverDirectory;
    private static S3ServerLoader server;

    @BeforeAll
    static void startServer() throws Exception {
        server = S3ServerLoader.start(serverDirectory.resolve("s3"));
        server.createBucket("bucket");
        System.setProperty("aws.endpointUrl", server.endpoint());
        System.setProperty("aws.accessKeyId", S3TestServer.ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", S3TestServer.SECRET_KEY);
        System.setProperty("aws.region", "us-east-1");
    }

    @AfterAll
    static void stopServer() throws Exception {
        PROPERTIES.forEach(System::clearProperty);
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theDemoKeepsItsStoreInTheBucketAndInfoDescribesIt(@TempDir Path files) throws IOException {
        CommandLineRun demo = CommandLineRun.of("demo", "--size", "1MB", "--store", "s3://bucket/demo", "--keep", "-q", "--dir", files.toString());
        assertEquals(0, demo.status(), demo.out() + demo.err());
        assertTrue(demo.out().startsWith("A: 125 x 1,000 float64 (1.00 MB) in blocks of 125 rows, Zarr v2 in s3://bucket/demo; "), demo.out());
        assertTrue(demo.out().contains(": ok\n"), demo.out());
        assertTrue(demo.out().contains("store    s3://bucket/demo/A.zarr (kept)\n"), demo.out());
        Path objects = server.bucketDirectory("bucket").resolve("demo/A.zarr");
        assertTrue(Files.isRegularFile(objects.resolve(".zarray")), "the metadata is an object of the bucket");
        assertEquals(1_000_000, Files.size(objects.resolve("0.0")), "the one chunk is an object of the bucket");
        // The diagram and the profile go to --dir, not to the bucket.
        assertTrue(Files.readString(files.resolve("A.svg")).startsWith("<svg"));
        assertTrue(Files.isRegularFile(files.resolve("profile.json")));

        CommandLineRun info = CommandLineRun.of("info", "s3://bucket/demo/A.zarr");
        assertEquals(0, info.status(), info.err());
        assertEquals("Zarr v2 array s3://bucket/demo/A.zarr", info.out().lines().findFirst().orElseThrow());
        assertTrue(info.out().contains("  shape       (125, 1000)\n  dtype       float64\n  chunks      (125, 1000)\n  compressor  none\n"), info.out());
        assertTrue(info.out().contains("  on disk     1.00 MB\n"), info.out());
        assertTrue(info.out().contains("  blocks      1 (1 x 1)\n"), info.out());

        CommandLineRun again = CommandLineRun.of("demo", "--size", "1MB", "--store", "s3://bucket/demo", "--keep", "-q", "--dir", files.toString());
        assertTrue(again.out().contains("write    none: the store kept in s3://bucket/demo already holds A"), again.out() + again.err());
        assertEquals(checksumLine(demo), checksumLine(again));
    }

    @Test
    void withoutKeepTheDemoDeletesTheObjectsItWrote() throws IOException {
        CommandLineRun demo = CommandLineRun.of("demo", "--size", "1MB", "--store", "s3://bucket/gone", "-q");
        assertEquals(0, demo.status(), demo.out() + demo.err());
        assertTrue(demo.out().contains(": ok\n"), demo.out());
        assertTrue(demo.out().contains("store    deleted (--keep keeps it)"), demo.out());
        assertEquals(List.of(), store("s3://bucket/gone").list(""));
        assertEquals(List.of(), regularFilesUnder(server.bucketDirectory("bucket").resolve("gone")));
        // Without --dir, the diagram and the profile go to a new temporary directory.
        Path diagram = Path.of(demo.out().lines().filter(line -> line.startsWith("diagram  ")).findFirst().orElseThrow().substring("diagram  ".length()));
        assertTrue(diagram.getFileName().toString().equals("A.svg") && diagram.getParent().getFileName().toString().startsWith("tessera-demo-"), diagram.toString());
        assertTrue(Files.isRegularFile(diagram));
    }

    @Test
    void theDemoRunsOnSparkFromTheBucket(@TempDir Path files) {
        CommandLineRun demo = CommandLineRun.of("demo", "--size", "1MB", "--store", "s3://bucket/spark", "--scheduler", "spark", "--master", "local[2]",
                "-q", "--dir", files.toString());
        assertEquals(0, demo.status(), demo.out() + demo.err());
        assertTrue(demo.out().contains("scheduler Spark local[2], "), demo.out());
        assertTrue(demo.out().contains(": ok\n"), demo.out());
        // The same matrix, so the same checksum as on threads.
        CommandLineRun threads = CommandLineRun.of("demo", "--size", "1MB", "--dir", files.resolve("threads").toString(), "-q");
        assertEquals(checksumLine(threads), checksumLine(demo));
    }

    @Test
    void infoListsTheArraysOfAGroupInTheBucketWithTheirSizes() throws IOException {
        S3Store store = store("s3://bucket/group.zarr");
        ZarrGroup root = ZarrGroup.create(store, "", 2);
        root.createGroup("inner");
        ChunkedArray ones = Creation.ones(new long[] {40, 30}, DType.FLOAT32, ChunkSpec.of(20, 30));
        Zarr.toZarr(ones, store, "a", ArrayMetadataV2.of(ones.shape(), new long[] {20, 30}, DType.FLOAT32).withCompressor(null), StoreOptions.defaults());
        Zarr.toZarr(ones, store, "inner/b", ArrayMetadataV2.of(ones.shape(), new long[] {40, 10}, DType.FLOAT32), StoreOptions.defaults());
        CommandLineRun run = CommandLineRun.of("info", "s3://bucket/group.zarr");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().startsWith("Zarr v2 group s3://bucket/group.zarr: 2 members (a, inner), 2 arrays in all, "), run.out());
        // Two uncompressed chunks of 2,400 bytes, and the array's metadata.
        long metadata = Files.size(server.bucketDirectory("bucket").resolve("group.zarr/a/.zarray"));
        assertTrue(run.out().contains("/a  (Zarr v2)\n  shape       (40, 30)\n"), run.out());
        assertTrue(run.out().contains("  on disk     " + ByteSize.format(4_800 + metadata) + "\n"), run.out());
        assertTrue(run.out().contains("/inner/b  (Zarr v2)\n  shape       (40, 30)\n  dtype       float32\n  chunks      (40, 10)\n"), run.out());
    }

    @Test
    void infoReadsAnArrayOverHttpWithItsSizeUnknown(@TempDir Path directory) throws IOException {
        // Zarr v3: the JDK's file server keeps hidden files such as .zarray to itself.
        ChunkedArray ones = Creation.ones(new long[] {100, 60}, DType.FLOAT32, ChunkSpec.of(30, 25));
        Zarr.toZarr(ones, DirectoryStore.open(directory.resolve("x.zarr")), "", ArrayMetadataV3.of(ones.shape(), new long[] {30, 25}, DType.FLOAT32),
                StoreOptions.defaults());
        HttpServer http = SimpleFileServer.createFileServer(new InetSocketAddress("127.0.0.1", 0), directory, SimpleFileServer.OutputLevel.NONE);
        http.start();
        try {
            String url = "http://127.0.0.1:" + http.getAddress().getPort() + "/x.zarr";
            CommandLineRun run = CommandLineRun.of("info", url);
            assertEquals(0, run.status(), run.err());
            assertEquals("Zarr v3 array " + url, run.out().lines().findFirst().orElseThrow());
            assertTrue(run.out().contains("  shape       (100, 60)\n  dtype       float32\n  chunks      (30, 25)\n"), run.out());
            assertTrue(run.out().contains("  on disk     unknown (HTTP has no listing)\n"), run.out());

            CommandLineRun nothing = CommandLineRun.of("info", "http://127.0.0.1:" + http.getAddress().getPort() + "/nothing.zarr");
            assertEquals(2, nothing.status(), nothing.err());
            assertEquals("http://127.0.0.1:" + http.getAddress().getPort() + "/nothing.zarr holds no Zarr array or group: it has no .zarray, .zgroup or zarr.json",
                    nothing.firstErrorLine());
        } finally {
            http.stop(0);
        }
    }

    @Test
    void aMissingBucketIsOneLineNamingTheUri() throws ReflectiveOperationException {
        CommandLineRun run = CommandLineRun.of("info", "s3://no-such-bucket/x");
        assertEquals(1, run.status(), run.out() + run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.firstErrorLine().startsWith("tessera info: cannot read s3://no-such-bucket/x: "), run.err());
        assertTrue(run.firstErrorLine().contains("the bucket does not exist at the endpoint " + server.endpoint()), run.err());
    }

    @Test
    void aPrefixWithNoArrayAndAStoreThatCannotBeWrittenAreUsageErrors() {
        CommandLineRun empty = CommandLineRun.of("info", "s3://bucket/empty");
        assertEquals(2, empty.status(), empty.err());
        assertEquals("s3://bucket/empty holds no Zarr array or group: it has no .zarray, .zgroup or zarr.json", empty.firstErrorLine());

        CommandLineRun http = CommandLineRun.of("demo", "--size", "1MB", "--store", "https://example.org/data", "-q");
        assertEquals(2, http.status(), http.err());
        assertEquals("--store must be a local directory or an s3:// URI, got https://example.org/data (an HTTP store is read-only)", http.firstErrorLine());

        CommandLineRun master = CommandLineRun.of("demo", "--master", "local[2]");
        assertEquals(2, master.status(), master.err());
        assertEquals("--master needs --scheduler spark", master.firstErrorLine());
    }

    /** The store at {@code location} as the commands open it: configured by the aws.* properties. */
    private static S3Store store(String location) {
        return S3Store.open(URI.create(location), S3Settings.fromEnvironment());
    }

    private static List<Path> regularFilesUnder(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    private static String checksumLine(CommandLineRun run) {
        return run.out().lines().filter(line -> line.startsWith("checksum")).findFirst().orElseThrow(() -> new AssertionError(run.out() + run.err()));
    }
}
