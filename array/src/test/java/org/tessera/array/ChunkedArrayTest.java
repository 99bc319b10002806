package org.tessera.array;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.tessera.array.blockwise.Elementwise;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.Creation;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Ufuncs;

class ChunkedArrayTest {
    static NDArray matrix(long rows, long columns) {
        return Ufuncs.MULTIPLY.apply(NDArrays.arange(rows * columns).reshape(rows, columns), 0.5);
    }

    static void assertSameArray(NDArray expected, NDArray actual) {
        assertEquals(expected.dtype(), actual.dtype());
        assertArrayEquals(expected.shape(), actual.shape());
        assertEquals(expected.toString(), actual.toString());
    }

    @Test
    void anArrayBuiltByHandAsInTheDaskDesignNotes() {
        // The eye example: a graph of blocks, a name, chunks and a dtype.
        TaskFunction eye = TaskFunction.unary("eye", (Integer n) -> NDArrays.eye(n, n, 0, DType.FLOAT64));
        TaskFunction zeros = TaskFunction.unary("zeros", (Integer n) -> NDArray.zeros(DType.FLOAT64, n, n));
        Map<Key, Task> tasks = Map.of(
                Key.of("x", 0, 0), Task.call(eye, 5), Key.of("x", 1, 1), Task.call(eye, 5),
                Key.of("x", 0, 1), Task.call(zeros, 5), Key.of("x", 1, 0), Task.call(zeros, 5));
        HighLevelGraph graph = HighLevelGraph.empty().with(new MaterializedLayer("x", tasks), Set.of());
        ChunkedArray x = new ChunkedArray(graph, "x", Chunks.of(new long[] {5, 5}, new long[] {5, 5}), DType.FLOAT64);
        assertSameArray(NDArrays.eye(10, 10, 0, DType.FLOAT64), x.compute());
        assertEquals(List.of(List.of(Key.of("x", 0, 0), Key.of("x", 0, 1)), List.of(Key.of("x", 1, 0), Key.of("x", 1, 1))), x.keys());
        assertSameArray(NDArrays.eye(10, 10, 0, DType.FLOAT64), Creation.eye(10, 10, 0, DType.FLOAT64, ChunkSpec.size(5)).compute());
        assertSameArray(NDArrays.eye(7, 9, 2, DType.FLOAT64), Creation.eye(7, 9, 2, DType.FLOAT64, ChunkSpec.of(3, 4)).compute());
    }

    @Test
    void elementwiseMatchesTheNDArrayLayerOverAnyChunking() {
        NDArray a = matrix(7, 9);
        NDArray b = Ufuncs.SUBTRACT.apply(matrix(7, 9), 3.0);
        NDArray row = NDArrays.linspace(0, 1, 9);
        for (ChunkSpec first : List.of(ChunkSpec.size(1), ChunkSpec.of(3, 4), ChunkSpec.explicit(new long[] {2, 5}, new long[] {1, 1, 7}))) {
            ChunkedArray x = Creation.fromSource(RegionSource.of(a), first);
            ChunkedArray y = Creation.fromSource(RegionSource.of(b), ChunkSpec.of(4, 2));
            ChunkedArray r = Creation.fromSource(RegionSource.of(row), ChunkSpec.size(5));
            assertSameArray(Ufuncs.ADD.apply(a, b), Elementwise.apply(Ufuncs.ADD, x, y).compute());
            assertSameArray(Ufuncs.MULTIPLY.apply(a, row), Elementwise.apply(Ufuncs.MULTIPLY, x, r).compute());
            assertSameArray(Ufuncs.LESS.apply(a, 2), Elementwise.apply(Ufuncs.LESS, x, 2).compute());
            assertSameArray(Ufuncs.EXP.apply(a), Elementwise.apply(Ufuncs.EXP, x).compute(new SynchronousScheduler()));
        }
    }

    @Test
    void transposeIsBlockwiseAndMatchesNumPy() {
        NDArray a = matrix(7, 9);
        ChunkedArray x = Creation.fromSource(RegionSource.of(a), ChunkSpec.of(3, 4));
        ChunkedArray t = org.tessera.array.reshape.Transpose.transpose(x);
        assertEquals(Chunks.of(new long[] {4, 4, 1}, new long[] {3, 3, 1}), t.chunks());
        assertSameArray(a.transpose().copy(), t.compute());
        // W1's expression: (x + x.T).mean(axis=0) on a square array.
        NDArray square = matrix(10, 10);
        ChunkedArray y = Creation.fromSource(RegionSource.of(square), ChunkSpec.of(3, 3));
        ChunkedArray w1 = org.tessera.array.reduction.ChunkedStatistics.mean(
                Elementwise.apply(Ufuncs.ADD, y, org.tessera.array.reshape.Transpose.transpose(y)),
                org.tessera.array.reduction.ChunkedStatistics.Request.axes(0));
        NDArray expected = NDArrays.mean(Ufuncs.ADD.apply(square, square.transpose()), org.tessera.ndarray.ufunc.Reductions.Options.axes(0));
        NDArray actual = w1.compute();
        for (long column = 0; column < 10; column++) {
            assertEquals(expected.getDouble(column), actual.getDouble(column), 1e-12 * Math.abs(expected.getDouble(column)));
        }
    }

