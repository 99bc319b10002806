package org.tessera.array.creation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Ufuncs;

/** Every chunked creation function against the same array made by the NDArray layer, over several chunkings. */
public class CreationTest {
    private static final SynchronousScheduler SCHEDULER = new SynchronousScheduler();

    /** Dtype and shape from the meta and chunks, then the computed values, equal to {@code expected}. */
    public static void assertSameArray(NDArray expected, ChunkedArray actual) {
        assertEquals(expected.dtype(), actual.dtype(), "dtype predicted by the meta");
        assertArrayEquals(expected.shape(), actual.shape(), "shape from the chunks");
        NDArray computed = actual.compute(SCHEDULER);
        assertEquals(expected.dtype(), computed.dtype());
        assertArrayEquals(expected.shape(), computed.shape());
        assertEquals(expected.toString(), computed.toString());
    }

    /** Irregular block lengths for an axis: a block of 1, then two unequal blocks (fewer when short). */
    static long[] irregular(long length) {
        if (length <= 2) {
            return new long[] {length};
        }
        long middle = (length - 1) / 2 + 1;
        return new long[] {1, middle, length - 1 - middle};
    }

    static ChunkSpec irregular(long... shape) {
        return ChunkSpec.explicit(Arrays.stream(shape).mapToObj(CreationTest::irregular).toArray(long[][]::new));
    }

    /** Regular, single-element and irregular chunkings of {@code shape}. */
    static List<ChunkSpec> chunkings(long... shape) {
        return List.of(ChunkSpec.size(2), ChunkSpec.size(1), irregular(shape), ChunkSpec.whole());
    }

    static NDArray matrix(long rows, long columns) {
        return Ufuncs.MULTIPLY.apply(NDArrays.arange(rows * columns).reshape(rows, columns), 0.5);
    }

    @Nested
    class Filled {
        @ParameterizedTest
        @EnumSource(value = DType.class, names = {"BOOL", "INT8", "INT32", "UINT16", "FLOAT32", "FLOAT64", "COMPLEX128"})
        void zerosOnesEmptyAndFullMatchTheNDArrayLayer(DType dtype) {
            long[] shape = {7, 6};
            for (ChunkSpec spec : chunkings(shape)) {
                assertSameArray(NDArrays.zeros(dtype, shape), Creation.zeros(shape, dtype, spec));
                assertSameArray(NDArrays.ones(dtype, shape), Creation.ones(shape, dtype, spec));
                // empty's values are unspecified; Tessera's are zeros.
                assertSameArray(NDArrays.zeros(dtype, shape), Creation.empty(shape, dtype, spec));
                assertSameArray(NDArrays.full(dtype, 3, shape), Creation.full(shape, 3, dtype, spec));
            }
        }

        @Test
        void zerosTakeTheChunksOfTheirSpec() {
            ChunkedArray zeros = Creation.zeros(new long[] {7, 6}, DType.FLOAT64, irregular(7, 6));
            assertEquals(Chunks.of(new long[] {1, 4, 2}, new long[] {1, 3, 2}), zeros.chunks());
            assertEquals(Chunks.of(new long[] {4, 3}, new long[] {5, 1}), Creation.ones(new long[] {7, 6}, DType.INT8, ChunkSpec.of(4, 5)).chunks());
            assertSameArray(NDArrays.zeros(DType.FLOAT64, 0, 3), Creation.zeros(new long[] {0, 3}, DType.FLOAT64, ChunkSpec.size(2)));
            assertSameArray(NDArrays.full(DType.FLOAT64, -0.0, 5), Creation.full(new long[] {5}, -0.0, DType.FLOAT64, ChunkSpec.size(2)));
        }

