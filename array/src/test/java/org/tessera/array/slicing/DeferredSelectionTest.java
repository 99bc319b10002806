package org.tessera.array.slicing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.array.slicing.BlockSlice.Keep;
import org.tessera.array.slicing.BlockSlice.Range;
import org.tessera.array.slicing.BlockSlice.Step;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.index.Indexing;

/**
 * A stepped or cut selection of a deferred block asks the block for boxes of a strip of rows, one
 * after the other, never for the whole box around it (a 2000-row stored chunk of which a step of 3
 * keeps a third), and holds the same values as the selection of the block made whole.
 */
class DeferredSelectionTest {
    private static final long ROWS = 2000;
    private static final long COLUMNS = 300;

    /** A block whose element (r, c) is r * 1000 + c, which records every box asked of it. */
    private static final class RecordingBlock implements DeferredBlock {
        final List<long[]> boxes = new ArrayList<>();

        @Override
        public long[] shape() {
            return new long[] {ROWS, COLUMNS};
        }

        @Override
        public NDArray part(long[] start, long[] shape) {
            boxes.add(new long[] {start[0], shape[0], start[1], shape[1]});
            NDArray box = NDArray.empty(DType.FLOAT64, shape);
            for (long row = 0; row < shape[0]; row++) {
                for (long column = 0; column < shape[1]; column++) {
                    box.setDouble((start[0] + row) * 1000.0 + start[1] + column, row, column);
                }
            }
            return box;
        }
    }

    private static NDArray whole() {
        return new RecordingBlock().part(new long[2], new long[] {ROWS, COLUMNS});
    }

    @Test
    void aSteppedSelectionIsPulledThroughInConsecutiveStripsWithTheSelectionsValues() throws Exception {
        RecordingBlock block = new RecordingBlock();
        List<Step> steps = List.of(new Range(1, 3, 667), new Range(10, 1, 280));
        NDArray part = new BlockSlice.DeferredSelection(block, steps, new long[] {667, 280}).part(new long[2], new long[] {667, 280});
        assertSameValues(Indexing.get(whole(), Index.range(1L, null, 3L), Index.range(10L, 290L, null)), part, "the strips");
        assertTrue(block.boxes.size() > 1, "the box is asked in strips, not whole");
        long next = 1;
        for (long[] box : block.boxes) {
            assertTrue(box[1] * COLUMNS <= DeferredBlock.STRIP_ELEMENTS, "a strip of " + box[1] + " rows is more than a strip");
            assertEquals(next, box[0], "each strip starts where the last one ended");
            next = box[0] + box[1];
        }
        assertEquals(ROWS, next, "the last strip runs on to the block's end");
    }

    @Test
    void aPartOfASelectionAndANegativeStepAreTheSelectionsValues() throws Exception {
        NDArray whole = whole();
        List<Step> cut = List.of(new Keep(), new Range(5, 1, 200));
        NDArray rows = new BlockSlice.DeferredSelection(new RecordingBlock(), cut, new long[] {ROWS, 200}).part(new long[] {700, 20}, new long[] {900, 100});
        assertSameValues(Indexing.get(whole, Index.range(700L, 1600L, null), Index.range(25L, 125L, null)), rows, "a cut of columns, in strips");
        RecordingBlock reversed = new RecordingBlock();
        List<Step> backwards = List.of(new Range(ROWS - 1, -2, 1000), new Keep());
        NDArray flipped = new BlockSlice.DeferredSelection(reversed, backwards, new long[] {1000, COLUMNS}).part(new long[2], new long[] {1000, COLUMNS});
        assertSameValues(Indexing.get(whole, Index.range(null, null, -2L), Index.all()), flipped, "a negative step");
        assertEquals(1, reversed.boxes.size(), "a negative step is computed in one box");
    }

    @Test
    void scatteredRowsOfASteppedSelectionAreAskedOfTheBlockAsItsOwnRowsCutToTheSelection() throws Exception {
        RecordingBlock block = new RecordingBlock();
        List<Step> steps = List.of(new Range(1, 3, 667), new Range(10, 1, 280));
        long[] rows = {0, 5, 6, 600};
        NDArray slabs = new BlockSlice.DeferredSelection(block, steps, new long[] {667, 280}).slabs(0, rows, new long[] {0, 20}, new long[] {1, 100});
        assertSameValues(Indexing.get(whole(), Index.of(org.tessera.ndarray.api.NDArrays.array(1L, 16L, 19L, 1801L)), Index.range(30L, 130L, null)),
                slabs, "rows 0, 5, 6 and 600 of the selection, columns 20 to 120");
        assertEquals(List.of("1+1, 30+100", "16+1, 30+100", "19+1, 30+100", "1801+1, 30+100"),
                block.boxes.stream().map(box -> box[0] + "+" + box[1] + ", " + box[2] + "+" + box[3]).toList(), "a box of one row per row asked");
    }

    private static void assertSameValues(NDArray expected, NDArray actual, String what) {
        assertArrayEquals(expected.shape(), actual.shape(), what);
        NDArray flatExpected = expected.copy().reshape(-1);
        NDArray flatActual = actual.copy().reshape(-1);
        for (long position = 0; position < flatExpected.size(); position++) {
            assertEquals(flatExpected.getDouble(position), flatActual.getDouble(position), what + " at " + position);
        }
    }
}
