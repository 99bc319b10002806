package org.tessera.spark.plan;

/**
 * Where a block that an earlier computation left in Spark storage lives: which persisted dataset
 * holds it, and in which of the dataset's partitions.
 *
 * @param datasetId      the persisted dataset (a Spark RDD id)
 * @param partitionCount partitions of that dataset
 * @param partition      the partition holding the block
 */
public record StoredPlacement(int datasetId, int partitionCount, int partition) {

    public StoredPlacement {
        if (partitionCount < 1 || partition < 0 || partition >= partitionCount) {
            throw new IllegalArgumentException("dataset " + datasetId + ": partition " + partition + " is not in [0, " + partitionCount + ")");
        }
    }
}