        @Test
        void likeFunctionsKeepShapeAndChunksAndTakeTheDtype() {
            NDArray values = matrix(7, 9);
            for (ChunkSpec spec : chunkings(7, 9)) {
                ChunkedArray x = Creation.asarray(values, spec);
                List<ChunkedArray> made = List.of(Creation.zerosLike(x), Creation.onesLike(x), Creation.emptyLike(x), Creation.fullLike(x, 2.5),
                        Creation.zerosLike(x, DType.INT16), Creation.onesLike(x, DType.BOOL), Creation.emptyLike(x, DType.UINT8),
                        Creation.fullLike(x, 2.5, DType.INT32));
                made.forEach(array -> assertEquals(x.chunks(), array.chunks()));
                assertSameArray(NDArrays.zerosLike(values), made.get(0));
                assertSameArray(NDArrays.onesLike(values), made.get(1));
                assertSameArray(NDArrays.zerosLike(values), made.get(2));
                assertSameArray(NDArrays.fullLike(values, 2.5), made.get(3));
                assertSameArray(NDArrays.zeros(DType.INT16, 7, 9), made.get(4));
                assertSameArray(NDArrays.ones(DType.BOOL, 7, 9), made.get(5));
                assertSameArray(NDArrays.zeros(DType.UINT8, 7, 9), made.get(6));
                assertSameArray(NDArrays.full(DType.INT32, 2, 7, 9), made.get(7));
            }
        }

        @Test
        void asarrayBlocksAreViewsOfTheArray() {
            NDArray values = matrix(5, 8);
            for (ChunkSpec spec : chunkings(5, 8)) {
                ChunkedArray x = Creation.asarray(values, spec);
                assertSameArray(values, x);
                assertEquals(Creation.fromSource(RegionSource.of(values), spec).name(), x.name());
            }
            ChunkedArray x = Creation.asarray(values, ChunkSpec.size(3));
            values.setDouble(-1, 4, 7);
            assertEquals(-1, x.compute(SCHEDULER).getDouble(4, 7));
        }

        @Test
        void negativeLengthsAreRefusedNamingTheShape() {
            IllegalArgumentException zeros = assertThrows(IllegalArgumentException.class,
                    () -> Creation.zeros(new long[] {2, -1}, DType.FLOAT64, ChunkSpec.auto()));
            assertTrue(zeros.getMessage().contains("zeros") && zeros.getMessage().contains("negative") && zeros.getMessage().contains("[2, -1]"),
                    zeros.getMessage());
            assertThrows(IllegalArgumentException.class, () -> Creation.ones(new long[] {-3}, DType.INT8, ChunkSpec.size(2)));
            assertThrows(IllegalArgumentException.class, () -> Creation.empty(new long[] {-3}, DType.INT8, ChunkSpec.size(2)));
            assertThrows(IllegalArgumentException.class, () -> Creation.full(new long[] {-3}, 1, DType.INT8, ChunkSpec.size(2)));
            IllegalArgumentException eye = assertThrows(IllegalArgumentException.class, () -> Creation.eye(-2, 3, 0, DType.FLOAT64, ChunkSpec.size(2)));
            assertTrue(eye.getMessage().contains("[-2, 3]"), eye.getMessage());
            IllegalArgumentException tri = assertThrows(IllegalArgumentException.class, () -> Diagonals.tri(3, -4, 0, DType.FLOAT64, ChunkSpec.size(2)));
            assertTrue(tri.getMessage().contains("tri") && tri.getMessage().contains("[3, -4]"), tri.getMessage());
            IllegalArgumentException indices = assertThrows(IllegalArgumentException.class,
                    () -> Grids.indices(new long[] {4, -1}, DType.INT64, ChunkSpec.size(2)));
            assertTrue(indices.getMessage().contains("indices") && indices.getMessage().contains("[4, -1]"), indices.getMessage());
            assertThrows(IllegalArgumentException.class, () -> Creation.linspace(0, 1, -5, ChunkSpec.size(2)));
        }

