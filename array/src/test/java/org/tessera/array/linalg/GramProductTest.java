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
import org.tessera.ndarray.index.Index;

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

    /**
     * Blocks of a megabyte and more are multiplied in pooled native memory, into a sum kept there:
     * a random array and a box of it (made in place, the box from inside its blocks), a stepped
     * view and a transpose (made as they make themselves), a float32 array held in memory. Each
     * product is NumPy's of the computed arrays, and a Gram product is symmetric bit for bit.
     */
    @Test
    void largeBlocksMultiplyInNativeMemoryToNumPysProduct() {
        ChunkedArray random = Creation.random(8, Creation.Distribution.UNIFORM, new long[] {1200, 800}, ChunkSpec.of(400, 400));
        ChunkedArray other = Creation.random(9, Creation.Distribution.UNIFORM, new long[] {1200, 800}, ChunkSpec.of(400, 400));
        List<ChunkedArray> inputs = List.of(random, random.get(Index.range(50L, 1150L, null), Index.all()),
                random.get(Index.range(null, null, 2L), Index.all()));
        for (ChunkedArray x : inputs) {
            NDArray a = x.compute();
            assertGram(NDArrays.matmul(a.transpose(), a), x.T().matmul(x).compute(), 1e-12, "x.T @ x, x of chunks " + x.chunks());
            ChunkedArray y = other.get(Index.range(0L, x.shape(0), null), Index.all());
            NDArray expected = NDArrays.matmul(a.transpose(), y.compute());
            NDArray actual = x.T().matmul(y).compute();
            for (long row = 0; row < 800; row += 7) {
                for (long column = 0; column < 800; column += 5) {
                    assertEquals(expected.getDouble(row, column), actual.getDouble(row, column), 1e-12 * expected.getDouble(row, column),
                            "x.T @ y at (" + row + ", " + column + "), x of chunks " + x.chunks());
                }
            }
        }
        NDArray single = Creation.random(5, Creation.Distribution.UNIFORM, new long[] {1200, 1024}, ChunkSpec.of(400, 512)).compute().astype(DType.FLOAT32);
        ChunkedArray held = ChunkedArrays.fromArray(single, ChunkSpec.of(400, 512));
        NDArray gram = held.T().matmul(held).compute();
        assertEquals(DType.FLOAT32, gram.dtype());
        assertGram(NDArrays.matmul(single.transpose(), single), gram, 1e-5, "float32 held in memory");
    }

    private static void assertGram(NDArray expected, NDArray actual, double tolerance, String label) {
        long side = expected.shape(0);
        for (long row = 0; row < side; row++) {
            for (long column = row; column < side; column++) {
                double value = actual.getDouble(row, column);
                assertEquals(expected.getDouble(row, column), value, tolerance * Math.abs(expected.getDouble(row, column)), label + " at (" + row + ", " + column + ")");
                assertEquals(Double.doubleToRawLongBits(value), Double.doubleToRawLongBits(actual.getDouble(column, row)), label + " symmetric at (" + row + ", " + column + ")");
            }
        }
    }

    @Test
    void onlyTheBlocksOnAndAboveTheDiagonalAreMultiplied() {
        ChunkedArray a = ChunkedArrays.fromArray(NDArrays.ones(DType.FLOAT64, 40, 30), ChunkSpec.of(10, 10));
        ChunkedArray gram = a.T().matmul(a);
        // One task (a group of the four row blocks) for each of the six blocks on and above the diagonal of three by three.
        assertEquals(6, productTasks(gram));
        NDArray result = gram.compute();
        assertEquals(40.0, result.getDouble(29, 0));
        ChunkedArray general = a.T().matmul(ChunkedArrays.fromArray(NDArrays.ones(DType.FLOAT64, 40, 30), ChunkSpec.of(10, 10)));
        assertEquals(9, productTasks(general), "a product of two different arrays multiplies every block");
        // Integers go through the general contraction: a task per block product, four row blocks for each block.
        ChunkedArray integers = ChunkedArrays.fromArray(NDArrays.ones(DType.INT64, 40, 30), ChunkSpec.of(10, 10));
        assertEquals(4 * 6, productTasks(integers.T().matmul(integers)));
        assertEquals(40L, integers.T().matmul(integers).compute().getLong(29, 0));
    }

    private static long productTasks(ChunkedArray product) {
        return product.graph().materialize().tasks().keySet().stream().filter(key -> key.name().startsWith("matmul")).count();
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

    /**
     * Partials of a strip and less, of several strips with a ragged last one, and a strided one
     * (added whole); negative zeros in every partial at some places, where the sum is +0.0.
     */
    @Test
    void partialProductsAddedInOrderAreTheSumOverTheirJoinedAxis() {
        for (long[] shape : List.of(new long[] {20, 30}, new long[] {300, 301})) {
            for (boolean strided : new boolean[] {false, true}) {
                java.util.SplittableRandom random = new java.util.SplittableRandom(3);
                List<NDArray[]> partials = new java.util.ArrayList<>();
                NDArray joined = NDArray.zeros(DType.FLOAT64, shape[0], shape[1], 5);
                for (int k = 0; k < 5; k++) {
                    NDArray partial = NDArray.zeros(DType.FLOAT64, shape[0], shape[1], 1);
                    for (long i = 0; i < shape[0]; i++) {
                        for (long j = 0; j < shape[1]; j++) {
                            double value = (i + j) % 7 == 0 ? -0.0 : random.nextDouble(-1e6, 1e6);
                            partial.setDouble(value, i, j, 0);
                            joined.setDouble(value, i, j, k);
                        }
                    }
                    // The same values as a view that reads stored rows backwards: not contiguous.
                    partials.add(new NDArray[] {strided && k == 2 ? reversedRows(partial) : partial});
                }
                Contraction.Addition addition = new Contraction.Addition(DType.FLOAT64);
                NDArray inOrder = addition.combineInOrder(partials, new int[] {2})[0];
                NDArray summed = addition.combine(new NDArray[] {joined}, new int[] {2})[0];
                NDArray finished = addition.finishCombined(new NDArray[] {inOrder}, new int[] {2}, false);
                NDArray expected = addition.finish(new NDArray[] {joined}, new int[] {2}, false);
                assertArrayEquals(summed.shape(), inOrder.shape());
                assertArrayEquals(expected.shape(), finished.shape());
                String where = java.util.Arrays.toString(shape) + (strided ? " with a strided partial" : "");
                for (long i = 0; i < shape[0]; i++) {
                    for (long j = 0; j < shape[1]; j++) {
                        assertEquals(Double.doubleToRawLongBits(summed.getDouble(i, j, 0)), Double.doubleToRawLongBits(inOrder.getDouble(i, j, 0)),
                                where + " at (" + i + ", " + j + ")");
                        assertEquals(Double.doubleToRawLongBits(expected.getDouble(i, j)), Double.doubleToRawLongBits(finished.getDouble(i, j)),
                                where + " finished at (" + i + ", " + j + ")");
                    }
                }
                assertEquals(0L, Double.doubleToRawLongBits(finished.getDouble(0, 0)), "a sum of negative zeros is +0.0, as NumPy's");
            }
        }
    }

    /** {@code partial}'s values, as a view over its rows stored in reverse. */
    private static NDArray reversedRows(NDArray partial) {
        long rows = partial.shape(0);
        NDArray stored = NDArray.zeros(DType.FLOAT64, partial.shape());
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < partial.shape(1); j++) {
                stored.setDouble(partial.getDouble(rows - 1 - i, j, 0), i, j, 0);
            }
        }
        return stored.slice(0, rows - 1, -1, rows);
    }

    /**
     * A float product whose contracted axis has more blocks than a task adds goes in groups, each
     * task adding its products as it makes them, and a tree over the groups' sums: as many tasks as
     * groups for each output block, and the general contraction's values (a task per block product,
     * then the tree of the same fan-in), groups of one at the end included.
     */
    @Test
    void groupedProductsAddWhatTheGeneralContractionAdds() {
        ChunkedArray a = Creation.random(11, Creation.Distribution.UNIFORM, new long[] {300, 1700}, ChunkSpec.of(100, 100));
        ChunkedArray b = Creation.random(12, Creation.Distribution.NORMAL, new long[] {1700, 200}, ChunkSpec.of(100, 100));
        for (int splitEvery : new int[] {2, 4, 16, 17}) {
            ChunkedArray grouped = ChunkedProducts.matmul(a, b, splitEvery);
            assertEquals(3 * 2 * ((17 + splitEvery - 1) / splitEvery),
                    grouped.graph().materialize().tasks().keySet().stream().filter(key -> key.name().startsWith("matmul-group")).count());
            NDArray general = Contraction.contract("matmul", List.of(a, b), List.of("ik", "kj"), "ij", new ChunkedProducts.MatmulBlocks(),
                    DType.FLOAT64, splitEvery).compute();
            NDArray actual = grouped.compute();
            for (long row = 0; row < 300; row++) {
                for (long column = 0; column < 200; column++) {
                    double expected = general.getDouble(row, column);
                    assertEquals(expected, actual.getDouble(row, column), 1e-13 * 1700, "groups of " + splitEvery + " at (" + row + ", " + column + ")");
                }
            }
        }
    }
}
