package org.tessera.array;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.array.MethodOracle.FLOATS;
import static org.tessera.array.MethodOracle.INTEGERS;
import static org.tessera.array.MethodOracle.assertMatches;
import static org.tessera.array.MethodOracle.chunked;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Function;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.AxisException;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.ufunc.Ufuncs;

/** ChunkedArray's elementwise, shape and block methods against the NDArray layer, over several chunkings. */
class ChunkedArrayMethodsTest {
    /** 7 x 9 float64 values of another pattern, chunked differently from the first operand in the tests. */
    private static final NDArray OTHER_FLOATS = Ufuncs.ADD.apply(Ufuncs.MULTIPLY.apply(NDArrays.arange(63).reshape(7, 9), -0.75), 20.0);
    private static final NDArray ROW = NDArrays.linspace(-2, 2, 9);

    static java.util.stream.Stream<org.junit.jupiter.api.Named<ChunkSpec>> chunkings() {
        return MethodOracle.chunkings();
    }

    @Nested
    class Elementwise {
        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayMethodsTest#chunkings")
        void arithmeticMatchesTheNDArrayLayer(ChunkSpec spec) {
            ChunkedArray x = chunked(FLOATS, spec);
            ChunkedArray y = chunked(OTHER_FLOATS, ChunkSpec.of(4, 2));
            assertMatches("add", Ufuncs.ADD.apply(FLOATS, OTHER_FLOATS), x.add(y));
            assertMatches("subtract an NDArray row", Ufuncs.SUBTRACT.apply(FLOATS, ROW), x.subtract(ROW));
            assertMatches("multiply", Ufuncs.MULTIPLY.apply(FLOATS, 2.5), x.multiply(2.5));
            assertMatches("divide", Ufuncs.TRUE_DIVIDE.apply(FLOATS, OTHER_FLOATS), x.divide(y));
            assertMatches("floorDivide", Ufuncs.FLOOR_DIVIDE.apply(FLOATS, 3), x.floorDivide(3));
            assertMatches("remainder", Ufuncs.REMAINDER.apply(FLOATS, -4), x.remainder(-4));
            assertMatches("power", Ufuncs.POWER.apply(FLOATS, 2), x.power(2));
            assertMatches("negative", Ufuncs.NEGATIVE.apply(FLOATS), x.negative());
            assertMatches("abs", Ufuncs.ABSOLUTE.apply(FLOATS), x.abs());
            assertMatches("apply", Ufuncs.MAXIMUM.apply(FLOATS, OTHER_FLOATS), x.apply(Ufuncs.MAXIMUM, y));
            assertMatches("apply unary", Ufuncs.EXP.apply(FLOATS), x.apply(Ufuncs.EXP));
        }

        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayMethodsTest#chunkings")
        void integerArithmeticFollowsNumPysSignsAndTypes(ChunkSpec spec) {
            ChunkedArray x = chunked(INTEGERS, spec);
            assertMatches("divide gives float64", Ufuncs.TRUE_DIVIDE.apply(INTEGERS, 4), x.divide(4));
            assertMatches("floorDivide by a negative", Ufuncs.FLOOR_DIVIDE.apply(INTEGERS, -4), x.floorDivide(-4));
            assertMatches("remainder has the divisor's sign", Ufuncs.REMAINDER.apply(INTEGERS, -7), x.remainder(-7));
            assertMatches("power", Ufuncs.POWER.apply(INTEGERS, 3), x.power(3));
            assertMatches("abs", Ufuncs.ABSOLUTE.apply(INTEGERS), x.abs());
            assertMatches("subtract a chunked array", Ufuncs.SUBTRACT.apply(INTEGERS, FLOATS), x.subtract(chunked(FLOATS, ChunkSpec.size(5))));
        }

        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayMethodsTest#chunkings")
        void comparisonsGiveBool(ChunkSpec spec) {
            ChunkedArray x = chunked(FLOATS, spec);
            ChunkedArray y = chunked(OTHER_FLOATS, ChunkSpec.of(2, 5));
            assertMatches("equal", Ufuncs.EQUAL.apply(FLOATS, OTHER_FLOATS), x.equal(y));
            assertMatches("notEqual", Ufuncs.NOT_EQUAL.apply(FLOATS, 0.75), x.notEqual(0.75));
            assertMatches("less", Ufuncs.LESS.apply(FLOATS, ROW), x.less(ROW));
            assertMatches("lessEqual", Ufuncs.LESS_EQUAL.apply(FLOATS, OTHER_FLOATS), x.lessEqual(y));
            assertMatches("greater", Ufuncs.GREATER.apply(FLOATS, 1), x.greater(1));
            assertMatches("greaterEqual", Ufuncs.GREATER_EQUAL.apply(FLOATS, 0.75), x.greaterEqual(0.75));
            assertEquals(DType.BOOL, x.less(y).dtype());
        }