        @Test
        void aSpecWithAnotherAxisCountIsRefused() {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> Creation.zeros(new long[] {4, 4}, DType.FLOAT64, ChunkSpec.of(2, 2, 2)));
            assertTrue(error.getMessage().contains("3 axes") && error.getMessage().contains("[4, 4]"), error.getMessage());
        }
    }

    @Nested
    class Like {
        @Test
        void everyCreationFunctionAcceptsAnNDArrayOrAChunkedArrayAsLike() {
            NDArray denseLike = NDArrays.zeros(DType.FLOAT32, 2);
            ChunkedArray chunkedLike = Creation.ones(new long[] {3}, DType.INT8, ChunkSpec.size(2));
            NDArray values = matrix(4, 5);
            ChunkSpec spec = ChunkSpec.size(3);
            ChunkedArray vector = Creation.arange(0, 5, 1, DType.INT64, ChunkSpec.size(2));
            for (Object like : List.of(denseLike, chunkedLike)) {
                List<ChunkedArray[]> pairs = new ArrayList<>();
                pairs.add(new ChunkedArray[] {Creation.asarray(values, spec), Creation.asarray(values, spec, like)});
                pairs.add(new ChunkedArray[] {Creation.fromSource(RegionSource.of(values), spec), Creation.fromSource(RegionSource.of(values), spec, like)});
                pairs.add(new ChunkedArray[] {Creation.zeros(new long[] {4, 5}, DType.INT16, spec), Creation.zeros(new long[] {4, 5}, DType.INT16, spec, like)});
                pairs.add(new ChunkedArray[] {Creation.ones(new long[] {4, 5}, DType.INT16, spec), Creation.ones(new long[] {4, 5}, DType.INT16, spec, like)});
                pairs.add(new ChunkedArray[] {Creation.empty(new long[] {4}, DType.BOOL, spec), Creation.empty(new long[] {4}, DType.BOOL, spec, like)});
                pairs.add(new ChunkedArray[] {Creation.full(new long[] {4}, 7, DType.UINT8, spec), Creation.full(new long[] {4}, 7, DType.UINT8, spec, like)});
                pairs.add(new ChunkedArray[] {Creation.arange(0, 9, 2, DType.FLOAT32, spec), Creation.arange(0, 9, 2, DType.FLOAT32, spec, like)});
                pairs.add(new ChunkedArray[] {Creation.linspace(0, 1, 7, spec), Creation.linspace(0, 1, 7, spec, like)});
                pairs.add(new ChunkedArray[] {Creation.eye(4, 5, 1, DType.INT32, spec), Creation.eye(4, 5, 1, DType.INT32, spec, like)});
                pairs.add(new ChunkedArray[] {Diagonals.tri(4, 5, 1, DType.INT32, spec), Diagonals.tri(4, 5, 1, DType.INT32, spec, like)});
                pairs.add(new ChunkedArray[] {Grids.indices(new long[] {3, 4}, DType.INT64, spec), Grids.indices(new long[] {3, 4}, DType.INT64, spec, like)});
                pairs.add(new ChunkedArray[] {Diagonals.diag(vector, 1), Diagonals.diag(vector, 1, like)});
                pairs.add(new ChunkedArray[] {Grids.meshgrid("xy", vector, vector).get(1), Grids.meshgrid("xy", List.of(vector, vector), like).get(1)});
                BlockMaker maker = (index, blockShape, start) -> NDArrays.full(DType.FLOAT64, start[0], blockShape);
                pairs.add(new ChunkedArray[] {Creation.fromFunction(maker, new long[] {6}, DType.FLOAT64, spec, "starts"),
                        Creation.fromFunction(maker, new long[] {6}, DType.FLOAT64, spec, "starts", like)});
                for (ChunkedArray[] pair : pairs) {
                    ChunkedArray plain = pair[0];
                    ChunkedArray liked = pair[1];
                    NDArray meta = (NDArray) liked.meta();
                    assertEquals(plain.dtype(), meta.dtype(), plain.name());
                    assertEquals(plain.ndim(), meta.ndim(), plain.name());
                    assertEquals(0, meta.size(), "a meta is empty");
                    assertEquals(plain.chunks(), liked.chunks());
                    assertSameArray(plain.compute(SCHEDULER), liked);
                }
            }
        }

        @Test
        void aLikeOfNoKnownArrayFamilyIsRefusedNamingItsType() {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> Creation.zeros(new long[] {3}, DType.FLOAT64, ChunkSpec.size(2), "not an array"));
            assertTrue(error.getMessage().contains("java.lang.String") && error.getMessage().contains("NDArray"), error.getMessage());
            assertThrows(IllegalArgumentException.class, () -> Creation.zeros(new long[] {3}, DType.FLOAT64, ChunkSpec.size(2), null));
        }
    }

    @Nested
    class Diagonal {
        /** NumPy's diag of a vector, written out: zeros with the vector set on diagonal k. */
        static NDArray diagonalMatrix(NDArray vector, long k) {
            long length = vector.shape(0);
            long side = length + Math.abs(k);
            NDArray result = NDArrays.zeros(vector.dtype(), side, side);
            for (long position = 0; position < length; position++) {
                long row = k >= 0 ? position : position - k;
                long column = k >= 0 ? position + k : position;
                result.setLong(vector.getLong(position), row, column);
            }
            return result;
        }

        @Test
        void aVectorOnDiagonalKMatchesTheNDArrayLayer() {
            // Values beyond 2^53 show that no step goes through double.
            NDArray vector = Ufuncs.ADD.apply(NDArrays.arange(7), (1L << 60) + 1);
            for (ChunkSpec spec : List.of(ChunkSpec.size(3), ChunkSpec.size(1), ChunkSpec.explicit(new long[] {1, 4, 2}), ChunkSpec.whole())) {
                for (long k : new long[] {-9, -3, -1, 0, 1, 2, 10}) {
                    assertSameArray(diagonalMatrix(vector, k), Diagonals.diag(Creation.asarray(vector, spec), k));
                }
            }
            ChunkedArray shifted = Diagonals.diag(Creation.asarray(vector, ChunkSpec.explicit(new long[] {1, 4, 2})), 2);
            assertEquals(Chunks.of(new long[] {1, 4, 2, 2}, new long[] {2, 1, 4, 2}), shifted.chunks());
            assertSameArray(NDArrays.zeros(DType.FLOAT64, 2, 2), Diagonals.diag(Creation.asarray(NDArrays.zeros(DType.FLOAT64, 0), ChunkSpec.whole()), -2));
        }

        @Test
        void theDiagonalOfAMatrixMatchesTheNDArrayDiagonal() {
            NDArray values = matrix(7, 9);
            List<ChunkSpec> specs = List.of(ChunkSpec.size(2), ChunkSpec.of(3, 4), irregular(7, 9), ChunkSpec.explicit(new long[] {3, 1, 3}, new long[] {2, 5, 2}));
            for (ChunkSpec spec : specs) {
                ChunkedArray x = Creation.asarray(values, spec);
                for (long k = -8; k <= 10; k++) {
                    assertSameArray(values.diagonal(k, 0, 1).copy(), Diagonals.diag(x, k));
                }
                assertSameArray(values.diagonal().copy(), Diagonals.diag(x));
                assertArrayEquals(new long[] {0}, Diagonals.diag(x, Long.MIN_VALUE).compute(SCHEDULER).shape());
                assertArrayEquals(new long[] {0}, Diagonals.diag(x, Long.MAX_VALUE).compute(SCHEDULER).shape());
            }
            // The main diagonal of 3 x 3 blocks changes block at 3 and 6.
            assertEquals(Chunks.of(new long[] {3, 3, 1}), Diagonals.diag(Creation.asarray(values, ChunkSpec.size(3))).chunks());
        }

        @Test
        void diagOfThreeAxesIsRefusedNamingTheShape() {
            ChunkedArray cube = Creation.zeros(new long[] {2, 3, 4}, DType.FLOAT64, ChunkSpec.size(2));
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> Diagonals.diag(cube, 0));
            assertTrue(error.getMessage().contains("[2, 3, 4]") && error.getMessage().contains("1-d or 2-d"), error.getMessage());
        }

        @Test
        void triMatchesTheComparisonOfPositions() {
            long[][] cases = {{5, 5, 0}, {6, 9, 2}, {7, 4, -2}, {3, 5, -10}, {4, 6, 100}, {0, 3, 0}, {5, 1, 0}};
            for (long[] parameters : cases) {
                long rows = parameters[0];
                long columns = parameters[1];
                long k = parameters[2];
                NDArray columnPositions = NDArrays.arange(columns).reshape(1, columns);
                NDArray rowLimits = Ufuncs.ADD.apply(NDArrays.arange(rows).reshape(rows, 1), k);
                NDArray expected = Ufuncs.LESS_EQUAL.apply(columnPositions, rowLimits);
                for (ChunkSpec spec : chunkings(rows, columns)) {
                    assertSameArray(expected.astype(DType.FLOAT64), Diagonals.tri(rows, columns, k, DType.FLOAT64, spec));
                    assertSameArray(expected, Diagonals.tri(rows, columns, k, DType.BOOL, spec));
                }
            }
            assertSameArray(Ufuncs.LESS_EQUAL.apply(NDArrays.arange(4).reshape(1, 4), NDArrays.arange(4).reshape(4, 1)).astype(DType.INT32),
                    Diagonals.tri(4, DType.INT32, ChunkSpec.size(3)));
        }
    }

    @Nested
    class Grid {
        /** The positions along {@code axis} of every element of a grid of {@code dimensions}. */
        static NDArray positionsAlong(long[] dimensions, int axis) {
            long[] lineShape = new long[dimensions.length];
            Arrays.fill(lineShape, 1);
            lineShape[axis] = dimensions[axis];
            return NDArrays.arange(dimensions[axis]).reshape(lineShape).broadcastTo(dimensions);
        }

        @Test
        void indicesMatchPositionsStackedOnANewFirstAxis() {
            for (long[] dimensions : new long[][] {{4, 5}, {3, 2, 4}, {6}, {0, 3}}) {
                List<NDArray> positions = new ArrayList<>();
                for (int axis = 0; axis < dimensions.length; axis++) {
                    positions.add(positionsAlong(dimensions, axis));
                }
                NDArray expected = NDArrays.stack(positions, 0);
                for (ChunkSpec spec : chunkings(dimensions)) {
                    ChunkedArray indices = Grids.indices(dimensions, DType.INT64, spec);
                    assertSameArray(expected, indices);
                    assertArrayEquals(new long[] {dimensions.length}, indices.chunks().axis(0), "the first axis is one block");
                    assertSameArray(expected.astype(DType.FLOAT32), Grids.indices(dimensions, DType.FLOAT32, spec));
                }
            }
            ChunkedArray irregular = Grids.indices(new long[] {7, 6}, DType.INT32, irregular(7, 6));
            assertEquals(Chunks.of(new long[] {2}, new long[] {1, 4, 2}, new long[] {1, 3, 2}), irregular.chunks());
            assertSameArray(NDArrays.zeros(DType.INT64, 0), Grids.indices(new long[0], DType.INT64, ChunkSpec.size(2)));
        }

        @Test
        void meshgridMatchesBroadcastVectorsInBothIndexings() {
            NDArray x = NDArrays.linspace(0, 1, 5);
            NDArray y = NDArrays.arange(10, 14, 1).astype(DType.INT32);
            NDArray z = NDArrays.array(true, false);
            List<ChunkSpec> specs = List.of(ChunkSpec.size(2), ChunkSpec.size(1), ChunkSpec.whole());
            for (ChunkSpec spec : specs) {
                ChunkedArray xs = Creation.asarray(x, spec);
                ChunkedArray ys = Creation.asarray(y, ChunkSpec.explicit(new long[] {3, 1}));
                ChunkedArray zs = Creation.asarray(z, spec);
                List<ChunkedArray> ij = Grids.meshgrid("ij", xs, ys, zs);
                long[] ijShape = {5, 4, 2};
                assertSameArray(x.reshape(5, 1, 1).broadcastTo(ijShape).copy(), ij.get(0));
                assertSameArray(y.reshape(1, 4, 1).broadcastTo(ijShape).copy(), ij.get(1));
                assertSameArray(z.reshape(1, 1, 2).broadcastTo(ijShape).copy(), ij.get(2));
                assertEquals(Chunks.of(xs.chunks().axis(0), ys.chunks().axis(0), zs.chunks().axis(0)), ij.get(1).chunks());

                List<ChunkedArray> xy = Grids.meshgrid("xy", xs, ys, zs);
                long[] xyShape = {4, 5, 2};
                assertSameArray(x.reshape(1, 5, 1).broadcastTo(xyShape).copy(), xy.get(0));
                assertSameArray(y.reshape(4, 1, 1).broadcastTo(xyShape).copy(), xy.get(1));
                assertSameArray(z.reshape(1, 1, 2).broadcastTo(xyShape).copy(), xy.get(2));
                assertEquals(Chunks.of(ys.chunks().axis(0), xs.chunks().axis(0), zs.chunks().axis(0)), xy.get(0).chunks());

                List<ChunkedArray> plane = Grids.meshgrid("xy", xs, ys);
                assertSameArray(x.reshape(1, 5).broadcastTo(4, 5).copy(), plane.get(0));
                assertSameArray(y.reshape(4, 1).broadcastTo(4, 5).copy(), plane.get(1));
                assertSameArray(x, Grids.meshgrid("xy", xs).getFirst());
            }
            assertEquals(List.of(), Grids.meshgrid("ij"));
        }

        @Test
        void meshgridRefusesAnUnknownIndexingAndArraysThatAreNotVectors() {
            ChunkedArray vector = Creation.arange(0, 4, 1, DType.INT64, ChunkSpec.size(2));
            IllegalArgumentException indexing = assertThrows(IllegalArgumentException.class, () -> Grids.meshgrid("yx", vector));
            assertTrue(indexing.getMessage().contains("yx"), indexing.getMessage());
            ChunkedArray plane = Creation.zeros(new long[] {2, 3}, DType.FLOAT64, ChunkSpec.size(2));
            IllegalArgumentException notVector = assertThrows(IllegalArgumentException.class, () -> Grids.meshgrid("ij", vector, plane));
            assertTrue(notVector.getMessage().contains("vector 1") && notVector.getMessage().contains("[2, 3]"), notVector.getMessage());
        }

        @Test
        void theSameExpressionGetsTheSameName() {
            assertEquals(Diagonals.tri(5, 5, 1, DType.FLOAT64, ChunkSpec.size(2)).name(), Diagonals.tri(5, 5, 1, DType.FLOAT64, ChunkSpec.size(2)).name());
            ChunkedArray vector = Creation.arange(0, 4, 1, DType.INT64, ChunkSpec.size(2));
            assertEquals(Diagonals.diag(vector, 1).name(), Diagonals.diag(vector, 1).name());
            assertNotEquals(Diagonals.diag(vector, 1).name(), Diagonals.diag(vector, 2).name());
            assertNotEquals(Creation.zeros(new long[] {3}, DType.FLOAT64, ChunkSpec.size(2)).name(), Creation.empty(new long[] {3}, DType.FLOAT64, ChunkSpec.size(2)).name());
        }
    }
}
