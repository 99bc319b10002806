/**
 * Tessera on Apache Spark: {@link org.tessera.spark.SparkScheduler} runs any task graph on a Spark
 * application (embedded local mode or a cluster), so that going from one machine to many changes
 * the scheduler and not the code: {@code x.compute(SparkScheduler.of(spark))}.
 *
 * <h2>Model</h2>
 * The scheduler receives what every scheduler receives, an optimised low-level
 * {@link org.tessera.graph.TaskGraph} and the keys wanted, and only translates it (STYLE's "adapters
 * stay thin"): Spark decides where and when each piece runs, retries failed tasks, and recomputes
 * what a lost executor held from the lineage of its RDDs.
 * <ol>
 *   <li><b>Plan</b> ({@link org.tessera.spark.plan.StagePlanner}): cull, then cut the graph into
 *       stages, one per layer name and depth (a blockwise layer is one stage; a tree reduction in
 *       one layer is a stage per level). Each key gets a partition: its C-order block position
 *       modulo the stage's partition count, so layers over the same block grid line up.</li>
 *   <li><b>Lower</b> ({@link org.tessera.spark.lowering.StageLowering}): each stage becomes an RDD
 *       of (key, encoded block). Its partition i is the serialized list of its tasks for partition
 *       i, zipped with the blocks they read: blocks already in partition i of the producer are kept
 *       by a filter (narrow: an elementwise chain runs as one Spark stage, with no shuffle), the
 *       others are sent to the partitions of their readers by a shuffle of just those blocks (how a
 *       transpose, a contraction or a reduction gathers its inputs: keyed by output). A stage read
 *       twice is persisted (memory, then disk) until the computation ends.</li>
 *   <li><b>Run</b>: one action on the union of the outputs' stages; only the requested blocks come
 *       back to the driver.</li>
 * </ol>
 *
 * <h2>Why not one RDD per high-level layer with joins</h2>
 * The suggested lowering, layers as keyed RDDs joined with their dependencies, needs the
 * high-level layers, but a {@link org.tessera.graph.schedule.Scheduler} sees the graph after
 * optimisation, where fused layers are plain tasks; recovering stages from key names and depths
 * works for hand-written graphs as well. And a join of keyed RDDs shuffles both sides unless Spark
 * knows they share a partitioner, which a map over keys loses; choosing partitions in the plan and
 * combining aligned partitions with {@code zipPartitions} makes "no shuffle for an elementwise
 * chain" a property of the plan (tested on the RDD lineage) rather than of Spark's bookkeeping.
 *
 * <h2>Values on the wire</h2>
 * Blocks travel and sit in Spark storage as {@code .npy} bytes (header with dtype and shape, then the
 * raw element bytes: {@link org.tessera.spark.serialization.BlockCodec}); task lists travel as Java
 * serialization in which NDArrays and catalogue ufuncs are replaced by bytes and names. Task
 * functions must be {@link java.io.Serializable} (a {@link org.tessera.graph.TaskFunction} is), and
 * so must what they capture: readers and writers capture a path (a Zarr array over a directory
 * store), never an open file, so executors read and write a shared file system directly.
 *
 * <h2>Failures</h2>
 * A task that throws fails its Spark task; Spark retries it up to {@code spark.task.maxFailures}
 * times (a cluster's default is 4; use {@code local[N,4]} for retries in local mode). When every
 * attempt failed, {@code compute} throws {@link org.tessera.graph.schedule.TaskFailedException}
 * naming the Tessera key, with the task's own exception as the cause. A lost executor is Spark's
 * business: its tasks run elsewhere and the blocks it held are recomputed.
 *
 * <h2>Persist</h2>
 * {@link org.tessera.spark.SparkScheduler#persist} keeps blocks in Spark storage and returns
 * {@link org.tessera.spark.plan.StoredBlock} handles; {@code x.persist(spark.persisting())} gives a
 * chunked array whose graph holds those handles, and later computations on the same Spark
 * application read the blocks where they lie.
 *
 * <p>Example: {@code (x + x.T).mean(0)} for x of 2 x 2 blocks: the fused add-and-partial-mean layer
 * is one stage of 4 partitions (each task makes its own blocks of x), the combining layer one stage
 * of 2 or 1; the partial means move to the combining partition, nothing else moves.
 */
package org.tessera.spark;
