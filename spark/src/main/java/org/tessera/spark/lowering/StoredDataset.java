package org.tessera.spark.lowering;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.spark.api.java.JavaRDD;
import org.tessera.graph.Key;
import org.tessera.spark.serialization.EncodedBlock;

/**
 * Blocks kept in Spark storage by a persist: the cached data set and where each block sits in it,
 * so that later computations can read the blocks in place.
 *
 * @param data           the cached RDD
 * @param partitions     each block's partition
 * @param partitionCount the RDD's partition count
 */
public record StoredDataset(JavaRDD<EncodedBlock> data, Map<Key, Integer> partitions, int partitionCount) {

    public StoredDataset {
        partitions = Collections.unmodifiableMap(new LinkedHashMap<>(partitions));
    }

    public int id() {
        return data.id();
    }
}
