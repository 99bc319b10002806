package org.tessera.bench.workload;

/**
 * The chunked workloads over one square matrix in square blocks (W1, W6, W7, W8), whose checks
 * depend on the side alone.
 */
abstract class SquareRandomWorkload extends RandomMatrixWorkload {

    SquareRandomWorkload(String name, long side, long chunk) {
        super(name, side, side, chunk, chunk);
    }

    /** Whether {@code value}, computed on a side of {@code side}, is within WORKLOADS.md's tolerance. */
    abstract boolean accepts(double value, long side);

    @Override
    final boolean accepts(double value, long rows, long columns) {
        return accepts(value, rows);
    }
}
