package org.tessera.array.sorting;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.Creation;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.schedule.Computation;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.sort.SortKind;

/**
 * The sample sort against the in-memory sort on larger arrays than the conformance cases, with the
 * threaded scheduler: many blocks, runs of ties longer than a block, NaN and signed zeros, both
 * ways of holding the runs, 2-d arrays along either axis; its chunks known up front, its scratch
 * directory gone after the computation, and its runs spilled whole under a memory budget.
 */
class ChunkedSortTest {
    private static final ThreadedScheduler THREADS = ThreadedScheduler.builder().workers(2).build();

    @TempDir
    static Path scratch;

    static Stream<Named<ChunkedSort.Options>> runs() {
        return Stream.of(Named.of("runs in memory", ChunkedSort.Options.inMemory()),
                Named.of("runs in files", ChunkedSort.Options.outOfCore(scratch)));
    }

    /** Few distinct values with NaN, infinities and zeros of both signs: long runs of ties across blocks. */
    static NDArray ties(long seed, long... shape) {
        Random random = new Random(seed);
        NDArray values = NDArray.zeros(DType.FLOAT64, shape);
        NDArray flat = values.reshape(values.size());
        double[] specials = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (long i = 0; i < flat.size(); i++) {
            flat.setDouble(random.nextInt(10) < 3 ? specials[random.nextInt(specials.length)] : random.nextInt(7) - 3, i);
        }
        return values;
    }

    private static ChunkedArray chunked(NDArray values, ChunkSpec spec) {
        return Creation.fromSource(RegionSource.of(values), spec);
    }

    private static void assertSameBits(NDArray expected, NDArray actual) {
        assertArrayEquals(expected.shape(), actual.shape());
        NDArray expectedFlat = expected.copy().reshape(expected.size());
        NDArray actualFlat = actual.copy().reshape(actual.size());
        for (long i = 0; i < expected.size(); i++) {
            double want = expectedFlat.getDouble(i);
            double got = actualFlat.getDouble(i);
            assertTrue(Double.isNaN(want) ? Double.isNaN(got) : Double.doubleToRawLongBits(want) == Double.doubleToRawLongBits(got),
                    "element " + i + ": " + got + ", expected " + want);
        }
    }

    @ParameterizedTest
    @MethodSource("runs")
    void sortsAndArgsortsALongArrayOfTiesAcrossManyBlocks(ChunkedSort.Options options) {
        NDArray values = ties(1, 20_000);
        ChunkedArray x = chunked(values, ChunkSpec.explicit(new long[] {1, 999, 5000, 3, 4000, 7000, 2997}));
        ChunkedArray sorted = ChunkedSort.sort(x, 0, SortKind.STABLE, options);
        assertEquals(x.chunks(), sorted.chunks(), "the output keeps the input's chunks, known before computing");
        assertSameBits(NDArrays.sort(values, 0, SortKind.STABLE), sorted.compute(THREADS));
        ChunkedArray order = ChunkedSort.argsort(x, 0, SortKind.STABLE, options);
        assertEquals(DType.INT64, order.dtype());
        assertArrayEquals(toLongs(NDArrays.argsort(values, 0, SortKind.STABLE)), toLongs(order.compute(THREADS)));
    }

    @ParameterizedTest
    @MethodSource("runs")
    void sortsEachLaneOfA2dArrayAlongEitherAxis(ChunkedSort.Options options) {
        NDArray values = ties(2, 37, 53);
        ChunkedArray x = chunked(values, ChunkSpec.explicit(new long[] {10, 20, 7}, new long[] {1, 30, 22}));
        for (int axis : new int[] {0, 1, -1}) {
            assertSameBits(NDArrays.sort(values, axis, SortKind.STABLE), ChunkedSort.sort(x, axis, SortKind.STABLE, options).compute(THREADS));
            assertArrayEquals(toLongs(NDArrays.argsort(values, axis, SortKind.STABLE)),
                    toLongs(ChunkedSort.argsort(x, axis, SortKind.STABLE, options).compute(THREADS)));
        }
        assertSameBits(NDArrays.sort(values, null, SortKind.STABLE), ChunkedSort.sort(x, null, SortKind.STABLE, options).compute(THREADS));
    }

