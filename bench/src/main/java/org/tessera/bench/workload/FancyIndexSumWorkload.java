package org.tessera.bench.workload;

import java.util.Map;
import java.util.SplittableRandom;

import org.tessera.array.ChunkedArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.index.Index;

/**
 * W6: {@code x[::3, 100:-100][idx].sum()} for x uniform [0, 1) of 10000 x 10000 in 1000 x 1000
 * blocks and idx 2000 random row positions of the strided view (in [0, 3334) at full size): a
 * strided slice, then an unsorted integer index with repeats across blocks.
 */
final class FancyIndexSumWorkload extends SquareRandomWorkload {
    private static final long ROW_STEP = 3;
    private static final long MARGIN = 100;
    private static final int POSITIONS = 2_000;
    /** bench_dask.py's {@code default_rng(1)}; the streams differ anyway, which the check's tolerance allows. */
    private static final long POSITION_SEED = 1;

    FancyIndexSumWorkload() {
        super("W6", 10_000, 1_000);
    }

    /** The sum over the number of selected elements, bench_dask.py's check value. */
    @Override
    double compute(ChunkedArray x) {
        ChunkedArray view = x.get(Index.range(null, null, ROW_STEP), Index.range(MARGIN, -MARGIN, null));
        // Drawn from the view's row count rather than a fixed 3334 so that the warm-up's smaller matrix stays in range.
        long[] positions = new SplittableRandom(POSITION_SEED).longs(POSITIONS, 0, view.shape(0)).toArray();
        double sum = view.get(Index.of(NDArrays.array(positions))).sum().compute().getDouble();
        return sum / ((double) POSITIONS * view.shape(1));
    }

    @Override
    boolean accepts(double value, long side) {
        return Math.abs(value - 0.5) < 1e-2;
    }

    @Override
    void addParams(Map<String, Object> params) {
        params.put("selection", "[::" + ROW_STEP + ", " + MARGIN + ":-" + MARGIN + "][idx]");
        params.put("positions", POSITIONS);
    }
}
