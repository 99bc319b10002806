package org.tessera.array.slicing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.chunks.UnknownChunksException;
import org.tessera.array.creation.Creation;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.index.Index;

/** Slicing and assignment of chunked arrays: Dask's chunks, NumPy's values, lazy block reads and clear errors. */
class SlicingTest {
    private static final SynchronousScheduler SCHEDULER = new SynchronousScheduler();

    /** 0, 1, 2, ... as float64 in {@code shape}. */
    private static NDArray counting(long... shape) {
        long size = 1;
        for (long length : shape) {
            size *= length;
        }
        return NDArrays.arange(size).astype(DType.FLOAT64).reshape(shape);
    }

    private static ChunkedArray chunked(NDArray array, ChunkSpec spec) {
        return Creation.fromSource(RegionSource.of(array), spec);
    }

    private static Chunks chunks(long[]... lengths) {
        return Chunks.of(lengths);
    }

    private static void assertSameValues(NDArray expected, NDArray actual) {
        assertEquals(expected.dtype(), actual.dtype(), "dtype");
        assertArrayEquals(expected.shape(), actual.shape(), "shape");
        NDArray expectedFlat = expected.ravel();
        NDArray actualFlat = actual.ravel();
        for (long element = 0; element < expectedFlat.size(); element++) {
            assertEquals(expectedFlat.getDouble(element), actualFlat.getDouble(element), "element " + element);
        }
    }

    private static NDArray int64(long... values) {
        return NDArrays.array(values);
    }

    @Nested
    class DaskChunks {
        @Test
        void takeMakesABlockPerRunOfTheSameInputBlock() {
            ChunkedArray x = chunked(counting(80), ChunkSpec.size(20));
            ChunkedArray unsorted = x.get(Index.of(int64(5, 1, 47, 3)));
            assertEquals(chunks(new long[] {2, 1, 1}), unsorted.chunks());
            assertSameValues(int64(5, 1, 47, 3).astype(DType.FLOAT64), unsorted.compute(SCHEDULER));
            assertEquals(chunks(new long[] {3, 1}), x.get(Index.of(int64(1, 3, 5, 47))).chunks());
        }

        @Test
        void slicesKeepTheBlocksTheyCross() {
            ChunkedArray x = chunked(counting(100), ChunkSpec.explicit(new long[][] {{20, 10, 20, 10, 40}}));
            assertEquals(chunks(new long[] {10, 5, 10, 5, 15}), x.get(Index.range(0L, 90L, 2L)).chunks());
            ChunkedArray backward = x.get(Index.range(90L, 10L, -2L));
            assertEquals(chunks(new long[] {16, 5, 10, 5, 4}), backward.chunks());
            assertSameValues(NDArrays.get(counting(100), Index.range(90L, 10L, -2L)), backward.compute(SCHEDULER));
        }

        @Test
        void aStopInsideABlockTheStepJumpsOverGivesItAnEmptyBlock() {
            ChunkedArray x = chunked(counting(20), ChunkSpec.size(10));
            ChunkedArray sliced = x.get(Index.range(0L, 11L, 4L));
            assertEquals(chunks(new long[] {3, 0}), sliced.chunks());
            assertSameValues(NDArrays.get(counting(20), Index.range(0L, 11L, 4L)), sliced.compute(SCHEDULER));
            assertEquals(chunks(new long[] {3}), x.get(Index.range(0L, 9L, 4L)).chunks());
        }

        @Test
        void anEmptySelectionIsOneEmptyBlock() {
            ChunkedArray x = chunked(counting(20, 3), ChunkSpec.size(7));
            assertEquals(chunks(new long[] {0}, new long[] {3}), x.get(Index.of(NDArray.zeros(DType.INT64, 0))).chunks());
            assertEquals(chunks(new long[] {0}, new long[] {3}), x.get(Index.range(5L, 5L, null)).chunks());
            assertEquals(chunks(new long[] {0}, new long[] {3}), x.get(Index.range(-30L, null, -1L)).chunks());
        }