    @ParameterizedTest
    @MethodSource("runs")
    void uniqueHasUnknownBlockLengthsUntilComputed(ChunkedSort.Options options) {
        NDArray values = ties(3, 40, 50);
        ChunkedArray x = chunked(values, ChunkSpec.of(7, 11));
        ChunkedArray unique = ChunkedSort.unique(x, options);
        assertFalse(unique.chunks().isKnown());
        assertEquals(x.ravel().chunks().blockCount(0), unique.chunks().blockCount(0));
        ChunkedArray known = unique.computeChunkSizes(THREADS);
        assertTrue(known.chunks().isKnown());
        NDArray expected = NDArrays.unique(values);
        NDArray actual = known.compute(THREADS);
        assertEquals(expected.size(), actual.size());
        for (long i = 0; i < expected.size(); i++) {
            double want = expected.getDouble(i);
            assertTrue(Double.isNaN(want) ? Double.isNaN(actual.getDouble(i)) : want == actual.getDouble(i), "element " + i);
        }
    }

    @ParameterizedTest
    @MethodSource("runs")
    void quantilesAreExactAlongAnAxisAndFlattened(ChunkedSort.Options options) {
        NDArray values = uniform(7, 300, 40);
        ChunkedArray x = chunked(values, ChunkSpec.explicit(new long[] {100, 1, 99, 100}, new long[] {15, 25}));
        NDArray q = NDArrays.array(new double[] {0, 0.01, 0.25, 0.5, 0.9, 1});
        for (String method : List.of("linear", "lower", "higher", "nearest", "midpoint", "hazen", "inverted_cdf")) {
            for (Integer axis : new Integer[] {null, 0, 1}) {
                NDArray expected = NDArrays.quantile(values, q, axis, method, false);
                NDArray actual = ChunkedSort.quantile(x, q, axis, method, false, options).compute(THREADS);
                assertSameBits(expected, actual);
            }
        }
        assertSameBits(NDArrays.median(values, 0, true), ChunkedSort.median(x, 0, true, options).compute(THREADS));
        assertSameBits(NDArrays.percentile(values, NDArrays.array(new double[] {5, 50, 95}), 1, "linear", false),
                ChunkedSort.percentile(x, new double[] {5, 50, 95}, 1, "linear").compute(THREADS));
    }

    @Test
    void chunkedArrayMethodsDelegateToTheSampleSort() {
        NDArray values = ties(4, 12, 30);
        ChunkedArray x = chunked(values, ChunkSpec.of(5, 7));
        assertSameBits(NDArrays.sort(values, 1, SortKind.STABLE), x.sort(1).compute(THREADS));
        assertSameBits(NDArrays.sort(values, 0, SortKind.STABLE), x.sort(0, SortKind.STABLE).compute(THREADS));
        assertArrayEquals(toLongs(NDArrays.argsort(values, 0, SortKind.STABLE)), toLongs(x.argsort(0).compute(THREADS)));
        NDArray q = NDArrays.array(new double[] {0.1, 0.5});
        assertSameBits(NDArrays.quantile(values, q, 1, "nearest", false), x.quantile(new double[] {0.1, 0.5}, 1, "nearest").compute(THREADS));
        assertSameBits(NDArrays.median(values, null, false), x.median(null).compute(THREADS));
    }

