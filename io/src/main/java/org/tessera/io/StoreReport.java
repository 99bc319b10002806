package org.tessera.io;

import org.tessera.graph.schedule.ExecutionStatistics;

/**
 * What a store did.
 *
 * @param chunksWritten chunks written by this call
 * @param chunksSkipped chunks already present and left alone (resume mode)
 * @param tasksRun      writing tasks in the graph that ran (one per block of the stored array)
 * @param rechunked     whether the array was rechunked to the sink's chunks first
 * @param statistics    what the threaded scheduler held (peak bytes, spills), or null for other schedulers
 * @param peakGatheredBytes the most bytes of chunks held at once while their parts were gathered
 *                      under region locks (0 when blocks and chunks align, or when rechunked)
 */
public record StoreReport(long chunksWritten, long chunksSkipped, long tasksRun, boolean rechunked, ExecutionStatistics statistics,
                          long peakGatheredBytes) {
}