    @Test
    void weakScalarsKeepTheArrayDtypeAndMetaPredictsIt() {
        ChunkedArray small = Creation.full(new long[] {10}, 3, DType.INT8, ChunkSpec.size(4));
        ChunkedArray plusOne = Elementwise.apply(Ufuncs.ADD, small, 1);
        assertEquals(DType.INT8, plusOne.dtype());
        assertEquals(DType.FLOAT64, Elementwise.apply(Ufuncs.ADD, small, 1.5).dtype());
        assertEquals(DType.FLOAT64, Elementwise.apply(Ufuncs.TRUE_DIVIDE, small, small).dtype());
        assertEquals(DType.BOOL, Elementwise.apply(Ufuncs.GREATER, small, 2).dtype());
        assertSameArray(NDArrays.full(DType.INT8, 4, 10), plusOne.compute());
    }

    @Test
    void namesAreTokensOfTheExpression() {
        ChunkedArray x = Creation.random(1, Creation.Distribution.UNIFORM, new long[] {100, 100}, ChunkSpec.size(30));
        ChunkedArray same = Creation.random(1, Creation.Distribution.UNIFORM, new long[] {100, 100}, ChunkSpec.size(30));
        assertEquals(x.name(), same.name());
        assertEquals(Elementwise.apply(Ufuncs.ADD, x, 1.0).name(), Elementwise.apply(Ufuncs.ADD, same, 1.0).name());
        assertNotEquals(Elementwise.apply(Ufuncs.ADD, x, 1.0).name(), Elementwise.apply(Ufuncs.ADD, x, 2.0).name());
        assertNotEquals(Elementwise.apply(Ufuncs.ADD, x, x).name(), Elementwise.apply(Ufuncs.MULTIPLY, x, x).name());
        assertNotEquals(x.name(), Creation.random(2, Creation.Distribution.UNIFORM, new long[] {100, 100}, ChunkSpec.size(30)).name());
    }

    @Test
    void randomBlocksDoNotDependOnTheScheduler() {
        ChunkedArray x = Creation.random(42, Creation.Distribution.NORMAL, new long[] {200, 50}, ChunkSpec.of(30, 20));
        NDArray one = x.compute(new SynchronousScheduler());
        NDArray four = x.compute(ThreadedScheduler.builder().workers(4).build());
        assertEquals(one.toString(), four.toString());
        double mean = NDArrays.sum(one).getDouble() / one.size();
        assertTrue(Math.abs(mean) < 0.1, "mean of 10000 normal values " + mean);
        NDArray uniform = Creation.random(7, Creation.Distribution.UNIFORM, new long[] {10000}, ChunkSpec.size(999)).compute();
        assertTrue(Math.abs(NDArrays.sum(uniform).getDouble() / 10000 - 0.5) < 0.02);
        NDArray integers = Creation.randomIntegers(3, 5, 8, new long[] {1000}, ChunkSpec.size(100)).compute();
        assertTrue(Ufuncs.LOGICAL_AND.apply(Ufuncs.GREATER_EQUAL.apply(integers, 5), Ufuncs.LESS.apply(integers, 8)).toString().indexOf("False") < 0);
    }

    @Test
    void creationFunctionsMatchNumPy() {
        assertSameArray(NDArrays.arange(0, 17, 3).astype(DType.FLOAT64), Creation.arange(0, 17, 3, DType.FLOAT64, ChunkSpec.size(2)).compute());
        assertSameArray(NDArrays.linspace(0, 1, 11), Creation.linspace(0, 1, 11, ChunkSpec.size(4)).compute());
        assertSameArray(NDArrays.full(DType.INT32, 7, 3, 4), Creation.full(new long[] {3, 4}, 7, DType.INT32, ChunkSpec.size(2)).compute());
    }

    @Test
    void persistKeepsNameAndChunksAndHoldsTheBlocks() {
        ChunkedArray x = Elementwise.apply(Ufuncs.ADD, Creation.fromSource(RegionSource.of(matrix(6, 6)), ChunkSpec.size(3)), 1.0);
        ChunkedArray persisted = x.persist();
        assertEquals(x.name(), persisted.name());
        assertEquals(x.chunks(), persisted.chunks());
        assertEquals(4, persisted.graph().taskCount());
        assertSameArray(x.compute(), persisted.compute());
    }

    @Test
    void reprIsDasks() {
        ChunkedArray x = Creation.random(0, Creation.Distribution.UNIFORM, new long[] {20000, 20000}, ChunkSpec.size(2000));
        assertEquals("ChunkedArray<random-uniform, shape=(20000, 20000), dtype=float64, chunksize=(2000, 2000), chunktype=NDArray, bytes=3.2 GB, tasks=100>",
                x.toString());
        assertThrows(IllegalArgumentException.class, () -> Elementwise.apply(Ufuncs.ADD, x, Creation.full(new long[] {3}, 0, DType.FLOAT64, ChunkSpec.auto())));
    }
}
