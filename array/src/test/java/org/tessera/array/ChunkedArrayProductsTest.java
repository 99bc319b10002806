package org.tessera.array;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.array.MethodOracle.FLOATS;
import static org.tessera.array.MethodOracle.INTEGERS;
import static org.tessera.array.MethodOracle.assertMatches;
import static org.tessera.array.MethodOracle.chunked;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.Creation;
import org.tessera.array.linalg.ChunkedProducts;
import org.tessera.array.reduction.TreeReduction;
import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.layer.Layer;
import org.tessera.graph.schedule.Callback;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.ufunc.Ufuncs;

/** matmul, dot, tensordot, outer and einsum on chunked arrays against the NDArray layer. */
class ChunkedArrayProductsTest {
    /** 9 x 5 values, to multiply FLOATS (7 x 9) from the right. */
    private static final NDArray RIGHT = Ufuncs.SUBTRACT.apply(Ufuncs.MULTIPLY.apply(NDArrays.arange(45).reshape(9, 5), 0.25), 3.0);

    @ParameterizedTest
    @MethodSource("org.tessera.array.MethodOracle#chunkings")
    void matrixProducts(ChunkSpec spec) {
        ChunkedArray a = chunked(FLOATS, spec);
        ChunkedArray b = chunked(RIGHT, ChunkSpec.of(2, 3));
        ChunkedArray integers = chunked(INTEGERS, spec);
        NDArray vector = NDArrays.arange(9).astype(DType.FLOAT64);
        ChunkedArray chunkedVector = chunked(vector, ChunkSpec.size(4));
        assertMatches("matmul", NDArrays.matmul(FLOATS, RIGHT), a.matmul(b));
        assertMatches("matmul int64", NDArrays.matmul(INTEGERS, INTEGERS.transpose()), integers.matmul(integers.T()));
        assertMatches("matrix @ vector", NDArrays.matmul(FLOATS, vector), a.matmul(chunkedVector));
        assertMatches("vector @ matrix", NDArrays.matmul(vector, RIGHT), chunkedVector.matmul(b));
        assertMatches("vector @ vector", NDArrays.matmul(vector, vector), chunkedVector.matmul(chunkedVector));
        assertMatches("dot", NDArrays.dot(FLOATS, RIGHT), a.dot(b));
        assertMatches("dot with a vector", NDArrays.dot(FLOATS, vector), a.dot(chunkedVector));
        assertMatches("tensordot, 1 axis", NDArrays.tensordot(FLOATS, RIGHT, 1), ChunkedProducts.tensordot(a, b, 1));
        assertMatches("tensordot, both axes", NDArrays.tensordot(FLOATS, FLOATS, 2), ChunkedProducts.tensordot(a, a, 2));
        assertMatches("tensordot, axis lists", NDArrays.tensordot(FLOATS, INTEGERS, new int[] {0}, new int[] {0}),
                ChunkedProducts.tensordot(a, integers, new int[] {0}, new int[] {-2}));
        assertMatches("outer", NDArrays.outer(FLOATS, vector), ChunkedProducts.outer(a, chunkedVector));
    }

    @ParameterizedTest
    @MethodSource("org.tessera.array.MethodOracle#chunkings")
    void einsumForTheCommonSubscripts(ChunkSpec spec) {
        ChunkedArray a = chunked(FLOATS, spec);
        ChunkedArray b = chunked(RIGHT, ChunkSpec.of(4, 2));
        NDArray square = NDArrays.matmul(FLOATS, FLOATS.transpose());
        ChunkedArray chunkedSquare = chunked(square, ChunkSpec.of(3, 3));
        assertMatches("ij,jk->ik", NDArrays.einsum("ij,jk->ik", FLOATS, RIGHT), ChunkedProducts.einsum("ij,jk->ik", a, b));
        assertMatches("ij,jk (implicit)", NDArrays.einsum("ij,jk", FLOATS, RIGHT), ChunkedProducts.einsum("ij,jk", a, b));
        assertMatches("ij->ji", NDArrays.einsum("ij->ji", FLOATS), ChunkedProducts.einsum("ij->ji", a));
        assertMatches("ij->", NDArrays.einsum("ij->", FLOATS), ChunkedProducts.einsum("ij->", a));
        assertMatches("ij,ij->i", NDArrays.einsum("ij,ij->i", FLOATS, FLOATS), ChunkedProducts.einsum("ij,ij->i", a, a));
        assertMatches("ii->i", NDArrays.einsum("ii->i", square), ChunkedProducts.einsum("ii->i", chunkedSquare));
        assertMatches("ii (trace)", NDArrays.einsum("ii", square), ChunkedProducts.einsum("ii", chunkedSquare));
        assertMatches("i,j->ij", NDArrays.einsum("i,j->ij", FLOATS.ravel(), RIGHT.ravel()),
                ChunkedProducts.einsum("i,j->ij", a.ravel(), b.ravel()));
        NDArray batch = FLOATS.reshape(1, 7, 9);
        NDArray batches = NDArrays.stack(java.util.List.of(RIGHT, RIGHT), 0);
        assertMatches("...ij,...jk->...ik", NDArrays.einsum("...ij,...jk->...ik", batch, batches),
                ChunkedProducts.einsum("...ij,...jk->...ik", a.reshape(1, 7, 9), chunked(batches, ChunkSpec.of(1, 4, 2))));
        assertMatches("bij,bjk->bik", NDArrays.matmul(batch, batches).reshape(2, 7, 5).copy(),
                ChunkedProducts.einsum("bij,bjk->bik", chunked(NDArrays.concatenate(java.util.List.of(batch, batch), 0), ChunkSpec.of(1, 3, 4)),
                        chunked(batches, ChunkSpec.of(2, 5, 2))));
    }

