package org.tessera.graph.schedule;

/**
 * What one computation of the threaded scheduler held and did: enough to show that a memory budget
 * held, and that the ordering kept few intermediates alive.
 *
 * @param tasksRun         tasks executed
 * @param peakLiveResults  the most results held at once (in memory or spilled)
 * @param peakResultBytes  the most bytes of results in memory at once
 * @param spilledResults   results written to disk because the budget was reached
 * @param spilledBytes     bytes written to disk
 * @param measuredPeakBytes the most bytes held at once by results in memory, by the running
 *                          tasks, each counted at all it had allocated (see
 *                          {@link org.tessera.graph.memory.AllocationMeter}), and by the results an
 *                          {@link OutputSink} copies outputs into; 0 without a meter
 */
public record ExecutionStatistics(int tasksRun, int peakLiveResults, long peakResultBytes, int spilledResults, long spilledBytes,
                                  long measuredPeakBytes) {
}