        @Test
        void selectingEverythingIsTheSameArray() {
            ChunkedArray x = chunked(counting(4, 5), ChunkSpec.size(2));
            assertSame(x, x.get());
            assertSame(x, x.get(Index.ellipsis()));
            assertSame(x, x.get(Index.all(), Index.range(0L, 5L, 1L)));
        }

        @Test
        void newAxesAreBlocksOfOne() {
            ChunkedArray x = chunked(counting(4, 5), ChunkSpec.size(2));
            ChunkedArray expanded = x.get(Index.newAxis(), Index.at(1), Index.newAxis(), Index.ellipsis());
            assertEquals(chunks(new long[] {1}, new long[] {1}, new long[] {2, 2, 1}), expanded.chunks());
            assertSameValues(NDArrays.get(counting(4, 5), Index.newAxis(), Index.at(1), Index.newAxis(), Index.ellipsis()), expanded.compute(SCHEDULER));
        }
    }

    @Nested
    class NumPyPlacement {
        @Test
        void anIntegerAndAnArraySeparatedByASlicePutThePointAxisFirst() {
            NDArray values = counting(4, 5, 6);
            ChunkedArray x = chunked(values, ChunkSpec.size(2));
            Index[] index = {Index.at(1), Index.all(), Index.of(int64(5, 0, 2))};
            ChunkedArray result = x.get(index);
            assertArrayEquals(new long[] {3, 5}, result.shape());
            assertEquals(chunks(new long[] {1, 1, 1}, new long[] {2, 2, 1}), result.chunks());
            assertSameValues(NDArrays.get(values, index), result.compute(SCHEDULER));
        }

        @Test
        void arraysOnSeveralAxesPickPointsAsNumPyDoes() {
            NDArray values = counting(6, 7, 3);
            ChunkedArray x = chunked(values, ChunkSpec.explicit(new long[][] {{1, 2, 3}, {3, 4}, {2, 1}}));
            Index[] index = {Index.of(int64(0, 5, 5, 2)), Index.all(), Index.of(int64(2, 0, 1, 0))};
            assertSameValues(NDArrays.get(values, index), x.get(index).compute(SCHEDULER));
            Index[] twoDimensional = {Index.of(int64(0, 1, 5, 4).reshape(2, 2)), Index.of(int64(6, 0).reshape(2, 1))};
            assertSameValues(NDArrays.get(values, twoDimensional), x.get(twoDimensional).compute(SCHEDULER));
        }

        @Test
        void aBooleanScalarIsANewAxisSelectedOnceOrNever() {
            NDArray values = counting(4, 5);
            ChunkedArray x = chunked(values, ChunkSpec.size(2));
            ChunkedArray kept = x.get(Index.ellipsis(), Index.of(true));
            assertArrayEquals(new long[] {4, 5, 1}, kept.shape());
            assertSameValues(values.reshape(4, 5, 1), kept.compute(SCHEDULER));
            assertArrayEquals(new long[] {0, 4, 5}, x.get(Index.of(false)).compute(SCHEDULER).shape());
            // With an integer array, True's index array (1,) broadcasts with it: x[True, [3, 0]] is rows 3 and 0.
            Index[] index = {Index.of(true), Index.of(int64(3, 0))};
            ChunkedArray rows = x.get(index);
            assertArrayEquals(new long[] {2, 5}, rows.shape());
            assertSameValues(NDArrays.get(values, Index.of(int64(3, 0))), rows.compute(SCHEDULER));
            // Assignment through x[True, 1] writes row 1 and keeps x's chunks.
            NDArray expected = values.copy();
            NDArrays.set(expected, NDArrays.array(-1.0), Index.at(1));
            ChunkedArray assigned = x.set(new Index[] {Index.of(true), Index.at(1)}, NDArrays.array(-1.0));
            assertEquals(x.chunks(), assigned.chunks());
            assertSameValues(expected, assigned.compute(SCHEDULER));
        }
    }

