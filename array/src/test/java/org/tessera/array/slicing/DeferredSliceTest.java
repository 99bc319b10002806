package org.tessera.array.slicing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.tessera.array.Allocation;
import org.tessera.array.ChunkedArray;
import org.tessera.array.api.ChunkedArrays;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.index.Index;

/**
 * Basic indexing of blocks not computed yet (random blocks, made box by box) computes only the boxes
 * it selects, and must give exactly the values that the same indexing gives over the same values
 * held as computed blocks: boxes, steps of either sign, positions and new axes, alone and read by a
 * reduction or a gather.
 */
class DeferredSliceTest {
    private static final ChunkSpec BLOCKS = ChunkSpec.of(300, 400);

    private static Map<String, Index[]> selections() {
        Map<String, Index[]> selections = new LinkedHashMap<>();
        selections.put("[10:700, 5:950]", new Index[] {Index.range(10L, 700L, null), Index.range(5L, 950L, null)});
        selections.put("[::3, 100:-100]", new Index[] {Index.range(null, null, 3L), Index.range(100L, -100L, null)});
        selections.put("[::-2, 7]", new Index[] {Index.range(null, null, -2L), Index.at(7)});
        selections.put("[450, ::-5]", new Index[] {Index.at(450), Index.range(null, null, -5L)});
        selections.put("[None, 20:40, 1::4]", new Index[] {Index.newAxis(), Index.range(20L, 40L, null), Index.range(1L, null, 4L)});
        return selections;
    }

    @Test
    void slicesOfDeferredBlocksAreTheSlicesOfTheComputedBlocks() {
        ChunkedArray lazy = Creation.random(5, Creation.Distribution.UNIFORM, new long[] {900, 1000}, BLOCKS);
        ChunkedArray held = ChunkedArrays.fromArray(lazy.compute(), BLOCKS);
        for (Map.Entry<String, Index[]> selection : selections().entrySet()) {
            NDArray expected = held.get(selection.getValue()).compute();
            NDArray actual = lazy.get(selection.getValue()).compute();
            assertArrayEquals(expected.shape(), actual.shape(), selection.getKey());
            for (long position = 0; position < expected.size(); position++) {
                assertEquals(expected.reshape(-1).getDouble(position), actual.reshape(-1).getDouble(position), selection.getKey() + " at " + position);
            }
            double expectedSum = held.get(selection.getValue()).sum().compute().getDouble();
            assertEquals(expectedSum, lazy.get(selection.getValue()).sum().compute().getDouble(), Math.abs(expectedSum) * 1e-13, selection.getKey() + ".sum()");
        }
    }

    @Test
    void aGatherOfAStridedSliceGivesTheHeldValues() {
        ChunkedArray lazy = Creation.random(9, Creation.Distribution.UNIFORM, new long[] {900, 1000}, BLOCKS);
        ChunkedArray held = ChunkedArrays.fromArray(lazy.compute(), BLOCKS);
        Index[] view = {Index.range(null, null, 3L), Index.range(100L, -100L, null)};
        long[] positions = new SplittableRandom(1).longs(50, 0, 300).toArray();
        NDArray expected = held.get(view).get(Index.of(NDArrays.array(positions))).compute();
        NDArray actual = lazy.get(view).get(Index.of(NDArrays.array(positions))).compute();
        assertArrayEquals(expected.shape(), actual.shape());
        for (long position = 0; position < expected.size(); position++) {
            assertEquals(expected.reshape(-1).getDouble(position), actual.reshape(-1).getDouble(position), "at " + position);
        }
    }

    @Test
    void aGatherOfAFewRowsOfARandomArrayComputesOnlyThoseRows() {
        // Four 2000 x 2000 blocks of 32 MB; five rows of the strided view are 5 x 2000 values per block column.
        ChunkedArray x = Creation.random(4, Creation.Distribution.UNIFORM, new long[] {4000, 4000}, ChunkSpec.of(2000, 2000));
        ChunkedArray picked = x.get(Index.range(null, null, 3L), Index.all()).get(Index.of(NDArrays.array(new long[] {1200, 3, 17, 900, 4})));
        Allocation run = Allocation.ofSecondCompute(picked.sum());
        assertTrue(run.bytes() < 8L << 20, "picking five rows allocated " + run.megabytes() + " MB; one whole block is 32 MB");
        double sum = run.result().getDouble();
        NDArray whole = x.compute();
        double expected = 0;
        for (long row : new long[] {1200, 3, 17, 900, 4}) {
            for (long column = 0; column < 4000; column++) {
                expected += whole.getDouble(3 * row, column);
            }
        }
        assertEquals(expected, sum, expected * 1e-12);
    }
}
