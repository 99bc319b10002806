package org.tessera.graph.schedule;

/**
 * The largest measured peak of the computations a scheduler fed it ({@link ExecutionStatistics#measuredPeakBytes()}),
 * for a program that reports it beside a plan's projection; 0 from a scheduler that does not measure.
 */
public final class MeasuredPeak implements Callback {
    private volatile long bytes;

    @Override
    public synchronized void statistics(ExecutionStatistics statistics) {
        bytes = Math.max(bytes, statistics.measuredPeakBytes());
    }

    public long bytes() {
        return bytes;
    }
}
