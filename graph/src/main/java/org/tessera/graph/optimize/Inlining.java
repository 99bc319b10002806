package org.tessera.graph.optimize;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskGraph;

/**
 * Inlines cheap tasks into their readers, as Dask's {@code inline}: a literal (or a list of
 * literals), an alias of another key, or a call of a function marked {@link org.tessera.graph.TaskFunction#isCheap() cheap} costs
 * less to recompute in each reader than to schedule and hold as a result.
 */
public final class Inlining {
    private Inlining() {
    }

    /** Whether the pass inlines {@code task}. */
    public static boolean isCheap(Task task) {
        return switch (task) {
            case Task.Literal literal -> true;
            case Task.Ref ref -> true;
            case Task.TaskList list -> list.items().stream().allMatch(item -> item instanceof Task.Literal || item instanceof Task.TaskList && isCheap(item));
            // A cheap function over an expensive nested call (what linear fusion makes) is not cheap:
            // inlined, every reader would compute the nested call again.
            case Task.Call call -> call.function().isCheap() && call.arguments().stream().allMatch(argument -> argument instanceof Task.Ref || isCheap(argument));
        };
    }

    /** The graph with cheap tasks copied into their readers; keys in {@code keep} stay as keys. */
    public static TaskGraph inline(TaskGraph graph, Collection<Key> keep) {
        Set<Key> kept = Set.copyOf(keep);
        // Most graphs have no cheap task outside the kept keys: then the topological order is not needed.
        boolean anyCheap = false;
        for (Map.Entry<Key, Task> entry : graph.tasks().entrySet()) {
            if (!kept.contains(entry.getKey()) && isCheap(entry.getValue())) {
                anyCheap = true;
                break;
            }
        }
        if (!anyCheap) {
            return graph;
        }
        Map<Key, Task> changed = new HashMap<>();
        Set<Key> removed = new java.util.HashSet<>();
        for (Key key : graph.topologicalOrder()) {
            Task task = Rewrites.current(graph, changed, key);
            if (kept.contains(key) || !isCheap(task) || graph.dependents(key).isEmpty()) {
                continue;
            }
            for (Key reader : graph.dependents(key)) {
                changed.put(reader, Rewrites.current(graph, changed, reader).substitute(key, task));
            }
            removed.add(key);
        }
        return Rewrites.rebuild(graph, changed, removed);
    }
}
