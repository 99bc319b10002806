package org.tessera.array.sorting;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;

/** topk, argtopk, unique, histogram, bincount and percentile over several chunkings, against answers computed in memory. */
class ChunkedSortingTest {
    private static final SynchronousScheduler SYNCHRONOUS = new SynchronousScheduler();
    /** 6 x 20 small integers as float64: many ties. */
    private static final NDArray TIES = ties();

    private static NDArray ties() {
        Random random = new Random(4);
        NDArray values = NDArray.zeros(DType.FLOAT64, 6, 20);
        for (long row = 0; row < 6; row++) {
            for (long column = 0; column < 20; column++) {
                values.setDouble(random.nextInt(9) - 4, row, column);
            }
        }
        return values;
    }

    static Stream<Named<ChunkSpec>> chunkings() {
        return Stream.of(
                Named.of("regular (2, 5)", ChunkSpec.of(2, 5)),
                Named.of("irregular", ChunkSpec.explicit(new long[] {1, 5}, new long[] {3, 1, 9, 7})),
                Named.of("one block", ChunkSpec.of(6, 20)),
                Named.of("blocks of 1", ChunkSpec.size(1)));
    }

    static ChunkedArray chunked(NDArray values, ChunkSpec spec) {
        return Creation.fromSource(RegionSource.of(values), spec);
    }

    /** Per row, the |k| best positions by a plain stable sort in Java: descending values for k > 0, ties earliest first. */
    private static long[][] expectedPositions(NDArray values, int k) {
        long[][] positions = new long[(int) values.shape(0)][];
        for (int row = 0; row < values.shape(0); row++) {
            int line = row;
            positions[row] = Stream.iterate(0L, i -> i + 1).limit(values.shape(1))
                    .sorted((a, b) -> k > 0 ? Double.compare(values.getDouble(line, b), values.getDouble(line, a))
                            : Double.compare(values.getDouble(line, a), values.getDouble(line, b)))
                    .limit(Math.abs(k)).mapToLong(Long::longValue).toArray();
        }
        return positions;
    }