    @Test
    void batchAxesBroadcastAndKeepDasksChunks() {
        NDArray left = Ufuncs.MULTIPLY.apply(NDArrays.arange(24).reshape(1, 4, 6), 0.5);
        NDArray right = Ufuncs.ADD.apply(NDArrays.arange(60).reshape(2, 6, 5), 1.0);
        ChunkedArray a = chunked(left, ChunkSpec.of(1, 3, 4));
        ChunkedArray b = chunked(right, ChunkSpec.of(1, 2, 2));
        ChunkedArray product = a.matmul(b);
        assertEquals(Chunks.of(new long[] {1, 1}, new long[] {3, 1}, new long[] {2, 2, 1}), product.chunks());
        assertMatches("broadcast batch", NDArrays.matmul(left, right), product);
    }

    @Test
    void booleanProductsStayBoolean() {
        NDArray left = Ufuncs.GREATER.apply(FLOATS, 3.0);
        NDArray right = Ufuncs.LESS.apply(RIGHT, 0.0);
        assertMatches("bool @ bool", NDArrays.matmul(left, right), chunked(left, ChunkSpec.size(2)).matmul(chunked(right, ChunkSpec.size(2))));
    }

    @Test
    void partialProductsAreAddedAsATreeOfBoundedFanIn() {
        NDArray left = Ufuncs.MULTIPLY.apply(NDArrays.arange(4 * 64).reshape(4, 64), 0.5);
        NDArray right = Ufuncs.SUBTRACT.apply(NDArrays.arange(64 * 3).reshape(64, 3), 7.0);
        // Floats: 4 tasks that each multiply and add a group of 4 block pairs, then a tree over the 4 sums.
        ChunkedArray product = ChunkedProducts.matmul(chunked(left, ChunkSpec.of(4, 4)), chunked(right, ChunkSpec.of(4, 3)), 4);
        assertMatches("16 contracted blocks in groups", NDArrays.matmul(left, right), product);
        assertEquals(java.util.Map.of("matmul-group", 4, "sum-of-products", 4 + 1), addingTasks(product, 4));
        // Integers: a task per product (16), then the tree: 4 partial sums of 4, then one of 4.
        NDArray integerLeft = left.astype(DType.INT64);
        NDArray integerRight = right.astype(DType.INT64);
        ChunkedArray integerProduct = ChunkedProducts.matmul(chunked(integerLeft, ChunkSpec.of(4, 4)), chunked(integerRight, ChunkSpec.of(4, 3)), 4);
        assertMatches("16 contracted blocks, one task each", NDArrays.matmul(integerLeft, integerRight), integerProduct);
        assertEquals(java.util.Map.of("sum-of-products", 16 + 4 + 1), addingTasks(integerProduct, 4));
    }

    /**
     * The tasks of the layers that add products, by layer kind, each checked to add at most
     * {@code fanIn} of them: a group multiplies at most that many block pairs, a sum adds at most
     * that many partials.
     */
    private static java.util.Map<String, Integer> addingTasks(ChunkedArray product, int fanIn) {
        TaskGraph tasks = product.graph().materialize();
        java.util.Map<String, Integer> counts = new java.util.TreeMap<>();
        for (Layer layer : product.graph().layers().values()) {
            String kind = layer.name().startsWith("matmul-group") ? "matmul-group" : layer.name().startsWith("sum-of-products") ? "sum-of-products" : null;
            if (kind == null) {
                continue;
            }
            for (Key key : layer.keys()) {
                int inputs = tasks.dependencies(key).size();
                assertTrue(inputs <= (kind.equals("matmul-group") ? 2 * fanIn : fanIn), key + " adds " + inputs + " inputs");
                counts.merge(kind, 1, Integer::sum);
            }
        }
        return counts;
    }

