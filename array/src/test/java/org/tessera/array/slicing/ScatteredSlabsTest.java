package org.tessera.array.slicing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.tessera.array.SameValues.assertSameValues;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.creation.RegionMaker;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.index.Indexing;

/**
 * Rows far apart in a block not computed yet are made alone, each straight into its place among
 * them, and a run of them goes to the gather's output in one copy: the values are those of the same
 * gather of the computed array, for a random array (written in place) and for a maker of another
 * dtype that makes every region apart, with points repeated, out of order, in order, in two
 * dimensions, and along the second axis, where the copies go slab by slab.
 */
class ScatteredSlabsTest {
    private static final long[] SHAPE = {400, 600};
    private static final ChunkSpec BLOCKS = ChunkSpec.of(100, 300);
    private static final long[] SHUFFLED = {5, 50, 90, 5, 150, 151, 152, 399, 250, 90, 51, 52};
    private static final long[] INCREASING = {5, 50, 51, 52, 90, 150, 151, 152, 250, 399};
    private static final long[] COLUMNS = {7, 290, 5, 599, 310, 7, 8};

    /** Element (r, c) is r * 1000 + c, as int64, each region made on its own. */
    private record Positions() implements RegionMaker {
        @Override
        public NDArray makeRegion(int[] blockIndex, long[] blockShape, long[] blockStart, long[] regionStart, long[] regionShape) {
            NDArray region = NDArray.zeros(DType.INT64, regionShape);
            for (long row = 0; row < regionShape[0]; row++) {
                for (long column = 0; column < regionShape[1]; column++) {
                    region.setLong((blockStart[0] + regionStart[0] + row) * 1000 + blockStart[1] + regionStart[1] + column, row, column);
                }
            }
            return region;
        }
    }

    private static List<ChunkedArray> inputs() {
        return List.of(Creation.random(11, Creation.Distribution.UNIFORM, SHAPE, BLOCKS),
                Creation.fromFunction(new Positions(), SHAPE, DType.INT64, BLOCKS, "positions"));
    }

    @Test
    void scatteredRowsAndColumnsAreTheComputedArraysOnes() {
        for (ChunkedArray x : inputs()) {
            NDArray values = x.compute();
            for (long[] points : List.of(SHUFFLED, INCREASING)) {
                NDArray rows = NDArrays.array(points);
                assertSameValues(Indexing.get(values, Index.of(rows)), x.get(Index.of(rows)).compute(), x.dtype() + " x[idx]");
            }
            NDArray square = NDArrays.array(SHUFFLED).reshape(3, 4);
            assertSameValues(Indexing.get(values, Index.of(square)), x.get(Index.of(square)).compute(), x.dtype() + " x[idx] with idx of shape (3, 4)");
            NDArray columns = NDArrays.array(COLUMNS);
            assertSameValues(Indexing.get(values, Index.all(), Index.of(columns)), x.get(Index.all(), Index.of(columns)).compute(),
                    x.dtype() + " x[:, idx]");
        }
    }

    @Test
    void aGatherAfterASteppedSliceSumsTheRowsItPicks() {
        NDArray rows = NDArrays.array(new long[] {3, 30, 31, 100, 17, 3, 120, 132});
        for (ChunkedArray x : inputs()) {
            NDArray values = x.compute();
            NDArray expected = Indexing.get(Indexing.get(values, Index.range(null, null, 3L), Index.range(10L, -10L, null)), Index.of(rows));
            ChunkedArray gathered = x.get(Index.range(null, null, 3L), Index.range(10L, -10L, null)).get(Index.of(rows));
            assertSameValues(expected, gathered.compute(), x.dtype() + " x[::3, 10:-10][idx]");
            assertEquals(NDArrays.sum(expected).getDouble(), gathered.sum().compute().getDouble(), 1e-9 * expected.size(), x.dtype() + " its sum");
        }
    }

    /**
     * Output blocks whose rows a block makes exactly as they are asked (one row, a run of rows in
     * order: the made rows are the result, without a copy) and those it does not (a run backwards,
     * a row twice, rows far apart): every block holds its own rows, also where the rows were made
     * in scratch memory that the next block's task reuses, and also after a stepped slice.
     */
    @Test
    void rowsMadeExactlyAsAskedAreTheBlocksOwnRows() {
        long[] points = {150, 151, 152, 399, 152, 151, 150, 7, 7, 250, 120, 180, 260, 261, 262, 263, 399, 0, 1};
        NDArray rows = NDArrays.array(points);
        for (ChunkedArray x : inputs()) {
            NDArray values = x.compute();
            ChunkedArray gathered = x.get(Index.of(rows));
            assertEquals(9, gathered.chunks().blockCount(0), "a block per run of rows in one input block");
            assertSameValues(Indexing.get(values, Index.of(rows)), gathered.compute(), x.dtype() + " x[idx]");
            // Joined by a task that runs after all of them, when the scratch memory of the first has served later ones.
            assertSameValues(Indexing.get(values, Index.of(rows)), gathered.rechunk(ChunkSpec.of(points.length, 600)).compute(),
                    x.dtype() + " x[idx] in one block");
            NDArray steppedRows = NDArrays.array(new long[] {60, 61, 62, 199, 3, 3, 2});
            ChunkedArray stepped = x.get(Index.range(null, null, 2L), Index.all()).get(Index.of(steppedRows));
            assertSameValues(Indexing.get(Indexing.get(values, Index.range(null, null, 2L), Index.all()), Index.of(steppedRows)), stepped.compute(),
                    x.dtype() + " x[::2][idx]");
        }
    }
}
