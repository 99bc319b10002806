package org.tessera.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.metrics.StoreTraffic;
import org.tessera.graph.schedule.TaskFailedException;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.io.StoreOptions;
import org.tessera.io.StoreReport;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.store.S3Store;
import org.tessera.io.zarr.ArrayMetadataV2;
import org.tessera.io.zarr.Zarr;
import org.tessera.io.zarr.ZarrArray;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * The Spark scheduler on a real standalone cluster: a master and two one-core workers on loopback,
 * each executor a JVM of its own, so every task, block and failure crosses a process boundary.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkStandaloneClusterTest {
    private static Path directory;
    private static StandaloneCluster cluster;
    private static SparkSession session;
    private static SparkScheduler spark;

    @BeforeAll
    static void startCluster() throws IOException, InterruptedException {
        // One Spark context per JVM: the embedded one of the other tests makes way.
        LocalSpark.stop();
        directory = Path.of("target", "standalone-cluster").toAbsolutePath();
        deleteRecursively(directory);
        Files.createDirectories(directory);
        cluster = StandaloneCluster.start(directory, 2);
        session = SparkSession.builder()
                .master(cluster.masterUrl())
                .appName("tessera-standalone-test")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.executor.memory", "512m")
                .config("spark.executor.cores", "1")
                .config("spark.cores.max", "2")
                .config("spark.task.maxFailures", "4")
                .config("spark.executor.extraClassPath", StandaloneCluster.classPath())
                .config("spark.executor.extraJavaOptions", StandaloneCluster.javaOptions())
                .getOrCreate();
        // The driver counts as one executor in this list.
        StandaloneCluster.waitFor("two executors to register with the driver",
                () -> session.sparkContext().statusTracker().getExecutorInfos().length >= 3);
        spark = SparkScheduler.of(session);
    }

    @AfterAll
    static void stopCluster() {
        try {
            if (session != null) {
                session.stop();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    @Test
    @Order(1)
    void transposeMeanEqualsTheThreadedScheduler() {
        ArrayAssertions.assertSameArray(ReducedWorkloads.transposeMean(new ThreadedScheduler()), ReducedWorkloads.transposeMean(spark));
    }

    @Test
    @Order(1)
    void gramEqualsTheThreadedScheduler() {
        ArrayAssertions.assertSameArray(ReducedWorkloads.gram(new ThreadedScheduler()), ReducedWorkloads.gram(spark));
    }

    @Test
    @Order(1)
    void rechunkSumEqualsTheThreadedScheduler() {
        ArrayAssertions.assertSameArray(ReducedWorkloads.rechunkSum(new ThreadedScheduler()), ReducedWorkloads.rechunkSum(spark));
    }

    @Test
    @Order(1)
    void taskEventsComeFromTheCoreSlotsOfTheExecutors() {
        RecordingCallback recorder = new RecordingCallback();
        ArrayAssertions.assertSameArray(ReducedWorkloads.gram(new ThreadedScheduler()), ReducedWorkloads.gram(spark.withCallback(recorder)));
        assertEquals(List.of("executor 0 slot 0", "executor 1 slot 0"), recorder.workers(), "the driver runs no tasks on a cluster");
        recorder.assertEveryTaskRanOnce(true);
    }

    @Test
    @Order(2)
    void executorsWriteAndReadZarrChunksOnTheSharedPath() throws IOException {
        ChunkedArray x = Creation.random(7, Creation.Distribution.UNIFORM, new long[] {60, 40}, ChunkSpec.of(20, 20));
        Path target = directory.resolve("doubled.zarr");
        ArrayMetadataV2 metadata = ArrayMetadataV2.of(new long[] {60, 40}, new long[] {20, 20}, DType.FLOAT64);
        StoreReport report = Zarr.toZarr(x.multiply(2), DirectoryStore.open(target), "", metadata, StoreOptions.defaults().withScheduler(spark));
        assertEquals(6, report.chunksWritten());
        for (int row = 0; row < 3; row++) {
            for (int column = 0; column < 2; column++) {
                assertTrue(Files.isRegularFile(target.resolve(row + "." + column)), "chunk " + row + "." + column + " written");
            }
        }
        NDArray readBack = Zarr.fromZarr(target).add(1).compute(spark);
        ArrayAssertions.assertSameArray(x.multiply(2).add(1).compute(new ThreadedScheduler()), readBack);
    }

    /**
     * Issue 22, "On the cluster": the executors read and write a Zarr array in S3 themselves, with
     * the endpoint and keys their store carries. {@link StoreTraffic} counts what this JVM's stores
     * moved, so the driver's counters show what the driver itself moved: the arrays' metadata, never
     * a chunk. The same store run by the ThreadedScheduler moves every chunk through them, which
     * shows that the probe sees chunks when they do pass through the driver.
     */
    @Test
    @Order(2)
    void executorsReadAndWriteZarrArraysInS3WithoutTheDriver() throws Exception {
        try (S3ServerProcess server = S3ServerProcess.start(directory.resolve("s3"), directory.resolve("s3-server.log"))) {
            server.createBucket("cluster");
            // The endpoint and keys travel with the store into the tasks: the executors read no configuration of their own.
            S3Store store = server.store("cluster", "issue-22");
            Path stored = server.bucketDirectory("cluster").resolve("issue-22");
            long[] shape = {400, 64};
            ChunkedArray x = Creation.random(22, Creation.Distribution.NORMAL, shape, ChunkSpec.of(50, 16));

            // The cluster writes the input: 32 chunks, each by a task on an executor.
            ArrayMetadataV2 inputMetadata = ArrayMetadataV2.of(shape, new long[] {50, 16}, DType.FLOAT64);
            Traffic writing = Traffic.during(() -> Zarr.toZarr(x, store, "x", inputMetadata, StoreOptions.defaults().withScheduler(spark)));
            long inputBytes = chunkBytes(stored.resolve("x"), 32);
            writing.assertOnlyMetadata(metadataBytes(stored), "writing x on the cluster (" + inputBytes + " bytes of chunks)");

            // The cluster reads it back from S3, standardises its columns (a reduction over every row
            // block, then a blockwise step) and writes the result in chunks of another shape.
            ArrayMetadataV2 outputMetadata = ArrayMetadataV2.of(shape, new long[] {100, 32}, DType.FLOAT64);
            ChunkedArray fromS3 = Zarr.fromZarr(ZarrArray.open(store, "x"));
            StoreReport[] report = new StoreReport[1];
            Traffic computing = Traffic.during(() -> report[0] = Zarr.toZarr(standardised(fromS3), store, "z", outputMetadata,
                    StoreOptions.defaults().withScheduler(spark)));
            assertEquals(8, report[0].chunksWritten());
            long outputBytes = chunkBytes(stored.resolve("z"), 8);
            computing.assertOnlyMetadata(metadataBytes(stored),
                    "standardising x on the cluster (" + inputBytes + " bytes of chunks read, " + outputBytes + " written)");

            // The probe is live: the same store on the driver's threads moves every chunk through this JVM's store client.
            Traffic local = Traffic.during(() -> Zarr.toZarr(standardised(fromS3), store, "z-threaded", outputMetadata, StoreOptions.defaults()));
            assertTrue(local.read() >= inputBytes && local.written() >= outputBytes,
                    "the ThreadedScheduler read " + local.read() + " and wrote " + local.written() + " bytes; the chunks hold "
                            + inputBytes + " and " + outputBytes);

            NDArray expected = standardised(x).compute(new ThreadedScheduler());
            ArrayAssertions.assertSameArray(expected, Zarr.fromZarr(ZarrArray.open(store, "z")).compute(new ThreadedScheduler()));
            ArrayAssertions.assertSameArray(expected, Zarr.fromZarr(ZarrArray.open(store, "z-threaded")).compute(new ThreadedScheduler()));
        }
    }

    @Test
    @Order(3)
    void taskThatAlwaysFailsOnAnExecutorIsNamedOnTheDriver() {
        TaskFunction failing = TaskFunction.named("refuse", arguments -> {
            throw new UnsupportedOperationException("block " + arguments.getFirst() + " refuses");
        });
        TaskGraph graph = TaskGraph.builder().put(Key.of("refusing", 4), Task.call(failing, 4)).build();
        TaskFailedException failure = assertThrows(TaskFailedException.class, () -> spark.get(graph, Key.of("refusing", 4)));
        assertEquals(Key.of("refusing", 4), failure.key());
        assertTrue(failure.getMessage().contains("block 4 refuses"), failure.getMessage());
    }

    @Test
    @Order(9)
    void killingAWorkerMidJobStillGivesTheCorrectResult() throws Exception {
        Path markers = Files.createDirectories(directory.resolve("task-starts"));
        String markerDirectory = markers.toString();
        int blocks = 6;
        // Each attempt leaves a file naming its executor's process, then works for a second: long
        // enough to kill a worker while its executor is busy.
        TaskFunction slow = TaskFunction.named("slow", arguments -> {
            int block = (Integer) arguments.getFirst();
            Files.createFile(Path.of(markerDirectory, "block-" + block + "-pid-" + ProcessHandle.current().pid() + "-" + System.nanoTime()));
            Thread.sleep(1000);
            return block * 10;
        });
        TaskGraph.Builder graph = TaskGraph.builder();
        List<Key> parts = new ArrayList<>();
        for (int block = 0; block < blocks; block++) {
            graph.put(Key.of("slow", block), Task.call(slow, block));
            parts.add(Key.of("slow", block));
        }
        graph.put(Key.of("total"), Task.call(TaskFunction.named("total", arguments -> ((List<?>) arguments.getFirst()).stream().mapToInt(value -> (Integer) value).sum()), parts));

        CompletableFuture<Object> total = CompletableFuture.supplyAsync(() -> spark.get(graph.build(), Key.of("total")));
        StandaloneCluster.waitFor("an executor of worker 1 to start a task", () -> startedOn(markers, cluster.executorProcessIds(1)));
        cluster.killWorker(1);

        assertEquals(10 * (0 + 1 + 2 + 3 + 4 + 5), total.get(120, TimeUnit.SECONDS));
        assertTrue(countFiles(markers) > blocks, "the task lost with the worker ran again: " + countFiles(markers) + " attempts for " + blocks + " blocks");
    }

    /** Each column of {@code x} less its mean, over its standard deviation. */
    private static ChunkedArray standardised(ChunkedArray x) {
        return x.subtract(x.mean(0)).divide(x.std(0L, 0));
    }

    /** The bytes of the {@code count} chunks (files named by digits) of the Zarr array in {@code array}, failing if there are not exactly that many. */
    private static long chunkBytes(Path array, int count) throws IOException {
        try (Stream<Path> files = Files.list(array)) {
            List<Path> chunks = files.filter(file -> file.getFileName().toString().matches("\\d+(\\.\\d+)*")).toList();
            assertEquals(count, chunks.size(), "chunks of " + array + ": " + chunks);
            long bytes = 0;
            for (Path chunk : chunks) {
                bytes += Files.size(chunk);
            }
            return bytes;
        }
    }

    /** The bytes of every Zarr metadata object (.zarray, .zgroup, .zattrs) under {@code root}: all that the driver may move. */
    private static long metadataBytes(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            long bytes = 0;
            for (Path file : files.filter(path -> path.getFileName().toString().startsWith(".z")).toList()) {
                bytes += Files.size(file);
            }
            return bytes;
        }
    }

    /** What this JVM's stores read and wrote while an action ran (StoreTraffic's counters only grow). */
    private record Traffic(long read, long written) {
        interface Action {
            void run() throws Exception;
        }

        static Traffic during(Action action) throws Exception {
            long readBefore = StoreTraffic.bytesRead();
            long writtenBefore = StoreTraffic.bytesWritten();
            action.run();
            return new Traffic(StoreTraffic.bytesRead() - readBefore, StoreTraffic.bytesWritten() - writtenBefore);
        }

        void assertOnlyMetadata(long metadataBytes, String what) {
            assertTrue(read <= metadataBytes && written <= metadataBytes, "the driver's stores read " + read + " and wrote " + written
                    + " bytes while " + what + ", more than the " + metadataBytes + " bytes of Zarr metadata");
        }
    }

    private static boolean startedOn(Path markers, Set<Long> processIds) {
        try (Stream<Path> files = Files.list(markers)) {
            return files.map(file -> file.getFileName().toString().split("-")[3]).anyMatch(pid -> processIds.contains(Long.parseLong(pid)));
        } catch (IOException unreadable) {
            return false;
        }
    }

    private static long countFiles(Path markers) {
        try (Stream<Path> files = Files.list(markers)) {
            return files.count();
        } catch (IOException unreadable) {
            return 0;
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
