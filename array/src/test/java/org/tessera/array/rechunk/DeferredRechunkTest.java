package org.tessera.array.rechunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.array.SameValues.assertSameValues;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.tessera.array.Allocation;
import org.tessera.array.ChunkedArray;
import org.tessera.array.api.ChunkedArrays;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * A rechunk of blocks not computed yet (random blocks, made box by box) keeps its pieces deferred
 * through the plan's splits and joins: it must give exactly the values the same rechunk gives over
 * the same values held as computed blocks, and a reduction of it must never make an old block whole.
 */
class DeferredRechunkTest {

    @Test
    void aRechunkOfDeferredBlocksIsTheRechunkOfTheComputedBlocks() {
        ChunkSpec columns = ChunkSpec.of(600, 25);
        ChunkedArray lazy = Creation.random(3, Creation.Distribution.UNIFORM, new long[] {600, 600}, columns);
        ChunkedArray held = ChunkedArrays.fromArray(lazy.compute(), columns);
        // Rows from columns in one step, in a plan of several steps (a small task limit), and uneven blocks.
        for (ChunkSpec target : List.of(ChunkSpec.of(25, -1), ChunkSpec.of(70, 130), ChunkSpec.of(1, 600))) {
            for (long limit : new long[] {Rechunk.DEFAULT_TASK_MEMORY_BYTES, 200_000}) {
                String label = target + " within " + limit + " bytes";
                NDArray expected = held.rechunk(target, limit).compute();
                assertSameValues(expected, lazy.rechunk(target, limit).compute(), label);
                double expectedSum = held.rechunk(target, limit).sum().compute().getDouble();
                assertEquals(expectedSum, lazy.rechunk(target, limit).sum().compute().getDouble(), expectedSum * 1e-13, label + ".sum()");
            }
        }
    }

    @Test
    void theSumOfAColumnsToRowsRechunkMakesNoBlockWhole() {
        // Sixteen old blocks of 4000 x 250 (8 MB each, 128 MB in all); every new block takes a piece of each.
        // The graph and the strips' bookkeeping allocate a few megabytes; any old block made whole, 8 more.
        ChunkedArray x = Creation.random(8, Creation.Distribution.UNIFORM, new long[] {4000, 4000}, ChunkSpec.of(4000, 250));
        ChunkedArray rows = x.rechunk(ChunkSpec.of(250, -1));
        Allocation run = Allocation.ofSecondCompute(rows.sum());
        assertTrue(run.bytes() < 16L << 20, "the sum of the rechunk allocated " + run.megabytes() + " MB; the array is 128 MB");
        double expected = x.sum().compute().getDouble();
        assertEquals(expected, run.result().getDouble(), expected * 1e-12);
    }

    @Test
    void aJoinOfDeferredAndDensePiecesGivesEveryPartOfTheForcedJoin() throws Exception {
        ChunkedArray random = Creation.random(11, Creation.Distribution.UNIFORM, new long[] {6, 20}, ChunkSpec.of(6, 20));
        NDArray whole = random.compute();
        DeferredBlock left = deferredBlockOf(random);
        NDArray middle = NDArray.zeros(DType.FLOAT64, 6, 3);
        middle.fill(-1.0);
        Object right = new Rechunk.Slice(new long[] {1, 4}, new long[] {5, 7}, true).applyDeferring(List.of(left));
        assertInstanceOf(DeferredBlock.class, right, "a box of a deferred block stays deferred");
        Object joined = new Rechunk.Join(1).applyDeferring(List.of(List.of(new Rechunk.Slice(new long[] {0, 0}, new long[] {5, 20}, true)
                .applyDeferring(List.of(left)), middle.slice(0, 0, 1, 5), right)));
        DeferredBlock join = assertInstanceOf(DeferredBlock.class, joined);
        assertArrayEquals(new long[] {5, 30}, join.shape());
        NDArray forced = join.force();
        for (int column = 0; column < 30; column++) {
            double expected = column < 20 ? whole.getDouble(1, column) : column < 23 ? -1.0 : whole.getDouble(2, column - 23 + 4);
            assertEquals(expected, forced.getDouble(1, column), "column " + column);
        }
        long[][][] boxes = {{{0, 0}, {5, 30}}, {{1, 18}, {3, 7}}, {{4, 21}, {1, 1}}, {{2, 22}, {2, 8}}, {{0, 5}, {5, 0}}, {{3, 29}, {0, 1}}};
        for (long[][] box : boxes) {
            NDArray expected = forced.slice(0, box[0][0], 1, box[1][0]).slice(1, box[0][1], 1, box[1][1]);
            assertSameValues(expected, join.part(box[0], box[1]), "part " + java.util.Arrays.deepToString(box));
            // Into a strided target: every other column of a wider array, the columns between left alone.
            NDArray wide = NDArray.zeros(DType.FLOAT64, box[1][0], 2 * box[1][1]);
            wide.fill(7.0);
            join.partInto(box[0], wide.slice(1, 0, 2, box[1][1]));
            assertSameValues(expected, wide.slice(1, 0, 2, box[1][1]), "part " + java.util.Arrays.deepToString(box) + " into a strided target");
            for (long row = 0; row < box[1][0]; row++) {
                for (long column = 1; column < 2 * box[1][1]; column += 2) {
                    assertEquals(7.0, wide.getDouble(row, column), "a gap of the strided target");
                }
            }
        }
    }

    /** The one block of a single-block random array, deferred. */
    private static DeferredBlock deferredBlockOf(ChunkedArray random) throws Exception {
        org.tessera.graph.Task task = random.graph().materialize().tasks().get(random.key(0, 0));
        org.tessera.graph.Task.Call call = (org.tessera.graph.Task.Call) task;
        org.tessera.graph.Deferring maker = (org.tessera.graph.Deferring) call.function();
        return (DeferredBlock) maker.applyDeferring(List.of(((org.tessera.graph.Task.Literal) call.arguments().getFirst()).value()));
    }
}
