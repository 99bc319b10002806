package org.tessera.graph.optimize;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.GraphException;
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

    /**
     * The fused graph; keys in {@code keep} are never fused away. Only the keys that absorb their
     * input are visited, chain by chain, so a graph with nothing to fuse costs one pass over its
     * dependencies rather than a topological order.
     */
    public static TaskGraph fuse(TaskGraph graph, Collection<Key> keep) {
        Set<Key> kept = Set.copyOf(keep);
        // First the tasks that read a single key, without building a dependency set per task (a
        // graph of 100,000 blocks has few of them, often none); then how many tasks read each of
        // those keys.
        Map<Key, Key> candidates = new HashMap<>();
        List<Key> scratch = new ArrayList<>();
        graph.tasks().forEach((key, task) -> {
            scratch.clear();
            task.collectDependencies(scratch);
            Key input = scratch.isEmpty() ? null : scratch.getFirst();
            if (input != null && allEqual(scratch, input) && graph.contains(input) && !kept.contains(input)) {
                candidates.put(key, input);
            }
        });
        if (candidates.isEmpty()) {
            return graph;
        }
        Map<Key, Integer> readerCounts = new HashMap<>();
        candidates.values().forEach(input -> readerCounts.put(input, 0));
        Set<Key> distinct = new HashSet<>();
        graph.tasks().values().forEach(task -> {
            scratch.clear();
            task.collectDependencies(scratch);
            distinct.clear();
            for (Key read : scratch) {
                if (readerCounts.containsKey(read) && distinct.add(read)) {
                    readerCounts.merge(read, 1, Integer::sum);
                }
            }
        });
        Map<Key, Key> absorbs = new HashMap<>();
        // A key read twice would be computed twice once substituted.
        candidates.forEach((key, input) -> {
            if (readerCounts.get(input) == 1 && Rewrites.referenceCount(graph.task(key), input) == 1) {
                absorbs.put(key, input);
            }
        });
        if (absorbs.isEmpty()) {
            return graph;
        }
        Map<Key, Task> fused = new HashMap<>();
        Set<Key> resolved = new HashSet<>();
        for (Key key : absorbs.keySet()) {
            resolveChain(graph, key, absorbs, fused, resolved);
        }
        return Rewrites.rebuild(graph, fused, new HashSet<>(absorbs.values()));
    }

    private static boolean allEqual(List<Key> keys, Key first) {
        for (Key key : keys) {
            if (!key.equals(first)) {
                return false;
            }
        }
        return true;
    }

    /** Substitutes along the chain that ends at {@code end}, from its first unresolved link upwards. */
    private static void resolveChain(TaskGraph graph, Key end, Map<Key, Key> absorbs, Map<Key, Task> fused, Set<Key> resolved) {
        Deque<Key> chain = new ArrayDeque<>();
        for (Key key = end; absorbs.containsKey(key) && !resolved.contains(key); key = absorbs.get(key)) {
            if (chain.size() > absorbs.size()) {
                throw new GraphException("the graph has a cycle through " + end, List.copyOf(chain));
            }
            chain.push(key);
        }
        while (!chain.isEmpty()) {
            Key key = chain.pop();
            Key input = absorbs.get(key);
            fused.put(key, Rewrites.current(graph, fused, key).substitute(input, Rewrites.current(graph, fused, input)));
            resolved.add(key);
        }
    }
}
