package org.tessera.graph.order;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
        Map<Key, Integer> weights = subgraphSizes(graph, outputs);
        return graph.postOrder(new LinkedHashSet<>(outputs), key -> inputsInVisitOrder(graph, key, weights));
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

    private static Iterator<Key> inputsInVisitOrder(TaskGraph graph, Key key, Map<Key, Integer> weights) {
        Set<Key> inputs = graph.dependencies(key);
        if (inputs.size() < 2) {
            return inputs.iterator();
        }
        List<Key> sorted = new ArrayList<>(inputs);
        // Stable: inputs of equal weight keep their first-use (usually block) order.
        sorted.sort((left, right) -> Integer.compare(weights.getOrDefault(right, 0), weights.getOrDefault(left, 0)));
        return sorted.iterator();
    }

    /**
     * An estimate of the work under each key: one plus the estimates of its inputs, capped so that
     * shared inputs counted twice cannot overflow. Exact counts need a set per key; the estimate is
     * enough to send long branches first.
     */
    private static Map<Key, Integer> subgraphSizes(TaskGraph graph, Collection<Key> outputs) {
        Map<Key, Integer> sizes = HashMap.newHashMap(graph.size());
        for (Key key : graph.postOrder(outputs, input -> graph.dependencies(input).iterator())) {
            long size = 1;
            for (Key input : graph.dependencies(key)) {
                size += sizes.getOrDefault(input, 0);
            }
            sizes.put(key, (int) Math.min(size, Integer.MAX_VALUE / 2));
        }
        return sizes;
    }
}
