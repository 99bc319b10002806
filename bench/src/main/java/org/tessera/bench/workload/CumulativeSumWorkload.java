package org.tessera.bench.workload;

import org.tessera.array.ChunkedArray;
import org.tessera.ndarray.index.Index;

/** W7: {@code x.cumsum(axis=0)[-1].sum()} for x uniform [0, 1) of 10000 x 10000 in 1000 x 1000 blocks. */
final class CumulativeSumWorkload extends SquareRandomWorkload {
    CumulativeSumWorkload() {
        super("W7", 10_000, 1_000);
    }

    /** The sum of the last row of the running sums, i.e. of every element: the check value of WORKLOADS.md. */
    @Override
    double compute(ChunkedArray x) {
        return x.cumsum(0).get(Index.at(-1)).sum().compute().getDouble();
    }

    @Override
    boolean accepts(double value, long side) {
        return Math.abs(value / ((double) side * side) - 0.5) < 1e-3;
    }
}
