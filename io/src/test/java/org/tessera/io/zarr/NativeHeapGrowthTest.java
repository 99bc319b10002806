package org.tessera.io.zarr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.RegionSource;
import org.tessera.io.store.DirectoryStore;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;

/**
 * Reading a zarr-python store slab by slab, round after round on new threads as computations run,
 * leaves the process's memory outside the Java heap about where it was: c-blosc allocates and frees
 * a scratch area of two internal blocks (2 MiB here) for every piece it decodes, and glibc kept what
 * those areas held in a heap per thread until the codec path gave it back ({@code NativeHeapTrim}).
 * Here that was 343 MB of growth without it, 76-80 MB with it.
 */
class NativeHeapGrowthTest {
    @TempDir
    Path directory;

    @Test
    void decodingSlabsOnTwoThreadsKeepsNoFreedScratchMemory() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "needs Linux's /proc to read the resident set");
        ZarrPython.assumeAvailable();
        Path store = directory.resolve("y.zarr");
        // zarr-python's default compressor (Blosc lz4, byte shuffle) cuts 2000 x 2000 float64 chunks into 1 MiB blocks.
        ZarrPython.Result written = ZarrPython.run(String.join("\n",
                "import sys, numpy, zarr",
                "z = zarr.open(sys.argv[1], mode='w', shape=(4000, 4000), chunks=(2000, 2000), dtype='f8')",
                "z[:] = numpy.random.default_rng(5).random((4000, 4000))",
                "print(z.compressor)"), List.of(store.toString()));
        assertEquals(0, written.exitCode(), written.output());
        ZarrArray array = ZarrArray.open(DirectoryStore.open(store), "");
        double expected = 0;
        for (int chunk = 0; chunk < 4; chunk++) {
            expected += sumInSlabs(array, chunk / 2 * 2000, chunk % 2 * 2000);
        }
        long before = residentAnonymousBytes();
        long heapBefore = heapCommitted();
        // Each round on two new threads, as each computation starts its own workers: glibc gives a new thread a heap of
        // its own (up to 8 per core), and each heap keeps what was freed in it.
        double total = 0;
        for (int round = 0; round < 12; round++) {
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                List<Future<Double>> sums = new ArrayList<>();
                for (int chunk = 0; chunk < 4; chunk++) {
                    long row = chunk / 2 * 2000;
                    long column = chunk % 2 * 2000;
                    sums.add(threads.submit(() -> sumInSlabs(array, row, column)));
                }
                for (Future<Double> sum : sums) {
                    total += sum.get();
                }
            } finally {
                threads.shutdown();
            }
        }
        assertEquals(expected * 12, total, Math.abs(expected) * 1e-9, "the slabs' values");
        long grown = residentAnonymousBytes() - before - (heapCommitted() - heapBefore);
        assertTrue(grown < (160L << 20), "the process's anonymous memory outside the Java heap grew by " + (grown >> 20) + " MB over 3 GB of slabs decoded");
    }

    /** The sum of one 2000 x 2000 chunk's values, read in slabs of 16 rows. */
    private static double sumInSlabs(ZarrArray array, long row, long column) {
        double sum = 0;
        try (RegionSource.SlabReader slabs = array.slabs(new long[] {row, column}, new long[] {2000, 2000}).orElseThrow()) {
            for (long first = 0; first < 2000; first += 16) {
                NDArray slab = slabs.slab(first, 16);
                sum += NDArrays.sum(slab).getDouble();
            }
        }
        return sum;
    }

    private static long heapCommitted() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
    }

    private static long residentAnonymousBytes() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("RssAnon:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) << 10;
            }
        }
        throw new IllegalStateException("no RssAnon in /proc/self/status");
    }
}
