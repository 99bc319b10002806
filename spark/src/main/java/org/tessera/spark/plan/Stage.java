package org.tessera.spark.plan;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.tessera.graph.Key;

/**
 * One unit of Spark work: the keys of one layer at one depth of the graph, spread over
 * {@code partitionCount} partitions. A computed stage runs its tasks; a stored stage reads blocks
 * that an earlier computation persisted in Spark storage ({@code storedDataset}).
 *
 * @param id             position in the plan; every stage reads only stages with smaller ids
 * @param layer          the name shared by its keys (the layer of the high-level graph)
 * @param partitions     each key with its partition, in the order the tasks run inside a partition
 * @param partitionCount partitions of the stage's data set
 * @param storedDataset  the persisted dataset it reads, or -1 for a computed stage
 */
public record Stage(int id, String layer, Map<Key, Integer> partitions, int partitionCount, int storedDataset) {

    public Stage {
        partitions = Collections.unmodifiableMap(new LinkedHashMap<>(partitions));
    }

    public boolean isStored() {
        return storedDataset >= 0;
    }

    public List<Key> keys() {
        return List.copyOf(partitions.keySet());
    }

    public int partition(Key key) {
        Integer partition = partitions.get(key);
        if (partition == null) {
            throw new IllegalArgumentException("stage " + id + " (" + layer + ") has no key " + key);
        }
        return partition;
    }

    @Override
    public String toString() {
        return "Stage[" + id + ", " + layer + ", " + partitions.size() + " keys in " + partitionCount + " partitions"
                + (isStored() ? ", stored in dataset " + storedDataset : "") + "]";
    }
}
