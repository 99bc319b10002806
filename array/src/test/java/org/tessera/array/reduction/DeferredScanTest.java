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
import org.tessera.ndarray.index.Index;

/**
 * Cumulative scans of blocks not computed yet (random blocks, made box by box) stay deferred, and
 * a reader that wants a part (a carry, the last row) computes only that part, in strips: the values
 * must be exactly those of the same scans over the same values held as computed blocks.
 */
class DeferredScanTest {
    private static final ChunkSpec BLOCKS = ChunkSpec.of(300, 250);

    private static Map<String, UnaryOperator<ChunkedArray>> scans() {
        Map<String, UnaryOperator<ChunkedArray>> scans = new LinkedHashMap<>();
        scans.put("cumsum(0)", array -> array.cumsum(0));
        scans.put("cumsum(1)", array -> array.cumsum(1));
        scans.put("cumprod(0)", array -> array.add(0.5).cumprod(0));
        scans.put("cumsum(0)[-1]", array -> array.cumsum(0).get(Index.at(-1)));
        scans.put("cumsum(1)[:, 517]", array -> array.cumsum(1).get(Index.all(), Index.at(517)));
        scans.put("cumsum(0)[::7, 3:-3]", array -> array.cumsum(0).get(Index.range(null, null, 7L), Index.range(3L, -3L, null)));
        return scans;
    }

    @Test
    void deferredScansAreTheScansOfTheComputedBlocksBitForBit() {
        ChunkedArray lazy = Creation.random(11, Creation.Distribution.UNIFORM, new long[] {1000, 700}, BLOCKS);
        ChunkedArray held = ChunkedArrays.fromArray(lazy.compute(), BLOCKS);
        for (Map.Entry<String, UnaryOperator<ChunkedArray>> scan : scans().entrySet()) {
            NDArray expected = scan.getValue().apply(held).compute();
            NDArray actual = scan.getValue().apply(lazy).compute();
            assertArrayEquals(expected.shape(), actual.shape(), scan.getKey());
            for (long position = 0; position < expected.size(); position++) {
                assertEquals(Double.doubleToRawLongBits(expected.reshape(-1).getDouble(position)),
                        Double.doubleToRawLongBits(actual.reshape(-1).getDouble(position)), scan.getKey() + " at " + position);
            }
        }
    }

    @Test
    void theLastRowOfACumulativeSumNeverMakesABlockWhole() {
        // Four 2000 x 2000 blocks of 32 MB: made whole, each block and its scan would be 64 MB.
        ChunkedArray x = Creation.random(2, Creation.Distribution.UNIFORM, new long[] {4000, 4000}, ChunkSpec.of(2000, 2000));
        ChunkedArray last = x.cumsum(0).get(Index.at(-1));
        Allocation run = Allocation.ofSecondCompute(last);
        assertTrue(run.bytes() < 32L << 20, "the last row of the scan allocated " + run.megabytes() + " MB, a whole block's worth");
        NDArray totals = run.result();
        NDArray whole = x.compute();
        for (long column : new long[] {0, 1999, 2000, 3999}) {
            // Each block's scan runs on its own; the second block's total is then added to the first's carry.
            double[] blockTotals = new double[2];
            for (long row = 0; row < 4000; row++) {
                blockTotals[(int) (row / 2000)] += whole.getDouble(row, column);
            }
            double expected = blockTotals[1] + blockTotals[0];
            assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(totals.getDouble(column)), "column " + column);
        }
    }
}
