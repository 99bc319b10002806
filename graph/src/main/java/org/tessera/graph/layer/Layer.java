package org.tessera.graph.layer;

import java.util.Collection;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskGraph;

/**
 * A named part of a high-level graph: all keys of one layer share its name. A materialized layer
 * holds its tasks; a blockwise layer describes them and builds each only when asked.
 */
public sealed interface Layer permits MaterializedLayer, BlockwiseLayer {

    String name();

    /** The number of keys (tasks) in the layer. */
    long size();

    /** The layer's keys, produced one at a time. */
    Iterable<Key> keys();

    boolean contains(Key key);

    /** The task of {@code key}, built on demand for symbolic layers. */
    Task task(Key key);

    /** The keys {@code key}'s task reads, found without building the task. */
    Set<Key> inputKeys(Key key);

    /**
     * Adds the keys {@code key}'s task reads to {@code keys}, a key read twice perhaps twice: for
     * walks over every key of a layer, where a set per key would cost more than the walk.
     */
    default void collectInputKeys(Key key, Collection<Key> keys) {
        keys.addAll(inputKeys(key));
    }

    /** The layer restricted to {@code wanted} (keys of this layer). */
    Layer cull(Set<Key> wanted);

    /** Whether the tasks exist as objects already. */
    boolean isMaterialized();

    /** Every task of the layer. */
    Map<Key, Task> materialize();

    /** Adds every task of the layer to {@code graph}. */
    default void materializeInto(TaskGraph.Builder graph) {
        graph.putAll(materialize());
    }
}
