package org.tessera.spark.plan;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.tessera.graph.GraphException;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.optimize.Cull;

/**
 * Cuts a task graph into stages. It only reads the graph; the ordering of the work within a stage
 * and its placement on machines are Spark's.
 *
 * <p>A stage is the keys of one name (one layer of the high-level graph) at one depth, where the
 * depth of a key is one more than the deepest key it reads. So a blockwise layer is one stage, a
 * tree reduction held in one layer becomes a stage per level, and every stage reads only stages
 * before it. Blocks persisted by an earlier computation form stored stages, one per data set.
 *
 * <p>Placement: a key goes to partition {@code (C-order position of its block index in its layer's
 * grid) mod partitionCount}, where a stage has as many partitions as keys, up to a maximum. Two
 * layers over the same block grid thus place block (i, j) in the same partition, so an elementwise
 * chain never moves a block; a transpose or a contraction moves just the blocks whose reader sits
 * elsewhere.
 *
 * <p>Example: {@code (x + x.T)} over 2 x 2 blocks is stage 0, x (4 keys, 4 partitions), then stage
 * 1, add (4 keys, 4 partitions). add (0, 1) reads x (0, 1) in place and x (1, 0) moved from
 * partition 2 to partition 1.
 */
public final class StagePlanner {
    private StagePlanner() {
    }

    /**
     * The plan computing {@code outputs}.
     *
     * @param stored        blocks held in Spark storage, which tasks may read although the graph lacks them
     * @param maxPartitions the most partitions of one stage
     * @throws GraphException when a needed key is neither in the graph nor stored, or the graph has a cycle
     */
    public static StagePlan plan(TaskGraph fullGraph, Collection<Key> outputs, Map<Key, StoredPlacement> stored, int maxPartitions) {
        if (maxPartitions < 1) {
            throw new IllegalArgumentException("a stage needs at least one partition, got maxPartitions = " + maxPartitions);
        }
        List<Key> missingOutputs = new ArrayList<>();
        for (Key output : outputs) {
            if (!fullGraph.contains(output) && !stored.containsKey(output)) {
                missingOutputs.add(output);
            }
        }
        if (!missingOutputs.isEmpty()) {
            throw new GraphException("requested keys " + missingOutputs + " are not in the graph", missingOutputs);
        }
        TaskGraph graph = Cull.cull(fullGraph, outputs.stream().filter(fullGraph::contains).toList());
        List<Key> order = graph.topologicalOrder();
        requireInputs(graph, order, stored);

        Map<Key, Integer> depth = new HashMap<>();
        // (depth, name) -> keys, in the order the depths and names first appear
        TreeMap<Integer, Map<String, List<Key>>> groups = new TreeMap<>();
        for (Key key : order) {
            int level = 0;
            for (Key read : graph.dependencies(key)) {
                Integer readDepth = depth.get(read);
                if (readDepth != null) {
                    level = Math.max(level, readDepth + 1);
                }
            }
            depth.put(key, level);
            groups.computeIfAbsent(level, ignored -> new LinkedHashMap<>()).computeIfAbsent(key.name(), ignored -> new ArrayList<>()).add(key);
        }

        List<Stage> stages = new ArrayList<>();
        Map<Key, Stage> stageOf = new HashMap<>();
        addStoredStages(graph, order, outputs, stored, stages, stageOf);
        for (Map<String, List<Key>> byName : groups.values()) {
            byName.forEach((name, keys) -> {
                Stage stage = new Stage(stages.size(), name, placement(keys, maxPartitions), Math.min(keys.size(), maxPartitions), -1);
                stages.add(stage);
                keys.forEach(key -> stageOf.put(key, stage));
            });
        }

        Map<Key, Task> tasks = new LinkedHashMap<>();
        for (Key key : order) {
            tasks.put(key, graph.task(key));
        }
        Set<Key> wanted = new LinkedHashSet<>(outputs);
        return new StagePlan(stages, routes(graph, stages, stageOf), tasks, wanted);
    }

