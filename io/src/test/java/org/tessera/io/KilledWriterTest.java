package org.tessera.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.zarr.ZarrArray;
import org.tessera.io.zarr.Zarr;
import org.tessera.ndarray.NDArray;

/** A store whose JVM is killed (SIGKILL, no shutdown hooks) mid-way leaves only complete chunks, and resume finishes it. */
class KilledWriterTest {
    @TempDir
    Path directory;

    private static long chunkFiles(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(root)) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.matches("\\d+\\.\\d+")).count();
        }
    }

    @Test
    void killingTheWriterProcessLeavesEveryChunkAbsentOrCorrectAndResumeCompletesTheStore() throws Exception {
        Path root = directory.resolve("killed.zarr");
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process writer = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", classPath, SlowZarrWriter.class.getName(), root.toString())
                .redirectErrorStream(true).redirectOutput(directory.resolve("writer.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (chunkFiles(root) < 8 && writer.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertTrue(writer.isAlive(), "the writer ended before it could be killed: " + Files.readString(directory.resolve("writer.log")));
        writer.destroyForcibly();
        assertTrue(writer.waitFor(30, TimeUnit.SECONDS));

        NDArray expected = SlowZarrWriter.source().compute();
        ZarrArray interrupted = Zarr.open(root);
        int present = ChunkedStoreTest.assertEveryChunkAbsentOrCorrect(interrupted, expected);
        assertTrue(present >= 8 && present < 36, present + " chunks present");

        StoreReport resumed = Zarr.toZarr(SlowZarrWriter.source(), DirectoryStore.open(root), "", SlowZarrWriter.metadata(),
                StoreOptions.defaults().withResume(true));
        assertEquals(36 - present, resumed.chunksWritten());
        assertEquals(36, ChunkedStoreTest.assertEveryChunkAbsentOrCorrect(Zarr.open(root), expected));
        try (Stream<Path> files = Files.list(root)) {
            List<String> partial = files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".partial")).toList();
            assertEquals(List.of(), partial, "temporary files left after resume");
        }
    }
}
