package org.tessera.graph.optimize;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskGraph;

/** What the task-level passes share: rebuilding a graph in its original key order. */
final class Rewrites {
    private Rewrites() {
    }

    /** {@code graph}'s keys minus {@code removed}, each with its task from {@code current}. */
    static TaskGraph rebuild(TaskGraph graph, Map<Key, Task> current, Set<Key> removed) {
        if (removed.isEmpty()) {
            return graph;
        }
        Map<Key, Task> result = new LinkedHashMap<>();
        for (Key key : graph.keys()) {
            if (!removed.contains(key)) {
                result.put(key, current.get(key));
            }
        }
        return TaskGraph.of(result);
    }

    /** How many times {@code task} refers to {@code key}. */
    static int referenceCount(Task task, Key key) {
        java.util.List<Key> references = new java.util.ArrayList<>();
        task.collectDependencies(references);
        return (int) references.stream().filter(key::equals).count();
    }
}
