package org.tessera.spark;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.spark.plan.StoredBlock;

/**
 * The result of {@link SparkScheduler#persist}: blocks kept in Spark storage, as handles. Put
 * {@link #tasks()} into a graph (they are literals of the handles) and the Spark scheduler reads
 * the blocks where they lie.
 *
 * @param datasetId the Spark RDD holding the blocks
 * @param blocks    a handle per persisted key
 */
public record PersistedBlocks(SparkScheduler scheduler, int datasetId, Map<Key, StoredBlock> blocks) implements AutoCloseable {

    public PersistedBlocks {
        blocks = Collections.unmodifiableMap(new LinkedHashMap<>(blocks));
    }

    /** A literal task per key, standing for the persisted block. */
    public Map<Key, Task> tasks() {
        Map<Key, Task> tasks = new LinkedHashMap<>();
        blocks.forEach((key, block) -> tasks.put(key, Task.literal(block)));
        return tasks;
    }

    /** Removes the blocks from Spark storage. */
    public void unpersist() {
        scheduler.unpersist(datasetId);
    }

    @Override
    public void close() {
        unpersist();
    }
}
