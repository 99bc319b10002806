package org.tessera.graph.order;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;

/**
 * A static execution order that frees intermediates early: the idea behind {@code dask.order}.
 *
 * <p>The order is a post-order depth-first walk from the outputs: a task comes right after the last
 * of its inputs, so a partial result is combined as soon as its inputs exist, instead of all leaves
 * running first. For a tree sum over N blocks, a scheduler that always picks the ready task with
 * the smallest position holds about one partial per tree level (per worker), not N leaves. Among
 * the inputs of a task, the one with the larger subgraph goes first (the Sethi-Ullman rule): its
 * result is then held only while the small branches run, rather than the small results being held
 * through the whole large branch.
 */
public final class Ordering {
    private Ordering() {
    }

    /**
     * The keys that {@code outputs} need, in execution order: this culls the graph as it orders it.
     *
     * @throws org.tessera.graph.GraphException if the needed keys contain a cycle
     */
    public static List<Key> order(TaskGraph graph, Collection<Key> outputs) {
        return List.of(OrderedGraph.of(graph, outputs).keys());
    }

    /** Each key's position in {@link #order}: smaller runs first. */
    public static Map<Key, Integer> priorities(TaskGraph graph, Collection<Key> outputs) {
        List<Key> order = order(graph, outputs);
        Map<Key, Integer> priorities = HashMap.newHashMap(order.size());
        for (int position = 0; position < order.size(); position++) {
            priorities.put(order.get(position), position);
        }
        return priorities;
    }
}
