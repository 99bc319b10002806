/**
 * Tessera's task events on Spark: a {@link org.apache.spark.scheduler.SparkListener} on the driver
 * turns the start and end of each Spark task into the {@link org.tessera.graph.schedule.Callback}
 * events of the Tessera keys it computes, so a progress bar, a profiler or the dashboard works on
 * Spark as on the threaded scheduler ({@link org.tessera.spark.events.TaskEvents}).
 *
 * <p>A Spark task runs one partition of a chain of narrow RDDs, so it computes one partition of
 * each Tessera stage in that chain: the narrow dependencies say which partition of each, unions
 * included (they lay the partitions of several stages end to end). A key is reported by the first
 * Spark task attempt that computes it, with that attempt's outcome: a retry, a speculative copy, a
 * later read of a persisted stage or a recomputation after a lost executor reports nothing more.
 */
package org.tessera.spark.events;