        @Test
        void javaNumbersAreWeakScalarsThatKeepTheArrayDtype() {
            ChunkedArray small = chunked(NDArrays.full(DType.INT8, 3, 10), ChunkSpec.size(4));
            ChunkedArray single = chunked(FLOATS.astype(DType.FLOAT32), ChunkSpec.size(4));
            assertEquals(DType.INT8, small.add(1).dtype());
            assertEquals(DType.FLOAT64, small.add(1.5).dtype());
            assertEquals(DType.FLOAT32, single.multiply(2.0).dtype());
            assertEquals(DType.FLOAT64, single.multiply(chunked(FLOATS, ChunkSpec.size(4))).dtype());
            assertMatches("int8 plus 1", NDArrays.full(DType.INT8, 4, 10), small.add(1));
        }

        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayMethodsTest#chunkings")
        void elementwiseMethodsKeepTheChunks(ChunkSpec spec) {
            ChunkedArray x = chunked(FLOATS, spec);
            List<Function<ChunkedArray, ChunkedArray>> operations = List.of(
                    array -> array.add(1), array -> array.multiply(ROW), array -> array.negative(), array -> array.abs(),
                    array -> array.less(0), array -> array.astype(DType.INT32), array -> array.clip(-1, 1),
                    array -> ChunkedArray.where(array.greater(0), array, 0.0), array -> array.add(array));
            for (Function<ChunkedArray, ChunkedArray> operation : operations) {
                assertEquals(x.chunks(), operation.apply(x).chunks());
            }
        }

