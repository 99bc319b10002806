package org.tessera.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Serial;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.store.Store;
import org.tessera.io.zarr.ArrayMetadataV2;
import org.tessera.io.zarr.Zarr;
import org.tessera.ndarray.dtype.DType;

/**
 * A disk that fills up in the middle of a store: the store fails with one exception naming the
 * store, the chunk key and the cause; every chunk written before is whole, no chunk is torn, an
 * array stored earlier is untouched, and once there is room a resume completes the store to the
 * same bytes as a store that never failed. Two disks: a store whose writes fail once N bytes are
 * taken (always), and a real 1 MiB tmpfs (where this machine lets the test mount one).
 */
class FullDiskTest {
    private static final long[] SHAPE = {400, 400};
    /** 64 uncompressed float64 chunks of 50 x 50, 20,000 bytes each: 1.28 MB in all. */
    private static final long[] CHUNK = {50, 50};
    private static final int CHUNKS = 64;

    @TempDir
    Path directory;

    private static ChunkedArray source() {
        return Creation.random(5, Creation.Distribution.UNIFORM, SHAPE, ChunkSpec.of(100, 100));
    }

    private static ArrayMetadataV2 metadata() {
        return ArrayMetadataV2.of(SHAPE, CHUNK, DType.FLOAT64).withCompressor(null);
    }

    private static StoreOptions twoWorkers() {
        return StoreOptions.defaults().withScheduler(ThreadedScheduler.builder().workers(2).build());
    }

