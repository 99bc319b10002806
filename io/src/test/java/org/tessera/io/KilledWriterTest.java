package org.tessera.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.zarr.Zarr;
import org.tessera.io.zarr.ZarrArray;
import org.tessera.ndarray.NDArray;

/**
 * Writer JVMs killed with SIGKILL (no shutdown hooks, no finally blocks) at random points of a
 * store: before the metadata, between chunks, and while chunks are in flight. After each kill every
 * chunk file is whole (byte for byte the file an uninterrupted store writes) or absent, and a
 * resumed store is byte-identical, file for file, to the uninterrupted one, with no temporary file
 * left. The trials run four writers at a time to keep the test near half a minute.
 */
class KilledWriterTest {
    private static final int TRIALS = 24;
    private static final int CHUNKS = 36;

    @TempDir
    Path directory;

    /** What one trial saw: whether its writer was still running when killed, and the chunks it left. */
    record Trial(int number, String killPoint, boolean killed, boolean metadataLeft, int chunksLeft, int partialFilesLeft) {
    }

    private static long chunkFiles(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(root)) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.matches("\\d+\\.\\d+")).count();
        }
    }

    /** Every regular file under {@code root} (temporary ones included) by its relative path, with its bytes. */
    private static Map<String, byte[]> files(Path root) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        if (!Files.isDirectory(root)) {
            return files;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                files.put(root.relativize(file).toString(), Files.readAllBytes(file));
            }
        }
        return files;
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void writersKilledAtRandomPointsLeaveWholeChunksAndResumeToTheSameBytes() throws Exception {
        // The store as an uninterrupted writer leaves it, written in this JVM.
        Path reference = directory.resolve("reference.zarr");
        Zarr.toZarr(SlowZarrWriter.source(), DirectoryStore.open(reference), "", SlowZarrWriter.metadata(), StoreOptions.defaults());
        Map<String, byte[]> uninterrupted = files(reference);
        assertEquals(CHUNKS + 1, uninterrupted.size(), "the chunks and .zarray: " + uninterrupted.keySet());
        NDArray expected = SlowZarrWriter.source().compute();

        SplittableRandom seeds = new SplittableRandom(2026);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<Trial>> futures = new ArrayList<>();
        for (int number = 0; number < TRIALS; number++) {
            int trial = number;
            SplittableRandom random = seeds.split();
            futures.add(pool.submit(() -> runTrial(trial, random, uninterrupted, expected)));
        }
        List<Trial> trials = new ArrayList<>();
        try {
            for (Future<Trial> future : futures) {
                trials.add(future.get());
            }
        } finally {
            pool.shutdownNow();
        }
        trials.forEach(trial -> System.out.println("KilledWriterTest " + trial));
        long killed = trials.stream().filter(Trial::killed).count();
        assertTrue(killed >= 20, killed + " of " + TRIALS + " writers were killed before they finished: " + trials);
        // The kills fell at many points: with no chunk, with some, with most.
        TreeSet<Integer> left = new TreeSet<>(trials.stream().filter(Trial::killed).map(Trial::chunksLeft).toList());
        assertTrue(left.size() >= 6 && left.first() <= 2 && left.last() >= 20, "chunks left by the killed writers: " + trials);
    }

    private Trial runTrial(int number, SplittableRandom random, Map<String, byte[]> uninterrupted, NDArray expected) throws Exception {
        Path root = directory.resolve("trial-" + number + ".zarr");
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process writer = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", classPath,
                SlowZarrWriter.class.getName(), root.toString()).redirectErrorStream(true).start();
        String killPoint;
        try (BufferedReader output = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
            String first = output.readLine();
            assertEquals("started", first, "trial " + number + ": the writer said " + first);
            // A random point: a delay from the start (often before the metadata or the first chunk),
            // or a random number of chunks on disk plus a delay inside the next write's wait.
            int target = random.nextInt(-6, CHUNKS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            if (target < 0) {
                long delay = random.nextLong(400);
                killPoint = delay + " ms after start";
                Thread.sleep(delay);
            } else {
                while (chunkFiles(root) < target && writer.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(2);
                }
                long delay = random.nextLong(60);
                killPoint = target + " chunks + " + delay + " ms";
                Thread.sleep(delay);
            }
            boolean killed = writer.isAlive();
            writer.destroyForcibly();
            assertTrue(writer.waitFor(30, TimeUnit.SECONDS), "trial " + number + ": the writer outlived SIGKILL");
            if (!killed) {
                assertEquals(0, writer.exitValue(), "trial " + number + ": the writer ended on its own, with a failure");
            }
            return check(number, killPoint, killed, root, uninterrupted, expected);
        } finally {
            writer.destroyForcibly();
        }
    }

    private static Trial check(int number, String killPoint, boolean killed, Path root, Map<String, byte[]> uninterrupted, NDArray expected)
            throws IOException {
        String trial = "trial " + number + " (killed at " + killPoint + ")";
        // Every file left is a temporary file or exactly the file the uninterrupted store has.
        int chunksLeft = 0;
        int partialFilesLeft = 0;
        for (Map.Entry<String, byte[]> file : files(root).entrySet()) {
            String name = Path.of(file.getKey()).getFileName().toString();
            if (name.startsWith(".") && name.endsWith(".partial")) {
                partialFilesLeft++;
                continue;
            }
            assertTrue(uninterrupted.containsKey(file.getKey()), trial + ": unexpected file " + file.getKey());
            assertArrayEquals(uninterrupted.get(file.getKey()), file.getValue(), trial + ": " + file.getKey() + " is torn");
            chunksLeft += name.equals(".zarray") ? 0 : 1;
        }
        boolean metadataLeft = Files.exists(root.resolve(".zarray"));
        if (metadataLeft) {
            assertEquals(chunksLeft, ChunkedStoreTest.assertEveryChunkAbsentOrCorrect(Zarr.open(root), expected), trial);
        } else {
            assertEquals(0, chunksLeft, trial + ": chunks without metadata");
        }

        StoreReport resumed = Zarr.toZarr(SlowZarrWriter.source(), DirectoryStore.open(root), "", SlowZarrWriter.metadata(),
                StoreOptions.defaults().withResume(true));
        assertEquals(CHUNKS - chunksLeft, resumed.chunksWritten(), trial);
        Map<String, byte[]> after = files(root);
        assertEquals(uninterrupted.keySet(), after.keySet(), trial + ": files after resume (temporary ones must be gone)");
        for (Map.Entry<String, byte[]> file : uninterrupted.entrySet()) {
            assertArrayEquals(file.getValue(), after.get(file.getKey()), trial + ": " + file.getKey() + " after resume");
        }
        ZarrArray resumedArray = Zarr.open(root);
        assertEquals(CHUNKS, ChunkedStoreTest.assertEveryChunkAbsentOrCorrect(resumedArray, expected), trial);
        return new Trial(number, killPoint, killed, metadataLeft, chunksLeft, partialFilesLeft);
    }
}