    @ParameterizedTest
    @MethodSource("chunkings")
    void topkAndArgtopkAlongTheLastAxis(ChunkSpec spec) {
        ChunkedArray x = chunked(TIES, spec);
        for (int k : new int[] {1, 3, 7, -4, 20}) {
            for (int splitEvery : new int[] {2, 4}) {
                long[][] expected = expectedPositions(TIES, k);
                ChunkedArray top = TopK.topk(x, k, -1, splitEvery);
                ChunkedArray positions = TopK.argtopk(x, k, -1, splitEvery);
                assertArrayEquals(new long[] {6, Math.abs(k)}, top.shape());
                NDArray computedTop = top.compute(SYNCHRONOUS);
                NDArray computedPositions = positions.compute(SYNCHRONOUS);
                assertEquals(DType.INT64, computedPositions.dtype());
                for (int row = 0; row < 6; row++) {
                    for (int rank = 0; rank < Math.abs(k); rank++) {
                        assertEquals(expected[row][rank], computedPositions.getLong(row, rank), "k=" + k + " row " + row + " rank " + rank);
                        assertEquals(TIES.getDouble(row, expected[row][rank]), computedTop.getDouble(row, rank), "k=" + k + " value");
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("chunkings")
    void topkAlongTheFirstAxisKeepsTheOtherChunks(ChunkSpec spec) {
        ChunkedArray x = chunked(TIES, spec);
        ChunkedArray top = TopK.topk(x, 2, 0, 2);
        assertArrayEquals(x.chunks().axis(1), top.chunks().axis(1));
        NDArray computed = top.compute(SYNCHRONOUS);
        long[][] expected = expectedPositions(TIES.transpose().copy(), 2);
        for (int column = 0; column < 20; column++) {
            assertEquals(TIES.getDouble(expected[column][0], column), computed.getDouble(0, column));
            assertEquals(TIES.getDouble(expected[column][1], column), computed.getDouble(1, column));
        }
        assertThrows(IllegalArgumentException.class, () -> TopK.topk(x, 7, 0, 2), "k above the axis length");
    }

    @ParameterizedTest
    @MethodSource("chunkings")
    void uniqueHistogramAndBincount(ChunkSpec spec) {
        ChunkedArray x = chunked(TIES, spec);
        assertArrayEquals(toDoubles(NDArrays.unique(TIES)), toDoubles(Counting.unique(x, SYNCHRONOUS)));

        Counting.Histogram histogram = Counting.histogram(x, 4, -4, 4);
        long[] expected = new long[4];
        for (double value : toDoubles(TIES)) {
            expected[Math.min((int) Math.floor((value + 4) / 2), 3)]++;
        }
        assertArrayEquals(expected, ChunkedSortTest.toLongs(histogram.counts().compute(SYNCHRONOUS)), "histogram with the last edge inclusive");
        assertArrayEquals(new double[] {-4, -2, 0, 2, 4}, toDoubles(histogram.edges()));
        NDArray edges = NDArrays.array(-1.5, 0.0, 0.5, 10.0);
        long[] inEdges = new long[3];
        for (double value : toDoubles(TIES)) {
            if (value >= -1.5 && value < 0) {
                inEdges[0]++;
            } else if (value >= 0 && value < 0.5) {
                inEdges[1]++;
            } else if (value >= 0.5 && value <= 10) {
                inEdges[2]++;
            }
        }
        assertArrayEquals(inEdges, ChunkedSortTest.toLongs(Counting.histogram(x, edges).counts().compute(SYNCHRONOUS)), "given edges, outside values dropped");

        NDArray shifted = NDArrays.add(TIES, 4.0).astype(DType.INT64).reshape(120);
        ChunkedArray flat = chunked(shifted, ChunkSpec.size(spec.equals(ChunkSpec.size(1)) ? 1 : 17));
        long[] counts = new long[12];
        for (long value : ChunkedSortTest.toLongs(shifted)) {
            counts[(int) value]++;
        }
        assertArrayEquals(counts, ChunkedSortTest.toLongs(Counting.bincount(flat, 12).compute(SYNCHRONOUS)));
        Exception tooSmall = assertThrows(Exception.class, () -> Counting.bincount(flat, 5).compute(SYNCHRONOUS));
        assertTrue(String.valueOf(rootCause(tooSmall).getMessage()).contains("minlength 5"), rootCause(tooSmall).getMessage());
    }

    @Test
    void percentileIsExactWithOneBlockAndCloseWithMany() {
        Random random = new Random(8);
        double[] data = new double[4000];
        for (int i = 0; i < data.length; i++) {
            data[i] = random.nextGaussian();
        }
        NDArray values = NDArrays.array(data);
        double[] sorted = data.clone();
        Arrays.sort(sorted);
        double[] q = {0, 5, 25, 50, 62.5, 90, 100};
        double[] oneBlock = toDoubles(Percentiles.percentile(chunked(values, ChunkSpec.size(4000)), q).compute(SYNCHRONOUS));
        for (int i = 0; i < q.length; i++) {
            double position = q[i] / 100 * (data.length - 1);
            int below = (int) Math.floor(position);
            double exact = sorted[below] + (sorted[Math.min(below + 1, data.length - 1)] - sorted[below]) * (position - below);
            assertEquals(exact, oneBlock[i], 1e-12, "one block, q=" + q[i]);
        }
        for (ChunkSpec spec : new ChunkSpec[] {ChunkSpec.size(500), ChunkSpec.explicit(new long[] {100, 1900, 2000})}) {
            double[] approximate = toDoubles(Percentiles.percentile(chunked(values, spec), q).compute(SYNCHRONOUS));
            for (int i = 0; i < q.length; i++) {
                assertEquals(oneBlock[i], approximate[i], 0.05, "several blocks, q=" + q[i]);
            }
            assertEquals(sorted[0], approximate[0], 0, "the minimum is exact");
            assertEquals(sorted[data.length - 1], approximate[q.length - 1], 0, "the maximum is exact");
        }
    }

    private static Throwable rootCause(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static double[] toDoubles(NDArray array) {
        NDArray flat = array.copy().reshape(array.size());
        double[] values = new double[(int) flat.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = flat.getDouble(i);
        }
        return values;
    }
}
