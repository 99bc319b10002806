package org.tessera.array.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.tessera.ndarray.decomposition.Decompositions;
import org.tessera.ndarray.decomposition.LeastSquaresSolution;
import org.tessera.ndarray.decomposition.NormOrder;
import org.tessera.ndarray.decomposition.Norms;
import org.tessera.ndarray.decomposition.QrDecomposition;
import org.tessera.ndarray.dtype.DType;

/**
 * The chunked decompositions against the in-memory ones and against their defining properties,
 * over several chunkings: regular, irregular, one block, and blocks shorter than the column count.
 */
class ChunkedDecompositionsTest {
    private static final SynchronousScheduler SYNCHRONOUS = new SynchronousScheduler();
    private static final double TOLERANCE = 1e-10;
    private static final NDArray TALL = random(1, 23, 4);

    static NDArray random(long seed, long rows, long columns) {
        Random random = new Random(seed);
        NDArray result = NDArray.zeros(DType.FLOAT64, rows, columns);
        for (long row = 0; row < rows; row++) {
            for (long column = 0; column < columns; column++) {
                result.setDouble(random.nextGaussian(), row, column);
            }
        }
        return result;
    }

    static ChunkedArray chunked(NDArray values, ChunkSpec spec) {
        return Creation.fromSource(RegionSource.of(values), spec);
    }

    static Stream<Named<long[]>> rowChunkings() {
        return Stream.of(
                Named.of("regular 6", new long[] {6, 6, 6, 5}),
                Named.of("irregular", new long[] {10, 3, 1, 9}),
                Named.of("one block", new long[] {23}),
                Named.of("blocks shorter than the width", new long[] {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3}));
    }

    static ChunkedArray tall(long[] rowLengths) {
        return chunked(TALL, ChunkSpec.explicit(rowLengths, new long[] {4}));
    }

    static void assertClose(NDArray expected, NDArray actual, double tolerance, String what) {
        assertArrayEquals(expected.shape(), actual.shape(), what + ": shape");
        NDArray flatExpected = expected.astype(DType.FLOAT64).copy().reshape(expected.size());
        NDArray flatActual = actual.astype(DType.FLOAT64).copy().reshape(actual.size());
        double scale = 1;
        double difference = 0;
        for (long i = 0; i < flatExpected.size(); i++) {
            scale = Math.max(scale, Math.abs(flatExpected.getDouble(i)));
            difference = Math.max(difference, Math.abs(flatExpected.getDouble(i) - flatActual.getDouble(i)));
        }
        assertTrue(difference <= tolerance * scale, what + ": difference " + difference + " (scale " + scale + ")");
    }

    static NDArray compute(ChunkedArray array) {
        NDArray computed = array.compute(SYNCHRONOUS);
        assertArrayEquals(array.shape(), computed.shape(), "predicted shape of " + array);
        assertEquals(array.dtype(), computed.dtype(), "predicted dtype of " + array);
        return computed;
    }

    @ParameterizedTest
    @MethodSource("rowChunkings")
    void tsqrMatchesTheInMemoryQr(long[] rowLengths) {
        ChunkedQr qr = TallSkinny.qr(tall(rowLengths));
        assertArrayEquals(rowLengths, qr.q().chunks().axis(0), "Q keeps the row blocks");
        NDArray q = compute(qr.q());
        NDArray r = compute(qr.r());
        QrDecomposition expected = Decompositions.qr(TALL);
        assertClose(expected.q(), q, TOLERANCE, "Q");
        assertClose(expected.r(), r, TOLERANCE, "R");
        assertClose(NDArrays.identity(4), NDArrays.matmul(q.transpose(), q), TOLERANCE, "Q^T Q");
        assertClose(TALL, NDArrays.matmul(q, r), TOLERANCE, "Q R");
    }

    @ParameterizedTest
    @MethodSource("rowChunkings")
    void tsqrSvdMatchesTheInMemorySvd(long[] rowLengths) {
        ChunkedSvd svd = TallSkinny.svd(tall(rowLengths));
        NDArray u = compute(svd.u());
        NDArray s = compute(svd.singularValues());
        NDArray vt = compute(svd.vt());
        assertClose(Decompositions.singularValues(TALL), s, TOLERANCE, "singular values");
        assertClose(NDArrays.identity(4), NDArrays.matmul(u.transpose(), u), TOLERANCE, "U^T U");
        assertClose(TALL, NDArrays.matmul(NDArrays.multiply(u, s), vt), TOLERANCE, "U S V^T");
    }