    @Nested
    class Laziness {
        @Test
        void eachOutputBlockReadsOnlyTheInputBlocksItNeeds() {
            Set<List<Integer>> made = ConcurrentHashMap.newKeySet();
            ChunkedArray x = Creation.fromFunction((index, shape, start) -> {
                made.add(List.of(index[0], index[1]));
                return NDArray.zeros(DType.FLOAT64, shape);
            }, new long[] {10, 10}, DType.FLOAT64, ChunkSpec.size(2), "recorded");
            x.get(Index.range(0L, 3L, null), Index.at(5)).compute(SCHEDULER);
            assertEquals(Set.of(List.of(0, 2), List.of(1, 2)), made);
            made.clear();
            x.get(Index.of(int64(9, 0)), Index.range(4L, 6L, null)).compute(SCHEDULER);
            assertEquals(Set.of(List.of(4, 2), List.of(0, 2)), made);
            made.clear();
            x.set(new Index[] {Index.at(3), Index.at(3)}, 7.0).get(Index.at(3)).compute(SCHEDULER);
            assertEquals(Set.of(List.of(1, 0), List.of(1, 1), List.of(1, 2), List.of(1, 3), List.of(1, 4)), made);
        }

        @Test
        void assignmentLeavesTheArrayAndItsComputedBlocksAsTheyWere() {
            NDArray values = counting(6, 4);
            ChunkedArray x = chunked(values, ChunkSpec.size(3)).persist(SCHEDULER);
            NDArray before = x.compute(SCHEDULER).copy();
            ChunkedArray assigned = x.set(new Index[] {Index.range(1L, 5L, null), Index.of(int64(3, 0))}, -1);
            NDArray expected = values.copy();
            NDArrays.set(expected, NDArray.scalar(-1.0), Index.range(1L, 5L, null), Index.of(int64(3, 0)));
            assertSameValues(expected, assigned.compute(SCHEDULER));
            assertSameValues(before, x.compute(SCHEDULER));
            assertSameValues(counting(6, 4), values);
            assertEquals(x.chunks(), assigned.chunks());
        }

        @Test
        void blocksTheSelectionMissesAreTheInputsBlocks() {
            ChunkedArray x = chunked(counting(6, 4), ChunkSpec.size(3));
            ChunkedArray assigned = x.set(new Index[] {Index.at(0), Index.at(0)}, 5.0);
            Task untouched = assigned.graph().layer(assigned.name()).task(Key.of(assigned.name(), 1, 1));
            assertEquals(Task.ref(x.key(1, 1)), untouched);
        }
    }

    @Nested
    class Assignment {
        @Test
        void aChunkedValueIsReadFromTheBlocksEachTargetBlockNeeds() {
            NDArray values = counting(7, 5);
            ChunkedArray x = chunked(values, ChunkSpec.explicit(new long[][] {{2, 3, 2}, {5}}));
            NDArray row = NDArrays.array(10.0, 20.0, 30.0);
            ChunkedArray value = chunked(row, ChunkSpec.size(2));
            Index[] index = {Index.range(6L, null, -2L), Index.range(1L, 4L, null)};
            NDArray expected = values.copy();
            NDArrays.set(expected, row, index);
            assertSameValues(expected, x.set(index, value).compute(SCHEDULER));
        }

        @Test
        void repeatedPointsKeepTheLastValueAsNumPy() {
            NDArray values = counting(5);
            ChunkedArray x = chunked(values, ChunkSpec.size(2));
            Index[] index = {Index.of(int64(3, 1, 3))};
            NDArray value = NDArrays.array(1.0, 2.0, 3.0);
            NDArray expected = values.copy();
            NDArrays.set(expected, value, index);
            assertSameValues(expected, x.set(index, value).compute(SCHEDULER));
        }

