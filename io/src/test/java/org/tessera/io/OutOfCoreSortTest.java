package org.tessera.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.sorting.ChunkedSort;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.io.zarr.ArrayMetadataV2;
import org.tessera.io.zarr.Zarr;
import org.tessera.io.zarr.ZarrArray;
import org.tessera.io.store.DirectoryStore;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.sort.SortKind;

/**
 * Sorts a stored array eight times larger than the memory budget it runs under, from one Zarr store
 * into another: 16 Mi float64 (128 MB) in blocks of 1 MB, a threaded scheduler holding at most 16 MB
 * of task results. The sorted runs go to a scratch directory, so what the scheduler holds are run
 * handles, cut positions and the output blocks on their way to the store; the result is
 * non-decreasing, as long as the input, with the input's sum.
 */
class OutOfCoreSortTest {
    private static final long LENGTH = 1L << 24;
    private static final long BLOCK = 1L << 17;
    private static final long BUDGET = 16L << 20;

    @Test
    void sortsAStoreLargerThanTheBudgetIntoAStore(@TempDir Path directory) throws IOException {
        ThreadedScheduler scheduler = ThreadedScheduler.builder().workers(2).memoryBudget(MemoryBudget.ofBytes(BUDGET)).build();
        StoreOptions options = StoreOptions.defaults().withScheduler(scheduler);
        Path input = directory.resolve("x.zarr");
        ChunkedArray random = Creation.random(11, Creation.Distribution.UNIFORM, new long[] {LENGTH}, ChunkSpec.of(BLOCK));
        Zarr.toZarr(random, DirectoryStore.open(input), "", ArrayMetadataV2.of(new long[] {LENGTH}, new long[] {BLOCK}, DType.FLOAT64), options);

        ChunkedArray x = Zarr.fromZarr(input);
        double inputSum = x.sum().compute(scheduler).getDouble();
        Path scratch = Files.createDirectories(directory.resolve("scratch"));
        ChunkedArray sorted = ChunkedSort.sort(x, 0, SortKind.STABLE, ChunkedSort.Options.outOfCore(scratch));
        assertEquals(x.chunks(), sorted.chunks());
        Path output = directory.resolve("sorted.zarr");
        StoreReport report = Zarr.toZarr(sorted, DirectoryStore.open(output), "", ArrayMetadataV2.of(new long[] {LENGTH}, new long[] {BLOCK}, DType.FLOAT64),
                options);

        long peak = report.statistics().peakResultBytes();
        System.out.printf("out-of-core sort: %d MB sorted under a %d MB budget; peak task results held %.2f MB, %d spilled, %d tasks%n",
                LENGTH * 8 >> 20, BUDGET >> 20, peak / 1048576.0, report.statistics().spilledResults(), report.statistics().tasksRun());
        assertTrue(peak <= BUDGET, "peak result bytes " + peak + " within the budget " + BUDGET);
        try (Stream<Path> left = Files.list(scratch)) {
            assertEquals(List.of(), left.toList(), "the scratch directory is gone");
        }

        ZarrArray stored = Zarr.open(output);
        long count = 0;
        double sum = 0;
        double previous = Double.NEGATIVE_INFINITY;
        boolean nonDecreasing = true;
        Iterator<NDArray> blocks = Zarr.fromZarr(stored).iterateBlocks(scheduler);
        while (blocks.hasNext()) {
            NDArray block = blocks.next();
            for (long i = 0; i < block.size(); i++) {
                double value = block.getDouble(i);
                nonDecreasing &= value >= previous;
                previous = value;
                sum += value;
            }
            count += block.size();
        }
        assertTrue(nonDecreasing, "the stored result is non-decreasing");
        assertEquals(LENGTH, count);
        assertEquals(inputSum, sum, 1e-9 * Math.abs(inputSum));
    }
}
