/**
 * From plan to Spark: the RDD of each stage ({@link org.tessera.spark.lowering.StageLowering}) and
 * the functions that run on executors (evaluating a partition's tasks, filtering and moving
 * blocks). Spark's own operations do the rest: zipPartitions where blocks stay in place,
 * partitionBy where they move, persist where a stage is read twice.
 */
package org.tessera.spark.lowering;