    private static void requireInputs(TaskGraph graph, List<Key> order, Map<Key, StoredPlacement> stored) {
        List<Key> missing = new ArrayList<>();
        List<String> readers = new ArrayList<>();
        for (Key key : order) {
            for (Key read : graph.dependencies(key)) {
                if (!graph.contains(read) && !stored.containsKey(read)) {
                    missing.add(read);
                    readers.add(read + " (read by " + key + ")");
                }
            }
        }
        if (!missing.isEmpty()) {
            throw new GraphException("the graph lacks keys its tasks read: " + String.join(", ", readers), missing);
        }
    }

    /** One stage per persisted data set that the graph reads, holding just the blocks read. */
    private static void addStoredStages(TaskGraph graph, List<Key> order, Collection<Key> outputs, Map<Key, StoredPlacement> stored,
                                        List<Stage> stages, Map<Key, Stage> stageOf) {
        Map<Integer, Map<Key, Integer>> byDataset = new LinkedHashMap<>();
        Map<Integer, Integer> partitionCounts = new HashMap<>();
        List<Key> readStored = new ArrayList<>();
        for (Key key : order) {
            for (Key read : graph.dependencies(key)) {
                if (!graph.contains(read)) {
                    readStored.add(read);
                }
            }
        }
        for (Key output : outputs) {
            if (!graph.contains(output)) {
                readStored.add(output);
            }
        }
        for (Key key : readStored) {
            StoredPlacement placement = stored.get(key);
            byDataset.computeIfAbsent(placement.datasetId(), ignored -> new LinkedHashMap<>()).put(key, placement.partition());
            partitionCounts.put(placement.datasetId(), placement.partitionCount());
        }
        byDataset.forEach((dataset, partitions) -> {
            Stage stage = new Stage(stages.size(), "stored dataset " + dataset, partitions, partitionCounts.get(dataset), dataset);
            stages.add(stage);
            partitions.keySet().forEach(key -> stageOf.put(key, stage));
        });
    }

    /**
     * Each key's partition: its C-order position in the bounding grid of its stage's block indices,
     * modulo the partition count. Keys keep their graph order, which is the order they run in.
     */
    static Map<Key, Integer> placement(List<Key> keys, int maxPartitions) {
        int partitionCount = Math.min(keys.size(), maxPartitions);
        int rank = 0;
        for (Key key : keys) {
            rank = Math.max(rank, key.rank());
        }
        long[] extents = new long[rank];
        for (Key key : keys) {
            for (int axis = 0; axis < key.rank(); axis++) {
                extents[axis] = Math.max(extents[axis], key.index(axis) + 1L);
            }
        }
        Map<Key, Integer> partitions = new LinkedHashMap<>();
        for (Key key : keys) {
            long position = 0;
            for (int axis = 0; axis < rank; axis++) {
                // Floor-mod keeps the position small: only its remainder matters.
                position = Math.floorMod(position * extents[axis] + (axis < key.rank() ? key.index(axis) : 0), (long) partitionCount);
            }
            partitions.put(key, (int) position);
        }
        return partitions;
    }

    private static List<Route> routes(TaskGraph graph, List<Stage> stages, Map<Key, Stage> stageOf) {
        // (producer, consumer) -> blocks kept in place / blocks moved with their target partitions
        Map<Long, Set<Key>> local = new LinkedHashMap<>();
        Map<Long, Map<Key, Set<Integer>>> moved = new LinkedHashMap<>();
        for (Stage consumer : stages) {
            if (consumer.isStored()) {
                continue;
            }
            consumer.partitions().forEach((key, partition) -> {
                for (Key read : graph.dependencies(key)) {
                    Stage producer = stageOf.get(read);
                    long pair = (long) producer.id() << 32 | consumer.id();
                    if (producer.partitionCount() == consumer.partitionCount() && producer.partition(read) == partition) {
                        local.computeIfAbsent(pair, ignored -> new LinkedHashSet<>()).add(read);
                    } else {
                        moved.computeIfAbsent(pair, ignored -> new LinkedHashMap<>()).computeIfAbsent(read, ignored -> new LinkedHashSet<>()).add(partition);
                    }
                }
            });
        }
        Set<Long> pairs = new TreeSet<>(local.keySet());
        pairs.addAll(moved.keySet());
        List<Route> routes = new ArrayList<>();
        for (long pair : pairs) {
            routes.add(new Route((int) (pair >>> 32), (int) pair, local.getOrDefault(pair, Set.of()), moved.getOrDefault(pair, Map.of())));
        }
        return routes;
    }
}