        @Test
        void operandsOfDifferentChunksAreUnifiedToTheCommonBoundaries() {
            ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 4));
            ChunkedArray y = chunked(OTHER_FLOATS, ChunkSpec.of(4, 9));
            assertEquals(Chunks.of(new long[] {3, 1, 2, 1}, new long[] {4, 4, 1}), x.add(y).chunks());
        }

        @Test
        void shapesThatDoNotBroadcastAreNamed() {
            ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 4));
            ChunkedArray vector = chunked(NDArrays.arange(4), ChunkSpec.size(2));
            ShapeMismatchException error = assertThrows(ShapeMismatchException.class, () -> x.add(vector));
            assertEquals("operands could not be broadcast together with shapes (7,9) (4,)", error.getMessage());
            assertThrows(ShapeMismatchException.class, () -> x.less(NDArrays.arange(4)));
        }
    }

    @Nested
    class CastClipAndWhere {
        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayMethodsTest#chunkings")
        void astypeCastsEveryBlockAndPredictsTheDtype(ChunkSpec spec) {
            ChunkedArray x = chunked(FLOATS, spec);
            assertMatches("float64 to int32 truncates", FLOATS.astype(DType.INT32), x.astype(DType.INT32));
            assertMatches("float64 to bool", FLOATS.astype(DType.BOOL), x.astype(DType.BOOL));
            assertMatches("int64 to float32", INTEGERS.astype(DType.FLOAT32), chunked(INTEGERS, spec).astype(DType.FLOAT32));
            assertSame(x, x.astype(DType.FLOAT64));
            assertThrows(NullPointerException.class, () -> x.astype(null));
        }

        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayMethodsTest#chunkings")
        void clipLimitsToEitherOrBothBounds(ChunkSpec spec) {
            ChunkedArray x = chunked(FLOATS, spec);
            assertMatches("clip(-3, 5)", Ufuncs.CLIP.apply(FLOATS, -3, 5), x.clip(-3, 5));
            assertMatches("clip(None, 2.5)", Ufuncs.MINIMUM.apply(FLOATS, 2.5), x.clip(null, 2.5));
            assertMatches("clip(0, None)", Ufuncs.MAXIMUM.apply(FLOATS, 0), x.clip(0, null));
            assertMatches("clip to array bounds", Ufuncs.CLIP.apply(FLOATS, ROW, OTHER_FLOATS), x.clip(ROW, chunked(OTHER_FLOATS, ChunkSpec.size(3))));
            assertMatches("clip int64 keeps int64", Ufuncs.CLIP.apply(INTEGERS, -5, 5), chunked(INTEGERS, spec).clip(-5, 5));
        }

        @Test
        void clipWithoutBoundsNamesTheArray() {
            ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 4));
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> x.clip(null, null));
            assertEquals("clip: one of min or max must be given (both are null) for array of shape [7, 9] and dtype float64", error.getMessage());
        }

        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayMethodsTest#chunkings")
        void whereChoosesBetweenChunkedArraysNDArraysAndScalars(ChunkSpec spec) {
            ChunkedArray x = chunked(FLOATS, spec);
            ChunkedArray y = chunked(OTHER_FLOATS, ChunkSpec.of(2, 5));
            NDArray positive = Ufuncs.GREATER.apply(FLOATS, 0);
            assertMatches("chunked condition and operands", NDArrays.where(positive, FLOATS, OTHER_FLOATS), ChunkedArray.where(x.greater(0), x, y));
            assertMatches("NDArray condition, scalar y", NDArrays.where(positive, FLOATS, -1.0), ChunkedArray.where(positive, x, -1.0));
            assertMatches("broadcast row", NDArrays.where(positive, ROW, OTHER_FLOATS), ChunkedArray.where(x.greater(0), ROW, y));
            assertMatches("integer condition is read as truth", NDArrays.where(INTEGERS, 1, 0.5), ChunkedArray.where(chunked(INTEGERS, spec), 1, 0.5));
            assertMatches("scalar condition", NDArrays.where(NDArray.scalar(true), FLOATS, OTHER_FLOATS), ChunkedArray.where(true, x, y));
        }

        @Test
        void whereNamesTheShapesThatDoNotBroadcast() {
            ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 4));
            ShapeMismatchException error = assertThrows(ShapeMismatchException.class,
                    () -> ChunkedArray.where(x.greater(0), x, chunked(NDArrays.arange(4), ChunkSpec.size(2))));
            assertTrue(error.getMessage().contains("(7,9) (7,9) (4,)"), error.getMessage());
        }
    }

    @Nested
    class TransposeAndRechunk {
        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayMethodsTest#chunkings")
        void transposeMatchesNumPy(ChunkSpec spec) {
            ChunkedArray x = chunked(FLOATS, spec);
            assertMatches("transpose()", FLOATS.transpose().copy(), x.transpose());
            assertMatches("T()", FLOATS.transpose().copy(), x.T());
            assertMatches("transpose(-1, 0)", FLOATS.transpose().copy(), x.transpose(-1, 0));
            assertMatches("transpose(0, 1)", FLOATS, x.transpose(0, 1));
            assertEquals(Chunks.of(x.chunks().axis(1), x.chunks().axis(0)), x.T().chunks());
        }

        @Test
        void transposeOfThreeAxesPermutesBlocks() {
            NDArray cube = NDArrays.arange(120).reshape(4, 5, 6);
            ChunkedArray x = chunked(cube, ChunkSpec.of(3, 2, 4));
            assertMatches("transpose(2, 0, 1)", cube.transpose(2, 0, 1).copy(), x.transpose(2, 0, 1));
            assertEquals(Chunks.of(new long[] {4, 2}, new long[] {3, 1}, new long[] {2, 2, 1}), x.transpose(2, 0, 1).chunks());
        }

        @Test
        void transposeNamesBadAxes() {
            ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 4));
            assertEquals("transpose: axes [1] do not match an array of 2 axes", assertThrows(IllegalArgumentException.class, () -> x.transpose(1)).getMessage());
            assertEquals("axis 2 is out of bounds for array of dimension 2", assertThrows(AxisException.class, () -> x.transpose(0, 2)).getMessage());
            assertEquals("transpose: repeated axis in [1, -1]", assertThrows(IllegalArgumentException.class, () -> x.transpose(1, -1)).getMessage());
        }

        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayMethodsTest#chunkings")
        void rechunkKeepsTheValues(ChunkSpec spec) {
            ChunkedArray x = chunked(FLOATS, spec);
            ChunkedArray regular = x.rechunk(ChunkSpec.of(2, 5));
            assertEquals(Chunks.of(new long[] {2, 2, 2, 1}, new long[] {5, 4}), regular.chunks());
            assertMatches("rechunk((2, 5))", FLOATS, regular);
            ChunkedArray explicit = x.rechunk(Chunks.of(new long[] {7}, new long[] {3, 6}));
            assertMatches("rechunk(((7,), (3, 6)))", FLOATS, explicit);
            assertEquals(Chunks.of(new long[] {7}, new long[] {9}), x.rechunk(ChunkSpec.auto()).chunks());
            assertSame(x, x.rechunk(x.chunks()));
        }

        @Test
        void rechunkNamesChunksThatDoNotFitTheShape() {
            ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 4));
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> x.rechunk(Chunks.of(new long[] {3, 3}, new long[] {9})));
            assertEquals("chunks ((3, 3), (9,)) do not add up to shape [7, 9]: axis 0 sums to 6", error.getMessage());
        }
    }

    @Nested
    class Blocks {
        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayMethodsTest#chunkings")
        void blockIsTheOneBlockArrayOfThatBlock(ChunkSpec spec) {
            ChunkedArray x = chunked(FLOATS, spec);
            List<NDArray> blocks = x.computeBlocks();
            int[] counts = x.numBlocks();
            int flat = 0;
            for (int row = 0; row < counts[0]; row++) {
                for (int column = 0; column < counts[1]; column++, flat++) {
                    ChunkedArray block = x.block(row, column);
                    assertEquals(Chunks.of(new long[] {x.chunks().length(0, row)}, new long[] {x.chunks().length(1, column)}), block.chunks());
                    assertMatches("block (" + row + ", " + column + ")", blocks.get(flat), block);
                }
            }
            assertMatches("block (-1, -1) is the last", blocks.getLast(), x.block(-1, -1));
        }

        @Test
        void blockAddsOneLayerWhoseOnlyTaskRefersToTheOriginalKey() {
            ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 4));
            ChunkedArray block = x.block(1, 2);
            assertEquals(x.graph().layers().size() + 1, block.graph().layers().size());
            MaterializedLayer layer = (MaterializedLayer) block.graph().layer(block.name());
            assertEquals(Map.of(Key.of(block.name(), 0, 0), Task.ref(x.key(1, 2))), layer.tasks());
            assertEquals(Set.of(x.name()), block.graph().dependencies(block.name()));
            assertEquals(x.block(1, 2).name(), block.name());
            assertFalse(x.block(2, 1).name().equals(block.name()));
        }

        @Test
        void blockAndIterateBlocksComputeOnlyTheBlocksAskedFor() {
            ChunkedArray x = halfBroken();
            assertMatches("the computable block", NDArrays.full(DType.FLOAT64, 1, 2, 2), x.block(0, 0));
            Iterator<NDArray> blocks = x.iterateBlocks(MethodOracle.SYNCHRONOUS);
            assertEquals(NDArrays.full(DType.FLOAT64, 1, 2, 2).toString(), blocks.next().toString());
            RuntimeException failure = assertThrows(RuntimeException.class, blocks::next);
            assertTrue(failure.toString().contains("broken"), failure.toString());
        }

        /** A 4 x 4 array of 2 x 2 blocks whose blocks other than (0, 0) fail when computed. */
        private static ChunkedArray halfBroken() {
            TaskFunction ones = TaskFunction.unary("ones", (Integer n) -> NDArrays.full(DType.FLOAT64, 1, n, n));
            TaskFunction broken = TaskFunction.unary("broken", (Integer n) -> {
                throw new IllegalStateException("broken block of " + n + " x " + n + " must not be computed");
            });
            Map<Key, Task> tasks = Map.of(Key.of("half", 0, 0), Task.call(ones, 2), Key.of("half", 0, 1), Task.call(broken, 2),
                    Key.of("half", 1, 0), Task.call(broken, 2), Key.of("half", 1, 1), Task.call(broken, 2));
            HighLevelGraph graph = HighLevelGraph.empty().with(new MaterializedLayer("half", tasks), Set.of());
            return new ChunkedArray(graph, "half", Chunks.of(new long[] {2, 2}, new long[] {2, 2}), DType.FLOAT64);
        }

        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayMethodsTest#chunkings")
        void iterateBlocksGoesThroughTheGridInCOrder(ChunkSpec spec) {
            ChunkedArray x = chunked(FLOATS, spec).multiply(2);
            List<NDArray> expected = x.computeBlocks();
            List<String> iterated = new ArrayList<>();
            Iterator<NDArray> blocks = x.iterateBlocks();
            while (blocks.hasNext()) {
                iterated.add(blocks.next().toString());
            }
            assertEquals(expected.stream().map(NDArray::toString).toList(), iterated);
            NoSuchElementException end = assertThrows(NoSuchElementException.class, blocks::next);
            assertTrue(end.getMessage().startsWith("all " + expected.size() + " blocks of "), end.getMessage());
        }

        @Test
        void blockIndexErrorsNameTheIndexAndTheGrid() {
            ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 4));
            assertEquals("block index [0] has 1 positions for an array of 2 axes (block grid [3, 3])",
                    assertThrows(IllegalArgumentException.class, () -> x.block(0)).getMessage());
            assertEquals("block index [3, 0]: position 3 on axis 0 is outside the block grid [3, 3]",
                    assertThrows(IndexOutOfBoundsException.class, () -> x.block(3, 0)).getMessage());
            assertEquals("block index [0, -4]: position -4 on axis 1 is outside the block grid [3, 3]",
                    assertThrows(IndexOutOfBoundsException.class, () -> x.block(0, -4)).getMessage());
        }
    }
}
