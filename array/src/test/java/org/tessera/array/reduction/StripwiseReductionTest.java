package org.tessera.array.reduction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.tessera.array.Allocation;
import org.tessera.array.ChunkedArray;
import org.tessera.array.api.ChunkedArrays;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.ndarray.NDArray;

/**
 * A reduction at the end of a fused chain over counter-based random blocks reads each block in
 * strips (see {@code TreeReduction.ChunkStep}) and must give what the same expression gives over the
 * same values held as computed blocks, which are reduced whole.
 */
class StripwiseReductionTest {
    private static final long SIDE = 1300;
    private static final ChunkSpec BLOCKS = ChunkSpec.of(600, 600);

    /** The reductions to check, over an array of two axes. */
    private static Map<String, UnaryOperator<ChunkedArray>> reductions() {
        Map<String, UnaryOperator<ChunkedArray>> reductions = new LinkedHashMap<>();
        reductions.put("mean(0)", array -> array.mean(0));
        reductions.put("mean(1)", array -> array.mean(1));
        reductions.put("sum()", ChunkedArray::sum);
        reductions.put("var(0)", array -> array.var(0, 0));
        reductions.put("std(1, ddof=1)", array -> array.std(1, 1));
        reductions.put("min(0)", array -> array.min(0));
        reductions.put("max(1)", array -> array.max(1));
        reductions.put("argmax(0)", array -> array.argmax(0));
        reductions.put("argmin()", ChunkedArray::argmin);
        return reductions;
    }

    @Test
    void stripsGiveTheResultsOfWholeBlocks() {
        ChunkedArray lazy = Creation.random(7, Creation.Distribution.UNIFORM, new long[] {SIDE, SIDE}, BLOCKS);
        ChunkedArray held = ChunkedArrays.fromArray(lazy.compute(), BLOCKS);
        for (Map.Entry<String, UnaryOperator<ChunkedArray>> reduction : reductions().entrySet()) {
            NDArray expected = reduction.getValue().apply(held.add(held.T()).multiply(0.5)).compute();
            NDArray actual = reduction.getValue().apply(lazy.add(lazy.T()).multiply(0.5)).compute();
            assertArrayEquals(expected.shape(), actual.shape(), reduction.getKey());
            assertEquals(expected.dtype(), actual.dtype(), reduction.getKey());
            for (long position = 0; position < expected.size(); position++) {
                double wanted = expected.reshape(-1).getDouble(position);
                double got = actual.reshape(-1).getDouble(position);
                // Sums add the strips' partials in another order than the whole block's; picks are exact.
                assertEquals(wanted, got, Math.abs(wanted) * 1e-13, reduction.getKey() + " at " + position);
            }
        }
    }

    @Test
    void aReducedBlockIsNeverMadeWhole() {
        // Four 2000 x 2000 blocks: made whole, x, x.T and their sum would allocate 3 x 32 MB per task.
        // (Two blocks a side, so that x and x.T are two reads of different blocks, not one shared read.)
        ChunkedArray x = Creation.random(3, Creation.Distribution.UNIFORM, new long[] {4000, 4000}, ChunkSpec.of(2000, 2000));
        ChunkedArray total = x.add(x.T()).sum(0);
        Allocation run = Allocation.ofSecondCompute(total);
        NDArray sums = run.result();
        long allocated = run.bytes();
        // Whole blocks would be 12 x 32 MB; strips leave scratch slabs and partials, a few megabytes a task.
        assertTrue(allocated < 64L << 20, "reducing four 32 MB blocks allocated " + (allocated >> 20) + " MB, more than two blocks");
        NDArray whole = x.compute();
        for (long column : new long[] {0, 1234, 3999}) {
            double expected = 0;
            for (long row = 0; row < 4000; row++) {
                expected += whole.getDouble(row, column) + whole.getDouble(column, row);
            }
            assertEquals(expected, sums.getDouble(column), 1e-9, "column " + column);
        }
    }
}