        @Test
        void valuesAreCastAsSetitemCasts() {
            ChunkedArray x = chunked(NDArray.zeros(DType.INT8, 4), ChunkSpec.size(3));
            ChunkedArray assigned = x.set(new Index[] {Index.range(1L, null, null)}, NDArrays.array(1.9, -2.7, 300.0));
            assertEquals(DType.INT8, assigned.dtype());
            NDArray expected = NDArray.zeros(DType.INT8, 4);
            NDArrays.set(expected, NDArrays.array(1.9, -2.7, 300.0), Index.range(1L, null, null));
            assertSameValues(expected, assigned.compute(SCHEDULER));
        }

        @Test
        void aJavaIntegerMustFitTheDtype() {
            ChunkedArray x = chunked(NDArray.zeros(DType.UINT8, 4), ChunkSpec.size(3));
            ArithmeticException overflow = assertThrows(ArithmeticException.class, () -> x.set(new Index[] {Index.at(0)}, 300));
            assertTrue(overflow.getMessage().contains("300") && overflow.getMessage().contains("uint8"), overflow.getMessage());
            assertThrows(ArithmeticException.class, () -> x.set(new Index[] {Index.at(0)}, -1L));
        }

        @Test
        void aValueThatDoesNotBroadcastIsRefusedWithBothShapes() {
            ChunkedArray x = chunked(counting(4, 5), ChunkSpec.size(2));
            ShapeMismatchException basic = assertThrows(ShapeMismatchException.class,
                    () -> x.set(new Index[] {Index.range(0L, 2L, null)}, NDArrays.array(1.0, 2.0, 3.0)));
            assertTrue(basic.getMessage().contains("(3,)") && basic.getMessage().contains("(2, 5)"), basic.getMessage());
            ShapeMismatchException advanced = assertThrows(ShapeMismatchException.class,
                    () -> x.set(new Index[] {Index.of(int64(0, 1))}, counting(3, 5)));
            assertTrue(advanced.getMessage().contains("(3, 5)") && advanced.getMessage().contains("(2, 5)"), advanced.getMessage());
        }

        @Test
        void aChunkedMaskTakesAScalar() {
            NDArray values = counting(5, 4);
            ChunkedArray x = chunked(values, ChunkSpec.size(2));
            ChunkedArray assigned = x.set(x.greater(7.5), 0);
            NDArray expected = values.copy();
            NDArrays.set(expected, NDArray.scalar(0.0), Index.of(org.tessera.ndarray.ufunc.Ufuncs.GREATER.apply(values, 7.5)));
            assertSameValues(expected, assigned.compute(SCHEDULER));
            assertThrows(UnsupportedOperationException.class, () -> x.set(x.greater(7.5), NDArrays.array(1.0, 2.0)));
        }
    }

    @Nested
    class ChunkedIndexArrays {
        @Test
        void aChunkedMaskLeavesLengthsUnknownUntilComputed() {
            NDArray values = counting(6, 5);
            ChunkedArray x = chunked(values, ChunkSpec.size(2));
            ChunkedArray selected = x.get(x.greater(12.5));
            assertEquals(1, selected.ndim());
            assertFalse(selected.chunks().isKnown());
            assertEquals(3, selected.chunks().blockCount(0));
            ChunkedArray known = selected.computeChunkSizes(SCHEDULER);
            NDArray expected = NDArrays.get(values, Index.of(org.tessera.ndarray.ufunc.Ufuncs.GREATER.apply(values, 12.5)));
            assertSameValues(expected, known.compute(SCHEDULER));
        }

        @Test
        void aChunkedMaskOnTheSecondAxisKeepsTheFirstAxisBlocks() {
            NDArray values = counting(4, 6);
            ChunkedArray x = chunked(values, ChunkSpec.size(3));
            NDArray maskValues = NDArrays.array(new boolean[] {true, false, false, true, true, false});
            ChunkedArray mask = chunked(maskValues, ChunkSpec.size(2));
            ChunkedArray selected = x.get(List.of(ChunkedIndex.of(Index.all()), ChunkedIndex.mask(mask)));
            assertArrayEquals(new long[] {3, 1}, selected.chunks().axis(0));
            assertEquals(2, selected.chunks().blockCount(1));
            assertSameValues(NDArrays.get(values, Index.all(), Index.of(maskValues)), selected.computeChunkSizes(SCHEDULER).compute(SCHEDULER));
        }

