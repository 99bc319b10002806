package org.tessera.graph.optimize;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskGraph;

/**
 * Fuses linear chains into single tasks, as Dask's {@code fuse}: where a task reads exactly one key
 * and is that key's only reader, the key's task is substituted into it. A chain load → add → sum
 * per block becomes one task per block, which saves scheduling and keeps the block in cache. The
 * fused task keeps the name of the chain's last key, so outputs do not change names.
 */
public final class LinearFusion {
    private LinearFusion() {
    }

    /** The fused graph; keys in {@code keep} are never fused away. */
    public static TaskGraph fuse(TaskGraph graph, Collection<Key> keep) {
        Set<Key> kept = Set.copyOf(keep);
        Map<Key, Task> fused = new HashMap<>(graph.tasks());
        Set<Key> absorbed = new HashSet<>();
        for (Key key : graph.topologicalOrder()) {
            Set<Key> reads = graph.dependencies(key);
            if (reads.size() != 1) {
                continue;
            }
            Key input = reads.iterator().next();
            // A key read twice would be computed twice once substituted.
            if (!graph.contains(input) || kept.contains(input) || graph.dependents(input).size() != 1
                    || Rewrites.referenceCount(graph.task(key), input) != 1) {
                continue;
            }
            fused.put(key, fused.get(key).substitute(input, fused.get(input)));
            absorbed.add(input);
        }
        return Rewrites.rebuild(graph, fused, absorbed);
    }
}