    /** Every regular file under {@code root} (temporary ones included) by its relative path, with its bytes. */
    private static Map<String, byte[]> files(Path root) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                files.put(root.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
            }
        }
        return files;
    }

    /** The store that never failed: "earlier" (a small array stored first) and "big", in a directory of its own. */
    private Map<String, byte[]> reference() throws IOException {
        Path root = directory.resolve("reference");
        DirectoryStore store = DirectoryStore.open(root);
        storeEarlierArray(store);
        Zarr.toZarr(source(), store, "big", metadata(), StoreOptions.defaults());
        return files(root);
    }

    private static void storeEarlierArray(Store store) throws IOException {
        ChunkedArray small = Creation.random(6, Creation.Distribution.NORMAL, new long[] {30, 30}, ChunkSpec.of(10, 10));
        Zarr.toZarr(small, store, "earlier", ArrayMetadataV2.of(new long[] {30, 30}, new long[] {10, 10}, DType.FLOAT64), StoreOptions.defaults());
    }

    /** The exception the caller gets says on its own which store, array and chunk failed, and why. */
    private static void assertClearMessage(Exception failure, DirectoryStore disk) {
        String message = failure.getMessage();
        assertTrue(message.contains(disk.describe()) && message.contains("array \"big\"") && message.matches("(?s).*cannot write chunk big/\\d+\\.\\d+: .*")
                && message.contains("No space left on device"), message);
    }

    /**
     * After the failure: the files are a subset of the reference with the same bytes (so "earlier"
     * is whole and no chunk is torn), no temporary file is left, and some but not all chunks of "big"
     * were written. Returns how many were.
     */
    private static int assertNothingTorn(Path root, Map<String, byte[]> reference) throws IOException {
        int chunks = 0;
        for (Map.Entry<String, byte[]> file : files(root).entrySet()) {
            String name = file.getKey();
            assertTrue(reference.containsKey(name), "a file the store never writes: " + name);
            assertArrayEquals(reference.get(name), file.getValue(), name + " differs from the store that never failed");
            chunks += name.startsWith("big/") && !name.endsWith(".zarray") ? 1 : 0;
        }
        for (Map.Entry<String, byte[]> file : reference.entrySet()) {
            if (file.getKey().startsWith("earlier/") || file.getKey().equals(".zgroup")) {
                assertTrue(Files.exists(root.resolve(file.getKey())), "data stored before the failure is lost: " + file.getKey());
            }
        }
        assertTrue(chunks > 0 && chunks < CHUNKS, chunks + " chunks of big written before the disk was full");
        return chunks;
    }

    private static void assertSameFiles(Map<String, byte[]> reference, Path root) throws IOException {
        Map<String, byte[]> after = files(root);
        assertEquals(reference.keySet(), after.keySet());
        for (Map.Entry<String, byte[]> file : reference.entrySet()) {
            assertArrayEquals(file.getValue(), after.get(file.getKey()), file.getKey() + " after resume");
        }
    }

    @Test
    void aStoreWhoseWritesFailAfterNBytesGivesOneClearErrorAndTearsNothing() throws IOException {
        Map<String, byte[]> reference = reference();
        Path root = directory.resolve("limited");
        DirectoryStore disk = DirectoryStore.open(root);
        storeEarlierArray(disk);
        // Room for the metadata and about 30 of the 64 chunks.
        FullDiskStore full = new FullDiskStore(disk, new AtomicLong(600_000));
        Exception failure = assertThrows(Exception.class, () -> Zarr.toZarr(source(), full, "big", metadata(), twoWorkers()));
        assertClearMessage(failure, disk);
        int written = assertNothingTorn(root, reference);

        // Room again: the resume writes only the missing chunks, and the store equals the one that never failed.
        StoreReport resumed = Zarr.toZarr(source(), new FullDiskStore(disk, new AtomicLong(Long.MAX_VALUE)), "big", metadata(),
                StoreOptions.defaults().withResume(true));
        assertEquals(CHUNKS - written, resumed.chunksWritten());
        assertSameFiles(reference, root);
    }

    @Test
    void aFullTmpfsGivesOneClearErrorAndTearsNothing() throws Exception {
        Map<String, byte[]> reference = reference();
        Path mountPoint = Files.createDirectories(directory.resolve("tmpfs"));
        String refusal = run("mount", "-t", "tmpfs", "-o", "size=1m", "tessera-full-disk-test", mountPoint.toString());
        Assumptions.assumeTrue(refusal == null, () -> "cannot mount a 1 MiB tmpfs on this machine (needs root or CAP_SYS_ADMIN), so the full "
                + "tmpfs is not tested here; the store that fails after N bytes is: " + refusal);
        try {
            Path root = mountPoint.resolve("store");
            DirectoryStore disk = DirectoryStore.open(root);
            storeEarlierArray(disk);
            Exception failure = assertThrows(Exception.class, () -> Zarr.toZarr(source(), disk, "big", metadata(), twoWorkers()));
            assertClearMessage(failure, disk);
            int written = assertNothingTorn(root, reference);

            String grown = run("mount", "-o", "remount,size=4m", mountPoint.toString());
            assertEquals(null, grown, "remounting the tmpfs larger");
            StoreReport resumed = Zarr.toZarr(source(), disk, "big", metadata(), StoreOptions.defaults().withResume(true));
            assertEquals(CHUNKS - written, resumed.chunksWritten());
            assertSameFiles(reference, root);
        } finally {
            String unmounted = run("umount", mountPoint.toString());
            assertEquals(null, unmounted, "unmounting the tmpfs");
        }
    }

    /** Runs a command; null when it succeeded, otherwise what it said. */
    private static String run(String... command) throws IOException, InterruptedException {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException missing) {
            return missing.getMessage();
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return String.join(" ", command) + " did not finish";
        }
        return process.exitValue() == 0 ? null : String.join(" ", command) + " exited with " + process.exitValue() + ": " + output;
    }

    /**
     * A disk of limited room in front of a real store: a value that no longer fits fails as a full
     * file system does (FileSystemException, "No space left on device") and is not written; removing
     * a key gives its room back. The room is shared by the copies a scheduler may make.
     */
    record FullDiskStore(Store inner, AtomicLong room) implements ForwardingStore {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public void set(String key, byte[] value) throws IOException {
            long old = inner.size(key).orElse(0);
            long left = room.addAndGet(old - value.length);
            if (left < 0) {
                room.addAndGet(value.length - old);
                // What the JDK throws when a write finds the disk full.
                throw new IOException("No space left on device");
            }
            inner.set(key, value);
        }

        @Override
        public void delete(String key) throws IOException {
            long old = inner.size(key).orElse(0);
            inner.delete(key);
            room.addAndGet(old);
        }
    }
}