    @Test
    void theScratchDirectoryIsGoneAfterTheComputation(@TempDir Path root) throws IOException {
        NDArray values = ties(5, 5000);
        ChunkedArray x = chunked(values, ChunkSpec.size(700));
        assertSameBits(NDArrays.sort(values, 0, SortKind.STABLE), ChunkedSort.sort(x, 0, SortKind.STABLE, ChunkedSort.Options.outOfCore(root)).compute(THREADS));
        ChunkedSort.median(x, 0, false, ChunkedSort.Options.outOfCore(root)).compute(THREADS);
        try (Stream<Path> left = Files.list(root)) {
            assertEquals(List.of(), left.toList(), "every scratch directory was deleted by the last task that read it");
        }
    }

    @Test
    void aSortAndAQuantileOfOneArrayComputedTogetherKeepTheirOwnRuns(@TempDir Path root) throws IOException {
        NDArray values = uniform(8, 3000);
        ChunkedArray x = chunked(values, ChunkSpec.size(400));
        ChunkedSort.Options options = ChunkedSort.Options.outOfCore(root);
        List<NDArray> both = ChunkedArray.computeAll(THREADS, List.of(ChunkedSort.sort(x, 0, SortKind.STABLE, options),
                ChunkedSort.median(x, 0, false, options), ChunkedSort.unique(x, options).computeChunkSizes(THREADS)));
        assertSameBits(NDArrays.sort(values, 0, SortKind.STABLE), both.get(0));
        assertSameBits(NDArrays.median(values, 0, false), both.get(1));
        assertSameBits(NDArrays.unique(values), both.get(2));
        try (Stream<Path> left = Files.list(root)) {
            assertEquals(List.of(), left.toList());
        }
    }

    @Test
    void runsHeldInMemorySpillWholeUnderABudgetAndComeBack() {
        NDArray values = ties(6, 40_000);
        ChunkedArray x = chunked(values, ChunkSpec.size(4000));
        ThreadedScheduler budgeted = ThreadedScheduler.builder().workers(1).memoryBudget(MemoryBudget.ofBytes(200_000)).build();
        ChunkedArray sorted = ChunkedSort.sort(x, 0, SortKind.STABLE, ChunkedSort.Options.inMemory());
        Computation computation = budgeted.run(sorted.optimizedGraph(), sorted.flatKeys());
        assertTrue(computation.statistics().spilledResults() > 0, "the budget spilled some runs");
        NDArray expected = NDArrays.sort(values, 0, SortKind.STABLE);
        for (int block = 0; block < 10; block++) {
            assertSameBits(expected.slice(0, block * 4000L, 1, 4000), (NDArray) computation.results().get(sorted.key(block)));
        }
    }

    @Test
    void refusesComplexAndBadAxesAndUnknownLengths() {
        ChunkedArray complex = Creation.zeros(new long[] {4}, DType.COMPLEX128, ChunkSpec.size(2));
        assertThrows(UnsupportedOperationException.class, () -> ChunkedSort.sort(complex, 0));
        ChunkedArray x = chunked(ties(7, 6), ChunkSpec.size(2));
        assertThrows(IndexOutOfBoundsException.class, () -> ChunkedSort.sort(x, 1));
        ChunkedArray unknown = ChunkedSort.unique(x);
        assertEquals(Chunks.UNKNOWN, unknown.chunks().length(0, 0));
        assertThrows(RuntimeException.class, () -> ChunkedSort.sort(unknown, 0));
    }

    /** Uniform values in [0, 1000): distinct, so every method's interpolation shows. */
    static NDArray uniform(long seed, long... shape) {
        Random random = new Random(seed);
        NDArray values = NDArray.zeros(DType.FLOAT64, shape);
        NDArray flat = values.reshape(values.size());
        for (long i = 0; i < flat.size(); i++) {
            flat.setDouble(random.nextDouble() * 1000, i);
        }
        return values;
    }

    /** The elements of {@code array}, flattened in C order, as longs. */
    static long[] toLongs(NDArray array) {
        NDArray flat = array.copy().reshape(array.size());
        long[] values = new long[(int) flat.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = flat.getLong(i);
        }
        return values;
    }
}
