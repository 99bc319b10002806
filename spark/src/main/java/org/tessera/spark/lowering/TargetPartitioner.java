package org.tessera.spark.lowering;

import java.io.Serial;

import org.apache.spark.Partitioner;

/** Sends a record to the partition its key names: the planner has already chosen where every block goes. */
final class TargetPartitioner extends Partitioner {
    @Serial
    private static final long serialVersionUID = 1L;

    private final int partitionCount;

    TargetPartitioner(int partitionCount) {
        this.partitionCount = partitionCount;
    }

    @Override
    public int numPartitions() {
        return partitionCount;
    }

    @Override
    public int getPartition(Object key) {
        return (Integer) key;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TargetPartitioner that && that.partitionCount == partitionCount;
    }

    @Override
    public int hashCode() {
        return partitionCount;
    }
}
