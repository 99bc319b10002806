/**
 * Planning, with no Spark in it: a task graph cut into stages (the keys of one layer at one depth)
 * and the routes that carry blocks from stage to stage.
 *
 * <p>The plan decides only what Tessera knows and Spark does not: which keys belong together and
 * which partition a block goes to, so that layers over the same block grid line up partition by
 * partition. Everything else (which machine runs a partition, retries, recomputing lost data) is
 * Spark's. See {@link org.tessera.spark.plan.StagePlanner} for the rules and a worked example.
 */
package org.tessera.spark.plan;