    @Test
    void tsqrRefusesSeveralColumnBlocksAndNamesTheShape() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> TallSkinny.qr(chunked(TALL, ChunkSpec.of(5, 2))));
        assertTrue(error.getMessage().contains("(23,4)") && error.getMessage().contains("tall-and-skinny"), error.getMessage());
    }

    @Test
    void compressedSvdFindsTheLeadingTripletsOfALowRankMatrix() {
        NDArray lowRank = NDArrays.matmul(random(3, 40, 3), random(4, 3, 30));
        for (ChunkSpec spec : new ChunkSpec[] {ChunkSpec.of(10, 7), ChunkSpec.of(40, 30), ChunkSpec.of(13, 30)}) {
            ChunkedSvd svd = RandomizedSvd.compressedSvd(chunked(lowRank, spec), 3, 2, 42);
            NDArray u = compute(svd.u());
            NDArray s = compute(svd.singularValues());
            NDArray vt = compute(svd.vt());
            assertClose(Decompositions.singularValues(lowRank).slice(0, 0, 1, 3), s, 1e-8, "leading singular values");
            assertClose(lowRank, NDArrays.matmul(NDArrays.multiply(u, s), vt), 1e-8, "U S V^T of a rank-3 matrix");
            assertClose(NDArrays.identity(3), NDArrays.matmul(u.transpose(), u), 1e-8, "U^T U");
        }
        NDArray first = compute(RandomizedSvd.compressedSvd(chunked(lowRank, ChunkSpec.of(10, 7)), 2, 1, 7).u());
        NDArray again = compute(RandomizedSvd.compressedSvd(chunked(lowRank, ChunkSpec.of(10, 7)), 2, 1, 7).u());
        assertClose(first, again, 0, "the same seed gives the same answer");
    }

    @Test
    void squareDecompositionsOverSeveralChunkings() {
        NDArray m = random(5, 9, 9);
        NDArray spd = NDArrays.add(NDArrays.matmul(m, m.transpose()), NDArrays.multiply(NDArrays.identity(9), 9.0));
        NDArray b = random(6, 9, 2);
        for (ChunkSpec spec : new ChunkSpec[] {ChunkSpec.of(3, 3), ChunkSpec.explicit(new long[] {2, 7}, new long[] {4, 5}), ChunkSpec.size(9)}) {
            ChunkedArray a = chunked(m, spec);
            ChunkedArray lower = SquareLinearAlgebra.cholesky(chunked(spd, spec));
            assertEquals(chunked(spd, spec).chunks(), lower.chunks(), "cholesky keeps the chunks");
            assertClose(Decompositions.cholesky(spd), compute(lower), TOLERANCE, "cholesky");
            ChunkedLu lu = SquareLinearAlgebra.lu(a);
            NDArray p = compute(lu.permutation());
            assertClose(NDArrays.matmul(p, m), NDArrays.matmul(compute(lu.lower()), compute(lu.upper())), TOLERANCE, "P A = L U");
            assertClose(NDArrays.identity(9), NDArrays.matmul(m, compute(SquareLinearAlgebra.inv(a))), TOLERANCE, "A A^-1");
            ChunkedArray x = SquareLinearAlgebra.solve(a, chunked(b, ChunkSpec.of(4, 1)));
            assertClose(b, NDArrays.matmul(m, compute(x)), TOLERANCE, "A x = b");
            NDArray vector = b.slice(1, 0, 1, 1).copy().reshape(9);
            assertClose(Decompositions.solve(m, vector), compute(SquareLinearAlgebra.solve(a, chunked(vector, ChunkSpec.size(5)))), TOLERANCE, "1-D b");
        }
    }

    @Test
    void squareDecompositionsNameTheShapeWhenRefused() {
        ChunkedArray wide = chunked(random(1, 3, 5), ChunkSpec.of(2, 2));
        IllegalArgumentException notSquare = assertThrows(IllegalArgumentException.class, () -> SquareLinearAlgebra.inv(wide));
        assertTrue(notSquare.getMessage().contains("(3,5)"), notSquare.getMessage());
        ChunkedArray square = chunked(random(1, 30, 30), ChunkSpec.of(10, 10));
        IllegalArgumentException tooLarge = assertThrows(IllegalArgumentException.class, () -> SquareLinearAlgebra.cholesky(square, 1000));
        assertTrue(tooLarge.getMessage().contains("(30,30)") && tooLarge.getMessage().contains("1000"), tooLarge.getMessage());
    }

    @ParameterizedTest
    @MethodSource("rowChunkings")
    void leastSquaresMatchesTheInMemoryOne(long[] rowLengths) {
        NDArray b = random(9, 23, 2);
        ChunkedLeastSquares solution = LeastSquares.lstsq(tall(rowLengths), chunked(b, ChunkSpec.of(7, 2)));
        LeastSquaresSolution expected = Decompositions.lstsq(TALL, b);
        assertClose(expected.solution(), compute(solution.solution()), TOLERANCE, "x");
        assertClose(expected.residuals(), compute(solution.residuals()), 1e-9, "residuals");
        assertEquals(4L, compute(solution.rank()).getLong(), "rank");
        assertClose(expected.singularValues(), compute(solution.singularValues()), TOLERANCE, "singular values");
        NDArray vector = b.slice(1, 0, 1, 1).copy().reshape(23);
        ChunkedLeastSquares oneColumn = LeastSquares.lstsq(tall(rowLengths), chunked(vector, ChunkSpec.size(5)));
        assertClose(Decompositions.lstsq(TALL, vector).solution(), compute(oneColumn.solution()), TOLERANCE, "x for a 1-D b");
        assertArrayEquals(new long[] {1}, compute(oneColumn.residuals()).shape(), "residuals of a 1-D b");
    }

    @ParameterizedTest
    @MethodSource("rowChunkings")
    void normsMatchTheInMemoryNorms(long[] rowLengths) {
        ChunkedArray matrix = chunked(TALL, ChunkSpec.explicit(rowLengths, new long[] {1, 3}));
        assertClose(Norms.norm(TALL), compute(ChunkedNorms.norm(matrix)), 1e-12, "default");
        for (NormOrder order : new NormOrder[] {NormOrder.FROBENIUS, NormOrder.NUCLEAR, NormOrder.INFINITY, NormOrder.NEGATIVE_INFINITY,
                NormOrder.of(1), NormOrder.of(-1), NormOrder.of(2), NormOrder.of(-2)}) {
            assertClose(Norms.norm(TALL, order), compute(ChunkedNorms.norm(matrix, order)), 1e-10, "matrix " + order);
            assertClose(Norms.norm(TALL.transpose().copy(), order), compute(ChunkedNorms.norm(matrix.T(), order)), 1e-10, "wide matrix " + order);
        }
        NDArray vector = TALL.slice(1, 0, 1, 1).copy().reshape(23);
        ChunkedArray chunkedVector = chunked(vector, ChunkSpec.explicit(rowLengths));
        for (double p : new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0, 1, 2, 3, 0.5, -1}) {
            assertClose(Norms.norm(vector, NormOrder.of(p)), compute(ChunkedNorms.norm(chunkedVector, NormOrder.of(p))), 1e-12, "vector p=" + p);
        }
        NDArray columnNorms = compute(ChunkedNorms.norm(matrix, NormOrder.of(2), 0));
        for (long column = 0; column < 4; column++) {
            NDArray expected = Norms.norm(TALL.slice(1, column, 1, 1).copy().reshape(23), NormOrder.of(2));
            assertEquals(expected.getDouble(), columnNorms.getDouble(column), 1e-12, "column " + column);
        }
    }

    @Test
    void fluentMethodsDelegate() {
        ChunkedArray x = tall(new long[] {6, 6, 6, 5});
        assertClose(Norms.norm(TALL), compute(x.norm()), 1e-12, "x.norm()");
        assertClose(Norms.norm(TALL, NormOrder.of(1)), compute(x.norm(NormOrder.of(1))), 1e-12, "x.norm(1)");
        assertClose(Decompositions.qr(TALL).r(), compute(x.qr().r()), TOLERANCE, "x.qr()");
        assertClose(Decompositions.singularValues(TALL), compute(x.svd().singularValues()), TOLERANCE, "x.svd()");
        NDArray top = compute(x.topk(2));
        NDArray positions = compute(x.argtopk(-1));
        for (long row = 0; row < 23; row++) {
            double largest = Double.NEGATIVE_INFINITY;
            long smallestAt = 0;
            for (long column = 0; column < 4; column++) {
                largest = Math.max(largest, TALL.getDouble(row, column));
                smallestAt = TALL.getDouble(row, column) < TALL.getDouble(row, smallestAt) ? column : smallestAt;
            }
            assertEquals(largest, top.getDouble(row, 0), "x.topk(2) row " + row);
            assertEquals(smallestAt, positions.getLong(row, 0), "x.argtopk(-1) row " + row);
        }
    }
}
