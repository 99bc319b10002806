package org.tessera.spark.events;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.spark.Dependency;
import org.apache.spark.NarrowDependency;
import org.apache.spark.rdd.RDD;
import org.tessera.graph.Key;
import org.tessera.spark.plan.Stage;

import scala.jdk.javaapi.CollectionConverters;

/**
 * Which Tessera keys a Spark task computes. A Spark task computes one partition of the last RDD of
 * its Spark stage and, through the narrow dependencies, the partitions of the RDDs before it that
 * this partition reads; the partition of a Tessera stage's RDD holds the keys the plan put there.
 * The dependencies are followed rather than assuming equal partition numbers, because the union of
 * the outputs shifts the partitions of every stage but the first.
 *
 * <p>The lineage is read on the driver's calling thread, before the job, so that the listener bus
 * thread only reads immutable maps.
 */
final class TaskKeys {
    private final Map<Integer, List<NarrowDependency<?>>> narrowParents;
    private final Map<Integer, List<List<Key>>> keysByPartition;

    private TaskKeys(Map<Integer, List<NarrowDependency<?>>> narrowParents, Map<Integer, List<List<Key>>> keysByPartition) {
        this.narrowParents = narrowParents;
        this.keysByPartition = keysByPartition;
    }

    /**
     * @param job            the RDD of the job's action
     * @param computedStages the Tessera stages that compute blocks, by the id of their RDD
     */
    static TaskKeys of(RDD<?> job, Map<Integer, Stage> computedStages) {
        Map<Integer, List<NarrowDependency<?>>> narrowParents = new HashMap<>();
        Deque<RDD<?>> toVisit = new ArrayDeque<>(List.of(job));
        while (!toVisit.isEmpty()) {
            RDD<?> rdd = toVisit.pop();
            if (narrowParents.containsKey(rdd.id())) {
                continue;
            }
            List<NarrowDependency<?>> narrow = new ArrayList<>();
            for (Dependency<?> dependency : CollectionConverters.asJava(rdd.dependencies())) {
                if (dependency instanceof NarrowDependency<?> within) {
                    narrow.add(within);
                }
                // Through shuffles too: the RDDs before a shuffle end the Spark stages that feed it.
                toVisit.push(dependency.rdd());
            }
            narrowParents.put(rdd.id(), narrow);
        }
        Map<Integer, List<List<Key>>> keysByPartition = new HashMap<>();
        computedStages.forEach((rddId, stage) -> {
            List<List<Key>> partitions = new ArrayList<>(stage.partitionCount());
            for (int partition = 0; partition < stage.partitionCount(); partition++) {
                partitions.add(new ArrayList<>());
            }
            stage.partitions().forEach((key, partition) -> partitions.get(partition).add(key));
            keysByPartition.put(rddId, partitions);
        });
        return new TaskKeys(narrowParents, keysByPartition);
    }

    /** The keys that computing {@code partition} of RDD {@code rddId} computes, those of earlier stages first. */
    List<Key> computedBy(int rddId, int partition) {
        List<Key> keys = new ArrayList<>();
        collect(rddId, partition, new HashSet<>(), keys);
        return keys;
    }

    private void collect(int rddId, int partition, Set<Long> visited, List<Key> keys) {
        if (!visited.add((long) rddId << 32 | partition)) {
            return;
        }
        for (NarrowDependency<?> dependency : narrowParents.getOrDefault(rddId, List.of())) {
            for (Object parentPartition : CollectionConverters.asJava(dependency.getParents(partition))) {
                collect(dependency.rdd().id(), (Integer) parentPartition, visited, keys);
            }
        }
        List<List<Key>> partitions = keysByPartition.get(rddId);
        if (partitions != null) {
            keys.addAll(partitions.get(partition));
        }
    }
}