        @Test
        void chunkedPositionsGiveTheResultTheirChunks() {
            NDArray values = counting(7, 4);
            ChunkedArray x = chunked(values, ChunkSpec.size(3));
            NDArray positionValues = int64(6, -7, 2, 2, 5);
            ChunkedArray positions = chunked(positionValues, ChunkSpec.explicit(new long[][] {{2, 3}}));
            ChunkedArray taken = x.get(positions);
            assertEquals(chunks(new long[] {2, 3}, new long[] {3, 1}), taken.chunks());
            assertSameValues(NDArrays.get(values, Index.of(positionValues)), taken.compute(SCHEDULER));
            ChunkedArray columns = x.get(List.of(ChunkedIndex.of(Index.at(1)), ChunkedIndex.positions(chunked(int64(3, 0, 3), ChunkSpec.size(2)))));
            assertEquals(chunks(new long[] {2, 1}), columns.chunks());
            assertSameValues(NDArrays.get(values, Index.at(1), Index.of(int64(3, 0, 3))), columns.compute(SCHEDULER));
        }

        @Test
        void chunkedPositionsOutOfBoundsFailWhenComputed() {
            ChunkedArray x = chunked(counting(7, 4), ChunkSpec.size(3));
            ChunkedArray taken = x.get(chunked(int64(1, 9), ChunkSpec.size(1)));
            RuntimeException failure = assertThrows(RuntimeException.class, () -> taken.compute(SCHEDULER));
            Throwable cause = failure instanceof IndexOutOfBoundsException ? failure : failure.getCause();
            assertTrue(cause instanceof IndexOutOfBoundsException && cause.getMessage().contains("index 9 is out of bounds for axis 0 with size 7"),
                    String.valueOf(cause));
        }

        @Test
        void unknownLengthsTakeWholeSlicesOnly() {
            ChunkedArray x = chunked(counting(6, 5), ChunkSpec.size(2));
            ChunkedArray selected = x.get(x.greater(12.5));
            assertSame(selected, selected.get(Index.all()));
            assertEquals(2, selected.get(Index.newAxis(), Index.ellipsis()).ndim());
            UnknownChunksException unknown = assertThrows(UnknownChunksException.class, () -> selected.get(Index.at(0)));
            assertTrue(unknown.getMessage().contains("computeChunkSizes"), unknown.getMessage());
            assertThrows(UnknownChunksException.class, () -> selected.get(Index.range(1L, null, null)));
        }
    }

    @Nested
    class PointWise {
        @Test
        void vindexPicksPointsAndPutsTheirAxesFirstInOneBlock() {
            NDArray values = counting(6, 7, 2);
            ChunkedArray x = chunked(values, ChunkSpec.size(3));
            ChunkedArray points = x.vindex(int64(0, 5, 3, 5), int64(6, 0, 2, 1));
            assertEquals(chunks(new long[] {4}, new long[] {2}), points.chunks());
            assertSameValues(NDArrays.get(values, Index.of(int64(0, 5, 3, 5)), Index.of(int64(6, 0, 2, 1))), points.compute(SCHEDULER));
            ChunkedArray grid = x.vindex(int64(1, 4).reshape(2, 1), int64(0, 3, 6));
            assertEquals(chunks(new long[] {2}, new long[] {3}, new long[] {2}), grid.chunks());
            assertSameValues(NDArrays.get(values, Index.of(int64(1, 4).reshape(2, 1)), Index.of(int64(0, 3, 6))), grid.compute(SCHEDULER));
        }

