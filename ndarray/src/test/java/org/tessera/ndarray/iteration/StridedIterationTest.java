package org.tessera.ndarray.iteration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.dtype.DType;

class StridedIterationTest {
    private static final MemorySegment STORAGE = MemorySegment.ofArray(new long[1024]);

    private static List<long[]> runs(long[] shape, Operand... operands) {
        List<long[]> runs = new ArrayList<>();
        StridedIteration.forEachRun(shape, operands, (offsets, strides, count) -> {
            long[] run = new long[2 * offsets.length + 1];
            for (int i = 0; i < offsets.length; i++) {
                run[2 * i] = offsets[i];
                run[2 * i + 1] = strides[i];
            }
            run[run.length - 1] = count;
            runs.add(run);
        });
        return runs;
    }

    private static Operand operand(long offset, long... strides) {
        return new Operand(DType.FLOAT64, STORAGE, offset, strides);
    }

    @Test
    void contiguousOperandsCoalesceIntoOneRun() {
        List<long[]> runs = runs(new long[] {4, 5, 6}, operand(0, 240, 48, 8), operand(8, 240, 48, 8));
        assertEquals(1, runs.size());
        assertArrayEquals(new long[] {0, 8, 8, 8, 120}, runs.getFirst());
    }

    @Test
    void aTransposedOperandKeepsTheAxesApart() {
        List<long[]> runs = runs(new long[] {2, 3}, operand(0, 24, 8), operand(0, 8, 16));
        assertEquals(2, runs.size());
        assertArrayEquals(new long[] {0, 8, 0, 16, 3}, runs.get(0));
        assertArrayEquals(new long[] {24, 8, 8, 16, 3}, runs.get(1));
    }

    @Test
    void aBroadcastOperandHasStrideZeroInTheRun() {
        List<long[]> runs = runs(new long[] {3, 4}, operand(0, 32, 8), operand(0, 0, 8));
        assertEquals(3, runs.size());
        assertArrayEquals(new long[] {64, 8, 0, 8, 4}, runs.get(2));
    }

    @Test
    void axesOfLengthOneAreDroppedAndEmptyShapesRunNothing() {
        assertEquals(1, runs(new long[] {1, 7, 1}, operand(0, 999, 8, 5)).size());
        assertEquals(0, runs(new long[] {3, 0}, operand(0, 8, 8)).size());
        assertArrayEquals(new long[] {16, 0, 1}, runs(new long[] {}, operand(16)).getFirst());
    }

    @Test
    void negativeStridesWalkBackwards() {
        List<long[]> runs = runs(new long[] {2, 3}, operand(40, -24, -8));
        assertEquals(1, runs.size());
        assertArrayEquals(new long[] {40, -8, 6}, runs.getFirst());
    }

    /** Tiles must cover the iteration space exactly once, whatever the edges; checked element by element. */
    @Test
    void tiledRunsVisitEveryElementOnceWhenAnOperandIsTransposed() {
        long planes = 2, rows = StridedIteration.TILE + 37, columns = 2 * StridedIteration.TILE + 5;
        long elements = planes * rows * columns;
        MemorySegment storage = MemorySegment.ofArray(new long[(int) elements]);
        Operand rowMajor = new Operand(DType.FLOAT64, storage, 0, new long[] {rows * columns * 8, columns * 8, 8});
        Operand columnMajor = new Operand(DType.FLOAT64, storage, 0, new long[] {rows * columns * 8, 8, rows * 8});
        int[] visits = new int[(int) elements];
        int[] runCount = {0};
        StridedIteration.forEachRunTiled(new long[] {planes, rows, columns}, new Operand[] {rowMajor, columnMajor}, (offsets, strides, count) -> {
            runCount[0]++;
            for (long k = 0; k < count; k++) {
                long rowMajorElement = (offsets[0] + k * strides[0]) / 8;
                long columnMajorElement = (offsets[1] + k * strides[1]) / 8;
                long plane = rowMajorElement / (rows * columns);
                long row = rowMajorElement / columns % rows;
                long column = rowMajorElement % columns;
                assertEquals(plane * rows * columns + column * rows + row, columnMajorElement, "both operands at the same (plane, row, column)");
                visits[(int) rowMajorElement]++;
            }
        });
        for (int element = 0; element < visits.length; element++) {
            assertEquals(1, visits[element], "visits of element " + element);
        }
        assertEquals(planes * rows * 3, runCount[0], "runs of at most one tile width");
    }

    @Test
    void tiledRunsFallBackToCOrderWhenNoOperandIsTransposed() {
        Operand[] operands = {operand(0, 40, 8), operand(8, 40, 8)};
        List<long[]> tiled = new ArrayList<>();
        StridedIteration.forEachRunTiled(new long[] {4, 5}, operands, (offsets, strides, count) -> tiled.add(new long[] {offsets[0], offsets[1], count}));
        assertEquals(1, tiled.size());
        assertArrayEquals(new long[] {0, 8, 20}, tiled.getFirst());
    }
}
