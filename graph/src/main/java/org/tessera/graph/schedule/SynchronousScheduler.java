package org.tessera.graph.schedule;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.optimize.Cull;
import org.tessera.graph.order.Ordering;

/**
 * The reference scheduler: one thread, one task at a time, in the static order. It is short enough
 * to read at once and is the oracle that tests compare the other schedulers with.
 *
 * <p>Design: cull the graph to what the outputs need, order it (dependencies first, depth-first
 * toward the outputs), then run each task with its inputs from a result map. A result is dropped as
 * soon as no task still to run reads it, so memory follows the ordering as in the threaded scheduler.
 */
public final class SynchronousScheduler implements Scheduler {
    private final List<Callback> callbacks;

    public SynchronousScheduler(Callback... callbacks) {
        this.callbacks = List.of(callbacks);
    }

    @Override
    public boolean runsTasksInThisProcess() {
        return true;
    }

    @Override
    public Map<Key, Object> compute(TaskGraph fullGraph, Collection<Key> outputs) {
        TaskGraph graph = Cull.cull(fullGraph, outputs).validate();
        List<Key> order = Ordering.order(graph, outputs);
        Set<Key> kept = Set.copyOf(outputs);
        Map<Key, Integer> readersLeft = new HashMap<>();
        order.forEach(key -> graph.dependencies(key).forEach(read -> readersLeft.merge(read, 1, Integer::sum)));
        Map<Key, Object> results = new HashMap<>();
        callbacks.forEach(callback -> callback.configured(List.of(Thread.currentThread().getName()), MemoryBudget.unlimited()));
        callbacks.forEach(callback -> callback.start(graph));
        for (Key key : order) {
            callbacks.forEach(callback -> callback.beforeTask(key, 0));
            try {
                results.put(key, graph.task(key).evaluate(results::get));
            } catch (Exception | Error failure) {
                callbacks.forEach(callback -> callback.afterTask(key, 0, failure));
                callbacks.forEach(callback -> callback.finish(false));
                throw new TaskFailedException(key, graph.task(key).label(), failure);
            }
            callbacks.forEach(callback -> callback.afterTask(key, 0, null));
            for (Key read : graph.dependencies(key)) {
                if (readersLeft.merge(read, -1, Integer::sum) == 0 && !kept.contains(read)) {
                    results.remove(read);
                }
            }
        }
        callbacks.forEach(callback -> callback.finish(true));
        Map<Key, Object> values = new LinkedHashMap<>();
        outputs.forEach(output -> values.put(output, results.get(output)));
        return values;
    }
}
