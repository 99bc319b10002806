package org.tessera.array;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.UnknownChunksException;
import org.tessera.array.creation.Creation;
import org.tessera.graph.schedule.Callback;
import org.tessera.graph.schedule.MeasuredPeak;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;

/**
 * {@code compute()} on the threaded scheduler copies each block into the result as its task
 * finishes and lets the scheduler drop it, rather than holding every block until the last is done:
 * the result and the running tasks' blocks at a time, not the result beside a copy of it.
 */
class OutputAssemblyTest {
    private static final int ROWS = 64;
    private static final int COLUMNS = 1000;

    /** The most results a computation held at once, and the most bytes. */
    private static final class MostHeld implements Callback {
        private int results;
        private long bytes;

        @Override
        public synchronized void resultsHeld(long bytesInMemory, int liveResults) {
            results = Math.max(results, liveResults);
            bytes = Math.max(bytes, bytesInMemory);
        }
    }

    private static NDArray values() {
        return NDArrays.arange(ROWS * COLUMNS).reshape(ROWS, COLUMNS).astype(org.tessera.ndarray.dtype.DType.FLOAT64);
    }

    /** 64 blocks of a row each, every one a new array (the source's rows plus one). */
    private static ChunkedArray rowsPlusOne(NDArray values) {
        long[] rows = new long[ROWS];
        Arrays.fill(rows, 1);
        return Creation.fromSource(RegionSource.of(values), ChunkSpec.explicit(rows, new long[] {COLUMNS})).add(1);
    }

    @Test
    void theThreadedSchedulerHoldsTheRunningTasksBlocksNotEveryBlock() {
        NDArray values = values();
        MostHeld held = new MostHeld();
        NDArray computed = rowsPlusOne(values).compute(ThreadedScheduler.builder().workers(2).callback(held).build());
        assertEquals(NDArrays.add(values, 1).toString(), computed.toString());
        // Every block is 8000 bytes; all 64 held at once would be 512,000.
        assertTrue(held.results <= 4 && held.bytes <= 4 * 8_000L, "held at most " + held.results + " results, " + held.bytes + " bytes");
    }

    @Test
    void theMeasuredPeakCountsTheResultTheBlocksAreCopiedInto() {
        NDArray values = values();
        ChunkedArray plusOne = rowsPlusOne(values);
        MeasuredPeak measured = new MeasuredPeak();
        plusOne.compute(ThreadedScheduler.builder().workers(2).callback(measured).build());
        long resultBytes = ROWS * COLUMNS * 8L;
        assertTrue(measured.bytes() >= resultBytes, "measured " + measured.bytes() + " bytes, the result alone takes " + resultBytes);
        // The blocks held beside it are the running tasks' few, not a second copy of the result.
        assertTrue(measured.bytes() < 2 * resultBytes, "measured " + measured.bytes() + " bytes");
        org.tessera.array.plan.Plan plan = plusOne.plan();
        assertEquals(resultBytes, plan.assembledBytes());
        assertTrue(plan.toString().contains("results assembled  500.0 KiB, held from the start"), plan.toString());
        assertTrue(measured.bytes() <= plan.projectedPeakBytes(), "measured " + measured.bytes() + " bytes, projected " + plan.projectedPeakBytes());
        assertEquals(0, plusOne.sum().plan().assembledBytes(), "a result of one block is the block itself");
    }

    @Test
    void everyArrayOfOneComputationGetsItsBlocksOnceCopied() {
        NDArray values = values();
        ChunkedArray plusOne = rowsPlusOne(values);
        ChunkedArray single = Creation.fromSource(RegionSource.of(values), ChunkSpec.explicit(new long[] {ROWS}, new long[] {COLUMNS}));
        List<NDArray> computed = ChunkedArray.computeAll(ThreadedScheduler.builder().workers(2).build(), List.of(plusOne, single, plusOne, plusOne.sum(0)));
        NDArray expected = NDArrays.add(values, 1);
        assertEquals(expected.toString(), computed.get(0).toString());
        assertEquals(values.toString(), computed.get(1).toString());
        assertSame(computed.get(0), computed.get(2), "one array asked twice is assembled once");
        assertEquals(NDArrays.sum(expected, org.tessera.ndarray.ufunc.Reductions.Options.axes(0)).toString(), computed.get(3).toString());
        assertEquals(computed.get(0).toString(), plusOne.compute(new SynchronousScheduler()).toString(), "as the scheduler that holds every block");
    }

    @Test
    void unknownChunksStillAskForTheirSizesFirst() {
        NDArray values = values();
        ChunkedArray plusOne = rowsPlusOne(values);
        ChunkedArray large = plusOne.get(plusOne.greater(ROWS * COLUMNS / 2.0));
        ThreadedScheduler scheduler = ThreadedScheduler.builder().workers(2).build();
        assertThrows(UnknownChunksException.class, () -> large.compute(scheduler));
        // values + 1 is 1 to 64,000 in order: those above 32,000 are 32,001 to 64,000.
        NDArray expected = NDArrays.arange(ROWS * COLUMNS / 2.0 + 1, ROWS * COLUMNS + 1.0, 1.0);
        assertEquals(expected.toString(), large.computeChunkSizes(scheduler).compute(scheduler).toString());
    }
}