        @Test
        void vindexAppliesIntegersAndSlicesFirst() {
            NDArray values = counting(6, 7, 4);
            ChunkedArray x = chunked(values, ChunkSpec.size(3));
            ChunkedArray points = Slicing.vindex(x, List.of(Index.range(1L, null, null), Index.at(2), Index.of(int64(3, 0))));
            NDArray expected = NDArrays.get(NDArrays.get(values, Index.range(1L, null, null), Index.at(2)), Index.all(), Index.of(int64(3, 0))).transpose();
            assertSameValues(expected.ascontiguousarray(), points.compute(SCHEDULER));
        }

        @Test
        void vindexRefusesMasksNewAxesAndPartialSlicesOnly() {
            ChunkedArray x = chunked(counting(6, 7), ChunkSpec.size(3));
            assertThrows(IndexOutOfBoundsException.class, () -> x.vindex(NDArrays.array(new boolean[] {true, false, true, false, true, false})));
            assertThrows(IndexOutOfBoundsException.class, () -> Slicing.vindex(x, List.of(Index.newAxis(), Index.of(int64(1)))));
            assertThrows(IndexOutOfBoundsException.class, () -> Slicing.vindex(x, List.of(Index.range(1L, null, null))));
            assertSame(x, Slicing.vindex(x, List.of(Index.all())));
        }
    }

    @Nested
    class Errors {
        private final ChunkedArray x = chunked(counting(4, 5), ChunkSpec.size(2));

        @Test
        void anIntegerOutOfBoundsNamesTheIndexAxisAndShape() {
            IndexOutOfBoundsException error = assertThrows(IndexOutOfBoundsException.class, () -> x.get(Index.at(0), Index.at(7)));
            assertTrue(error.getMessage().contains("index 7 is out of bounds for axis 1 with size 5"), error.getMessage());
            assertTrue(error.getMessage().contains("(4, 5)"), error.getMessage());
            IndexOutOfBoundsException array = assertThrows(IndexOutOfBoundsException.class, () -> x.get(Index.of(int64(1, -5))));
            assertTrue(array.getMessage().contains("index -5 is out of bounds for axis 0 with size 4"), array.getMessage());
        }

        @Test
        void tooManyIndicesNamesTheDimensions() {
            IndexOutOfBoundsException error = assertThrows(IndexOutOfBoundsException.class, () -> x.get(Index.at(0), Index.all(), Index.at(1)));
            assertTrue(error.getMessage().contains("too many indices for array: array is 2-dimensional"), error.getMessage());
            assertTrue(error.getMessage().contains("3 were indexed"), error.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> x.get(Index.ellipsis(), Index.at(0), Index.ellipsis()));
        }

        @Test
        void aMaskOfTheWrongShapeNamesBothLengths() {
            NDArray shortMask = NDArrays.array(new boolean[] {true, false, true});
            IndexOutOfBoundsException error = assertThrows(IndexOutOfBoundsException.class, () -> x.get(Index.of(shortMask)));
            assertTrue(error.getMessage().contains("along axis 0; size of axis is 4 but size of corresponding boolean axis is 3"), error.getMessage());
            ChunkedArray chunkedMask = chunked(shortMask, ChunkSpec.size(2));
            IndexOutOfBoundsException chunkedError = assertThrows(IndexOutOfBoundsException.class,
                    () -> x.get(List.of(ChunkedIndex.of(Index.all()), ChunkedIndex.mask(chunkedMask))));
            assertTrue(chunkedError.getMessage().contains("along axis 1; size of axis is 5 but size of corresponding boolean axis is 3"),
                    chunkedError.getMessage());
        }

        @Test
        void arraysThatDoNotBroadcastNameTheirShapes() {
            IndexOutOfBoundsException error = assertThrows(IndexOutOfBoundsException.class, () -> x.get(Index.of(int64(0, 1)), Index.of(int64(0, 1, 2))));
            assertTrue(error.getMessage().contains("could not be broadcast together with shapes (2,) (3,)"), error.getMessage());
        }
    }
}
