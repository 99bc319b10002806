package org.tessera.graph.optimize;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.tessera.graph.GraphException;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskGraph;

/** Keeps only the tasks that the requested outputs need, as Dask's {@code cull}. */
public final class Cull {
    private Cull() {
    }

    /**
     * The sub-graph of {@code outputs} and everything they read. References to keys the graph lacks
     * are kept as they are, so that validation can name them.
     *
     * @throws GraphException if an output is not in the graph
     */
    public static TaskGraph cull(TaskGraph graph, Collection<Key> outputs) {
        requireKeys(graph, outputs);
        if (outputs.size() == graph.size()) {
            return graph;
        }
        Map<Key, Task> kept = new LinkedHashMap<>();
        Deque<Key> pending = new ArrayDeque<>(outputs);
        while (!pending.isEmpty()) {
            Key key = pending.pop();
            Task task = graph.tasks().get(key);
            if (task != null && !kept.containsKey(key)) {
                kept.put(key, task);
                pending.addAll(graph.dependencies(key));
            }
        }
        return kept.size() == graph.size() ? graph : TaskGraph.of(kept);
    }

    /**
     * Returns {@code graph} after checking that it has every requested key.
     *
     * @throws GraphException naming the requested keys the graph lacks
     */
    public static TaskGraph requireKeys(TaskGraph graph, Collection<Key> outputs) {
        List<Key> absent = outputs.stream().filter(output -> !graph.contains(output)).toList();
        if (!absent.isEmpty()) {
            throw new GraphException("requested keys are not in the graph: " + absent, absent);
        }
        return graph;
    }
}
