package org.tessera.bench.workload;

import org.tessera.array.ChunkedArray;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;

/** W2: {@code A.T @ A} computed in memory, for A uniform [0, 1) of 20000 x 4000 in 2000 x 2000 blocks. */
final class GramWorkload extends RandomMatrixWorkload {
    GramWorkload() {
        super("W2", 20_000, 4_000, 2_000, 2_000);
    }

    /**
     * The trace over the number of elements, bench_dask.py's check value: the diagonal holds the
     * column sums of squares, each of expectation rows / 3.
     */
    @Override
    double compute(ChunkedArray a) {
        NDArray gram = a.T().matmul(a).compute();
        return NDArrays.trace(gram).getDouble() / ((double) a.shape(0) * a.shape(1));
    }

    @Override
    boolean accepts(double value, long rows, long columns) {
        return Math.abs(value - 1.0 / 3) < 1e-2;
    }
}