    @Test
    void badOperandsAreRefusedAsNumPyRefusesThem() {
        ChunkedArray a = chunked(FLOATS, ChunkSpec.of(3, 4));
        ChunkedArray scalar = chunked(NDArrays.array(2.0).reshape(), ChunkSpec.whole());
        assertThrows(ShapeMismatchException.class, () -> a.matmul(a));
        assertThrows(IllegalArgumentException.class, () -> a.matmul(scalar));
        assertThrows(ShapeMismatchException.class, () -> chunked(NDArrays.zeros(DType.FLOAT64, 2, 7, 9), ChunkSpec.size(3))
                .matmul(chunked(NDArrays.zeros(DType.FLOAT64, 3, 9, 2), ChunkSpec.size(3))));
        assertThrows(ShapeMismatchException.class, () -> a.dot(a));
        assertThrows(ShapeMismatchException.class, () -> ChunkedProducts.tensordot(a, a, new int[] {0}, new int[] {1}));
        assertThrows(IllegalArgumentException.class, () -> ChunkedProducts.einsum("ij,jk->ik", a));
        assertThrows(IllegalArgumentException.class, () -> ChunkedProducts.einsum("ij->k", a));
        assertMatches("dot with a 0-d operand", Ufuncs.MULTIPLY.apply(FLOATS, 2.0), a.dot(scalar));
    }

    /**
     * Counts the partial sums held at once: a group's sum of products (the chunk step of the sum of
     * products, into which the group's task is fused) is held from the moment it is made until the
     * sum that reads it has run.
     */
    private static final class LivePartialProducts implements Callback {
        private final java.util.Map<Key, Integer> unsummed = new java.util.HashMap<>();
        private final java.util.Map<Key, java.util.Set<Key>> dependencies = new java.util.HashMap<>();
        private int live;
        private int most;
        private int products;

        @Override
        public synchronized void start(TaskGraph graph) {
            for (Key key : graph.tasks().keySet()) {
                java.util.Set<Key> readers = graph.dependents(key);
                if (key.name().startsWith("sum-of-products-chunk") && !readers.isEmpty()) {
                    unsummed.put(key, readers.size());
                }
                dependencies.put(key, graph.dependencies(key));
            }
        }

        @Override
        public synchronized void afterTask(Key key, int worker, Throwable failure) {
            if (unsummed.containsKey(key)) {
                products++;
                most = Math.max(most, ++live);
            }
            for (Key input : dependencies.getOrDefault(key, java.util.Set.of())) {
                if (unsummed.containsKey(input) && unsummed.merge(input, -1, Integer::sum) == 0) {
                    live--;
                }
            }
        }
    }

    @Test
    void theSchedulerAddsPartialProductsBeforeMakingMoreSoTheyStayBoundedWhateverTheContraction() {
        // A.T @ A as W2 in small: the blocks on and above the diagonal of a 2 x 2 result, each the sum of one product
        // per row block of A, added in groups of four by the tasks that make them, and the groups' sums in trees of
        // four. The order adds the sums of a tree before it starts many more groups, so about two trees' worth of sums
        // are held, plus what the two workers have in hand, whether A has 8 row blocks or 32; run breadth first, all
        // 24 sums of the longer one would be.
        for (int rowBlocks : new int[] {8, 32}) {
            ChunkedArray a = Creation.random(8, Creation.Distribution.UNIFORM, new long[] {rowBlocks * 300L, 600}, ChunkSpec.of(300, 300));
            LivePartialProducts partials = new LivePartialProducts();
            NDArray gram = a.T().matmul(a).compute(ThreadedScheduler.builder().workers(2).callback(partials).build());
            assertEquals(3 * rowBlocks / TreeReduction.DEFAULT_SPLIT_EVERY, partials.products,
                    "one sum per group of row blocks for each block on and above the diagonal");
            int bound = 2 * TreeReduction.DEFAULT_SPLIT_EVERY + 2;
            assertTrue(partials.most <= bound, partials.most + " partial products held at once, of " + partials.products + ", over " + bound);
            NDArray values = a.compute();
            NDArray expected = NDArrays.matmul(values.transpose(), values);
            for (long row = 0; row < 600; row += 97) {
                for (long column = 0; column < 600; column += 89) {
                    assertEquals(expected.getDouble(row, column), gram.getDouble(row, column), 1e-9 * Math.abs(expected.getDouble(row, column)));
                }
            }
        }
    }
}
