package org.tessera.bench.workload;

import org.tessera.array.ChunkedArray;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;

/** W1: {@code (x + x.T).mean(axis=0)} for x uniform [0, 1) of 20000 x 20000 in 2000 x 2000 blocks. */
final class TransposeMeanWorkload extends SquareRandomWorkload {
    TransposeMeanWorkload() {
        super("W1", 20_000, 2_000);
    }

    /** The mean of the result, the check value of WORKLOADS.md. */
    @Override
    double compute(ChunkedArray x) {
        NDArray columnMeans = x.add(x.T()).mean(0).compute();
        return NDArrays.sum(columnMeans).getDouble() / columnMeans.size();
    }

    @Override
    boolean accepts(double value, long side) {
        return Math.abs(value - 1.0) < 1e-3;
    }
}
