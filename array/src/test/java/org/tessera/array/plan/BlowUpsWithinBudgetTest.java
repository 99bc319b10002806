package org.tessera.array.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.schedule.MeasuredPeak;
import org.tessera.ndarray.NDArray;

/**
 * Computations whose memory blows up in Dask run in Tessera within a quarter of Dask's peak. The
 * budgets are Dask's peak resident memory above its interpreter's, measured by
 * {@code bench/anchors/dask_memory.py} (Dask 2022.12.1, threaded scheduler, 2 cores), divided by
 * four: each computation is planned within that budget, runs, and its measured peak stays in it.
 */
class BlowUpsWithinBudgetTest {
    private static final long MB = 1_000_000;

    private static ChunkedArray uniform(long rows, long columns, long blockRows, long blockColumns) {
        return Creation.random(23, Creation.Distribution.UNIFORM, new long[] {rows, columns}, ChunkSpec.of(blockRows, blockColumns));
    }

    /** Computes {@code array} within {@code budget}, checks its peak stayed in it, and returns the values. */
    private static NDArray withinBudget(ChunkedArray array, Budget budget) {
        Plan plan = array.plan(budget);
        assertTrue(plan.fits(), plan.toString());
        MeasuredPeak peak = new MeasuredPeak();
        NDArray values = ChunkedArray.computeAll(ChunkedArray.budgetedScheduler(List.of(array), budget, List.of(peak)), List.of(array)).getFirst();
        assertTrue(peak.bytes() > 0 && peak.bytes() <= budget.bytes(), "measured " + peak.bytes() + " bytes within " + budget + System.lineSeparator() + plan);
        System.out.printf("%s: measured %d bytes, projected %d, budget %d%n", array.name(), peak.bytes(), plan.projectedPeakBytes(), budget.bytes());
        return values;
    }

    /** M1: Dask peaks 645 MB above its baseline for a rechunk of 512 MB from column slabs to row slabs. */
    @Test
    void aRechunkThatCrossesEveryChunk() {
        ChunkedArray x = uniform(8000, 8000, 8000, 100);
        NDArray sum = withinBudget(x.rechunk(ChunkSpec.of(100, 8000)).sum(), Budget.ofBytes(645 * MB / 4));
        assertEquals(0.5, sum.getDouble() / (8000.0 * 8000), 1e-3);
    }

    /** M2: Dask peaks 234 MB above its baseline for A.T @ A of a 400 MB A in 100 row blocks of 500 x 500. */
    @Test
    void aGramMatrixOfManyRowBlocks() {
        ChunkedArray a = uniform(50_000, 1000, 500, 500);
        NDArray gram = withinBudget(a.T().matmul(a), Budget.ofBytes(234 * MB / 4));
        assertEquals(50_000 / 3.0, gram.getDouble(7, 7), 50_000 * 0.01);
        assertEquals(50_000 / 4.0, gram.getDouble(7, 900), 50_000 * 0.01);
    }

    /** M3: Dask peaks 839 MB above its baseline for x - x.mean(0) over an 800 MB tall x: its order holds every block. */
    @Test
    void aCentringOfATallArray() {
        ChunkedArray x = uniform(200_000, 500, 5000, 500);
        NDArray rowSums = withinBudget(x.subtract(x.mean(0)).sum(1), Budget.ofBytes(839 * MB / 4));
        assertEquals(200_000, rowSums.size());
        assertEquals(0, rowSums.getDouble(0) / 500, 0.1);
    }
}
