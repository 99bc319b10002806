package org.tessera.io.zarr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.io.TestArrays.assertSameArray;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.io.InstrumentedStore;
import org.tessera.io.StoreOptions;
import org.tessera.io.store.S3Store;
import org.tessera.io.store.S3TestServer;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.npy.Npy;

/** Zarr in S3 (s3proxy on loopback): Tessera and zarr-python (over boto3) read each other's stores. */
class ZarrS3Test {
    private static S3TestServer server;
    private static String script;

    @TempDir
    Path directory;

    @BeforeAll
    static void startServer(@TempDir Path backend) throws Exception {
        server = S3TestServer.start(backend);
        server.createBucket("interop");
        try (InputStream in = ZarrS3Test.class.getResourceAsStream("s3_zarr.py")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    private static ZarrPython.Result python(String... arguments) throws IOException, InterruptedException {
        ZarrPython.assumeAvailable();
        ZarrPython.Result boto = ZarrPython.run("import boto3", List.of());
        assertEquals(0, boto.exitCode(), "the S3 interoperability test needs boto3 for zarr-python (apt-get install python3-boto3): " + boto.output());
        return ZarrPython.run(script, List.of(arguments), server.environment());
    }

    @Test
    void zarrPythonReadsWhatTesseraWroteToS3() throws Exception {
        ChunkedArray source = Creation.random(5, Creation.Distribution.UNIFORM, new long[] {70, 45}, ChunkSpec.of(25, 20));
        S3Store store = server.store("interop", "from-tessera/x.zarr");
        ArrayMetadataV2 metadata = ArrayMetadataV2.of(new long[] {70, 45}, new long[] {16, 16}, source.dtype());
        Zarr.toZarr(source, store, "", metadata, StoreOptions.defaults());
        Path expected = directory.resolve("expected.npy");
        Npy.write(expected, source.compute());
        ZarrPython.Result result = python("read", "interop", "from-tessera/x.zarr", expected.toString());
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("read 15 chunks"), result.output());
    }

    @Test
    void tesseraReadsWhatZarrPythonWroteToS3() throws Exception {
        ZarrPython.Result written = python("write", "interop", "from-python/data.zarr");
        assertEquals(0, written.exitCode(), written.output());
        S3Store store = server.store("interop", "from-python/data.zarr");
        ZarrGroup group = ZarrGroup.open(store, "");
        assertEquals(Set.of("grid", "counts"), Set.copyOf(group.memberNames()));
        ZarrArray grid = ZarrArray.open(store, "grid");
        assertEquals(List.of(16L, 20L), java.util.Arrays.stream(grid.chunkShape()).boxed().toList());
        NDArray values = Zarr.fromZarr(grid).compute();
        double[] sums = java.util.Arrays.stream(written.output().strip().split("\\s+")).skip(1).mapToDouble(Double::parseDouble).toArray();
        assertEquals(sums[0], Zarr.fromZarr(grid).sum().compute().getDouble(), 1e-9 * Math.abs(sums[0]));
        assertEquals(sums[1], Zarr.fromZarr(ZarrArray.open(store, "counts")).sum().compute().getDouble());
        // Element by element against the recipe the script wrote.
        for (int i = 0; i < 61; i++) {
            for (int j = 0; j < 47; j++) {
                assertEquals((i * 47 + j) / 7.0, values.getDouble(i, j), "grid[" + i + ", " + j + "]");
            }
        }
    }

    @Test
    void aStoreCutShortInS3ResumesWithTheMissingChunksOnly() throws Exception {
        ChunkedArray source = Creation.random(11, Creation.Distribution.UNIFORM, new long[] {60, 60}, ChunkSpec.of(10, 10));
        InstrumentedStore store = new InstrumentedStore(server.store("interop", "resumed.zarr"));
        ArrayMetadataV2 metadata = ArrayMetadataV2.of(new long[] {60, 60}, new long[] {10, 10}, source.dtype());
        StoreOptions options = StoreOptions.defaults().withScheduler(org.tessera.graph.schedule.ThreadedScheduler.builder().workers(2).build());
        store.failAfterChunkWrites(20);
        assertThrows(org.tessera.graph.schedule.TaskFailedException.class, () -> Zarr.toZarr(source, store, "", metadata, options));
        long present = server.store("interop", "resumed.zarr").list("").stream().filter(key -> !key.startsWith(".")).count();
        assertTrue(present >= 19 && present <= 20, present + " chunks present after the failure");

        store.failAfterChunkWrites(Integer.MAX_VALUE);
        store.resetCounts();
        org.tessera.io.StoreReport resumed = Zarr.toZarr(source, store, "", metadata, options.withResume(true));
        assertEquals(36 - present, resumed.chunksWritten());
        assertEquals(36 - present, store.writes().size(), "only the missing chunks are written: " + store.writes().keySet());
        assertSameArray(source.compute(), Zarr.fromZarr(ZarrArray.open(server.store("interop", "resumed.zarr"), "")).compute(), "resumed");
    }

    @Test
    void anS3UriOpensWithTheAwsConfigurationOfTheJvm() throws Exception {
        ChunkedArray source = Creation.random(9, Creation.Distribution.NORMAL, new long[] {30, 8}, ChunkSpec.of(10, 8));
        String[] names = {"aws.endpointUrl", "aws.accessKeyId", "aws.secretAccessKey"};
        String[] values = {server.endpoint(), S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY};
        for (int i = 0; i < names.length; i++) {
            System.setProperty(names[i], values[i]);
        }
        try {
            URI location = URI.create("s3://interop/by-uri/normal.zarr");
            Zarr.toZarr(source, location, 7, 8);
            assertSameArray(source.compute(), Zarr.fromZarr(location).compute(), "by URI");
        } finally {
            for (String name : names) {
                System.clearProperty(name);
            }
        }
    }
}
