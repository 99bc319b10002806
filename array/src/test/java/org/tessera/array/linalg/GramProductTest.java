package org.tessera.array.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.api.ChunkedArrays;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;

/**
 * {@code A.T @ A} over chunked A is symmetric: only the blocks on and above the diagonal are
 * multiplied, and the result must still be NumPy's product, symmetric bit for bit, with Dask's chunks.
 */
class GramProductTest {

    @Test
    void theGramMatrixIsTheProductWithItsOwnTranspose() {
        ChunkedArray random = Creation.random(4, Creation.Distribution.UNIFORM, new long[] {300, 170}, ChunkSpec.of(70, 50));
        NDArray a = random.compute();
        NDArray expected = NDArrays.matmul(a.transpose(), a);
        for (ChunkSpec blocks : List.of(ChunkSpec.of(70, 50), ChunkSpec.of(300, 60), ChunkSpec.of(100, 170))) {
            ChunkedArray chunked = ChunkedArrays.fromArray(a, blocks);
            ChunkedArray gram = chunked.T().matmul(chunked);
            assertEquals(chunked.chunks().axis(1).length, gram.chunks().axis(0).length, "Dask's chunks: the columns' blocks on both axes");
            assertArrayEquals(chunked.chunks().axis(1), gram.chunks().axis(1));
            NDArray actual = gram.compute();
            for (long row = 0; row < 170; row++) {
                for (long column = 0; column < 170; column++) {
                    double value = actual.getDouble(row, column);
                    assertEquals(expected.getDouble(row, column), value, 1e-12 * Math.abs(expected.getDouble(row, column)), blocks + " at (" + row + ", " + column + ")");
                    assertEquals(Double.doubleToRawLongBits(value), Double.doubleToRawLongBits(actual.getDouble(column, row)), "symmetric at (" + row + ", " + column + ")");
                }
            }
        }
        // Random blocks too, not only held ones.
        NDArray fromRandom = random.T().matmul(random).compute();
        assertEquals(expected.getDouble(3, 120), fromRandom.getDouble(3, 120), 1e-12 * expected.getDouble(3, 120));
    }

    @Test
    void onlyTheBlocksOnAndAboveTheDiagonalAreMultiplied() {
        ChunkedArray a = ChunkedArrays.fromArray(NDArrays.ones(DType.FLOAT64, 40, 30), ChunkSpec.of(10, 10));
        ChunkedArray gram = a.T().matmul(a);
        long products = gram.graph().materialize().tasks().keySet().stream().filter(key -> key.name().startsWith("matmul")).count();
        // Four row blocks times the six blocks on and above the diagonal of three by three.
        assertEquals(4 * 6, products);
        NDArray result = gram.compute();
        assertEquals(40.0, result.getDouble(29, 0));
        ChunkedArray general = a.T().matmul(ChunkedArrays.fromArray(NDArrays.ones(DType.FLOAT64, 40, 30), ChunkSpec.of(10, 10)));
        assertEquals(4 * 9, general.graph().materialize().tasks().keySet().stream().filter(key -> key.name().startsWith("matmul")).count(),
                "a product of two different arrays multiplies every block");
    }

    @Test
    void integerPartialProductsAddExactlyAndWrapAsOneProduct() {
        NDArray a = NDArrays.arange(0, 48 * 5, 1).astype(DType.INT64).reshape(48, 5);
        a.setLong(Long.MAX_VALUE / 3, 47, 4);
        ChunkedArray chunked = ChunkedArrays.fromArray(a, ChunkSpec.of(6, 2));
        NDArray expected = NDArrays.matmul(a.transpose(), a);
        NDArray actual = chunked.T().matmul(chunked).compute();
        assertEquals(DType.INT64, actual.dtype());
        for (long row = 0; row < 5; row++) {
            for (long column = 0; column < 5; column++) {
                assertEquals(expected.getLong(row, column), actual.getLong(row, column), "at (" + row + ", " + column + ")");
            }
        }
    }

    @Test
    void partialProductsAddedInOrderAreTheSumOverTheirJoinedAxis() {
        List<NDArray[]> partials = new java.util.ArrayList<>();
        java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        NDArray joined = NDArray.zeros(DType.FLOAT64, 20, 30, 5);
        for (int k = 0; k < 5; k++) {
            NDArray partial = NDArray.zeros(DType.FLOAT64, 20, 30, 1);
            for (long i = 0; i < 20; i++) {
                for (long j = 0; j < 30; j++) {
                    double value = random.nextDouble(-1e6, 1e6);
                    partial.setDouble(value, i, j, 0);
                    joined.setDouble(value, i, j, k);
                }
            }
            partials.add(new NDArray[] {partial});
        }
        Contraction.Addition addition = new Contraction.Addition(DType.FLOAT64);
        NDArray inOrder = addition.combineInOrder(partials, new int[] {2})[0];
        NDArray summed = addition.combine(new NDArray[] {joined}, new int[] {2})[0];
        assertArrayEquals(summed.shape(), inOrder.shape());
        for (long i = 0; i < 20; i++) {
            for (long j = 0; j < 30; j++) {
                assertEquals(Double.doubleToRawLongBits(summed.getDouble(i, j, 0)), Double.doubleToRawLongBits(inOrder.getDouble(i, j, 0)));
            }
        }
    }
}
