package org.tessera.io.zarr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.fft.ChunkedFft;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.schedule.ExecutionStatistics;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.io.StoreOptions;
import org.tessera.io.StoreReport;
import org.tessera.io.store.DirectoryStore;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.fft.Fft;
import org.tessera.ndarray.fft.FftNorm;

/**
 * Out-of-core FFTs through Zarr stores: a 2048 x 2048 complex128 array (64 MiB) stored in 256 x 256
 * chunks, transformed under a scheduler memory budget of 16 MiB (a quarter of the array), both by
 * passes through an intermediate store ({@link ZarrFft}) and by the four-step across blocks
 * ({@link ChunkedFft}), and compared with the in-memory NDArray transform.
 */
class ZarrFftTest {
    private static final int SIDE = 2048;
    private static final long BUDGET = 16L << 20;

    @TempDir
    static Path directory;
    private static Path source;
    private static NDArray values;

    @BeforeAll
    static void writeSource() throws IOException {
        SplittableRandom random = new SplittableRandom(42);
        values = NDArray.zeros(DType.COMPLEX128, SIDE, SIDE);
        double[] parts = new double[2 * SIDE * SIDE];
        for (int index = 0; index < parts.length; index++) {
            parts[index] = random.nextDouble(-1, 1);
        }
        java.lang.foreign.MemorySegment.copy(parts, 0, values.segment(), java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, values.byteOffset(), parts.length);
        source = directory.resolve("x.zarr");
        ZarrArray.create(DirectoryStore.open(source), "", ArrayMetadataV2.of(new long[] {SIDE, SIDE}, new long[] {256, 256}, DType.COMPLEX128).withCompressor(null))
                .writeAll(values);
    }

    private static ThreadedScheduler budgeted() {
        return ThreadedScheduler.builder().workers(2).memoryBudget(MemoryBudget.ofBytes(BUDGET)).build();
    }

    /** The largest difference over the largest magnitude of the expected values. */
    static double relativeError(NDArray expected, NDArray actual) {
        assertArrayEquals(expected.shape(), actual.shape());
        assertEquals(expected.dtype(), actual.dtype());
        double[] e = doubles(expected);
        double[] a = doubles(actual);
        double largest = 0;
        double worst = 0;
        for (int index = 0; index < e.length; index += 2) {
            largest = Math.max(largest, Math.hypot(e[index], e[index + 1]));
            worst = Math.max(worst, Math.hypot(e[index] - a[index], e[index + 1] - a[index + 1]));
        }
        return worst / largest;
    }

    private static double[] doubles(NDArray complex) {
        NDArray contiguous = complex.ascontiguousarray();
        double[] parts = new double[Math.toIntExact(2 * contiguous.size())];
        java.lang.foreign.MemorySegment.copy(contiguous.segment(), java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, contiguous.byteOffset(), parts, 0, parts.length);
        return parts;
    }

    @Test
    void passesThroughAnIntermediateStoreStayWithinTheBudget() throws IOException {
        Path target = directory.resolve("passes.zarr");
        Path scratch = directory.resolve("scratch");
        ZarrFft.Settings settings = new ZarrFft.Settings(2L << 20, null, scratch, budgeted());
        ZarrFft.Transformed transformed = ZarrFft.fft2(Zarr.open(source), target, null, settings);
        assertArrayEquals(new long[] {64, SIDE}, transformed.bands().get(0));
        assertArrayEquals(new long[] {SIDE, 64}, transformed.bands().get(1));
        assertArrayEquals(new long[] {SIDE, 64}, transformed.result().chunkShape());
        for (StoreReport pass : transformed.passes()) {
            ExecutionStatistics statistics = pass.statistics();
            System.out.println("ZarrFft pass: " + pass.tasksRun() + " tasks, " + pass.chunksWritten() + " chunks, " + statistics);
            assertTrue(statistics.peakResultBytes() <= BUDGET, "a pass held " + statistics.peakResultBytes() + " bytes of results, over " + BUDGET);
        }
        assertFalse(Files.exists(scratch), "the intermediate store is left behind");
        double error = relativeError(Fft.fft2(values), transformed.result().readAll());
        System.out.println("ZarrFft fft2 2048 x 2048: relative error " + error);
        assertTrue(error <= 1e-12, "relative error " + error);
    }

    @Test
    void theInverseAndOtherTargetChunksToo() throws IOException {
        Path target = directory.resolve("inverse.zarr");
        ZarrFft.Settings settings = new ZarrFft.Settings(4L << 20, new long[] {256, 128}, directory.resolve("scratch-inverse"), budgeted());
        ZarrFft.Transformed transformed = ZarrFft.ifft2(Zarr.open(source), target, FftNorm.ORTHO, settings);
        assertArrayEquals(new long[] {256, 128}, transformed.result().chunkShape());
        double error = relativeError(Fft.ifft2(values, null, null, FftNorm.ORTHO), transformed.result().readAll());
        assertTrue(error <= 1e-12, "relative error " + error);
    }

    @Test
    void theFourStepAcrossChunksStaysWithinTheBudget() throws IOException {
        Path target = directory.resolve("four-step.zarr");
        ChunkedArray x = Zarr.fromZarr(source);
        // Blocks of at most 1 MiB (a quarter of the task memory), so every transform runs across the 256 x 256 chunks.
        ChunkedArray spectrum = ChunkedFft.fft2(x, null, null, null, 4L << 20);
        assertArrayEquals(new long[] {256, 256}, spectrum.chunkSize());
        ArrayMetadataV2 metadata = ArrayMetadataV2.of(new long[] {SIDE, SIDE}, new long[] {256, 256}, DType.COMPLEX128).withCompressor(null);
        StoreReport report = Zarr.toZarr(spectrum, DirectoryStore.open(target), "", metadata, new StoreOptions(budgeted(), false));
        System.out.println("ChunkedFft four-step fft2 2048 x 2048 under " + BUDGET + " bytes: " + report.tasksRun() + " store tasks, " + report.statistics());
        assertTrue(report.statistics().peakResultBytes() <= BUDGET, "held " + report.statistics());
        double error = relativeError(Fft.fft2(values), Zarr.open(target).readAll());
        System.out.println("ChunkedFft four-step fft2 2048 x 2048: relative error " + error);
        assertTrue(error <= 1e-12, "relative error " + error);
    }
}
