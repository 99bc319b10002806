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
import org.tessera.array.RegionSource;
import org.tessera.array.api.ChunkedArrays;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.Key;
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
    void aReductionReadingADeferredScanInStripsGivesTheHeldResult() {
        // Blocks of 2000 x 100 are reduced in strips of 655 rows, each a part of the deferred scan.
        ChunkedArray lazy = Creation.random(8, Creation.Distribution.UNIFORM, new long[] {4000, 300}, ChunkSpec.of(2000, 100));
        ChunkedArray held = ChunkedArrays.fromArray(lazy.compute(), ChunkSpec.of(2000, 100));
        for (int axis : new int[] {0, 1}) {
            NDArray expected = held.cumsum(0).sum(axis).compute();
            NDArray actual = lazy.cumsum(0).sum(axis).compute();
            for (long position = 0; position < expected.size(); position++) {
                double wanted = expected.getDouble(position);
                assertEquals(wanted, actual.getDouble(position), Math.abs(wanted) * 1e-13, "cumsum(0).sum(" + axis + ") at " + position);
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

    @Test
    void blocksReadForTheirLastRowAreFusedIntoTheirReadersAndNeverHeldWhole() {
        // A source's blocks are not cheap to compute again, so each is read by one task: for x.cumsum(0)[-1], every
        // block above the last row of blocks is read by its last slice alone, which must take it in strips, and each
        // block of the last row by the row's selection, which takes it with its carry and scans it to its last row.
        NDArray values = Creation.random(4, Creation.Distribution.UNIFORM, new long[] {400, 60}, ChunkSpec.of(400, 60)).compute();
        ChunkedArray x = Creation.fromSource(RegionSource.of(values), ChunkSpec.of(100, 30));
        ChunkedArray last = x.cumsum(0).get(Index.at(-1));
        for (Key key : last.optimizedGraph().tasks().keySet()) {
            assertTrue(!key.name().startsWith("cumsum-block"), key + " is a scanned block held whole for its last row (a task of its own)");
        }
        NDArray totals = last.compute();
        for (long column = 0; column < 60; column++) {
            double[] blockTotals = new double[4];
            for (long row = 0; row < 400; row++) {
                blockTotals[(int) (row / 100)] += values.getDouble(row, column);
            }
            // Carries chain from the first block; the last block's scan then has the carry added.
            double expected = blockTotals[3] + ((blockTotals[0] + blockTotals[1]) + blockTotals[2]);
            assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(totals.getDouble(column)), "column " + column);
        }
    }

    /** A block held in memory that counts the slices along the first axis asked of it. */
    private static final class CountingBlock implements DeferredBlock {
        private final NDArray values;
        long slicesAsked;

        CountingBlock(NDArray values) {
            this.values = values;
        }

        @Override
        public long[] shape() {
            return values.shape();
        }

        @Override
        public NDArray part(long[] start, long[] shape) {
            slicesAsked += shape[0];
            NDArray part = values;
            for (int axis = 0; axis < shape.length; axis++) {
                part = part.slice(axis, start[axis], 1, shape[axis]);
            }
            return part.copy();
        }
    }

    @Test
    void consecutivePartsOfADeferredScanScanTheBlockOnce() throws Exception {
        NDArray values = Creation.random(6, Creation.Distribution.UNIFORM, new long[] {1000, 30}, ChunkSpec.of(1000, 30)).compute();
        NDArray whole = CumulativeScan.blockScan(CumulativeScan.Kind.CUMSUM, values, 0, null);
        CountingBlock counting = new CountingBlock(values);
        DeferredScan scan = new DeferredScan(CumulativeScan.Kind.CUMSUM, 0, counting);
        for (long row = 0; row < 1000; row += 100) {
            NDArray part = scan.part(new long[] {row, 0}, new long[] {100, 30});
            for (long column = 0; column < 30; column += 7) {
                assertEquals(Double.doubleToRawLongBits(whole.getDouble(row + 99, column)), Double.doubleToRawLongBits(part.getDouble(99, column)));
            }
        }
        assertEquals(1000, counting.slicesAsked, "ten strips in order read each row once");
        NDArray again = scan.part(new long[] {500, 3}, new long[] {1, 20});
        assertEquals(Double.doubleToRawLongBits(whole.getDouble(500, 3)), Double.doubleToRawLongBits(again.getDouble(0, 0)), "a part behind the last one scans from the start");
        assertEquals(1501, counting.slicesAsked);
    }
}
