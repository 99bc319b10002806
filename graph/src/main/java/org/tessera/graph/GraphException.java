package org.tessera.graph;

import java.util.List;

/** A graph that cannot run: a key it needs is missing, or its keys depend on each other in a cycle. */
public class GraphException extends IllegalArgumentException {
    private final List<Key> keys;

    public GraphException(String message, List<Key> keys) {
        super(message);
        this.keys = List.copyOf(keys);
    }

    /** The keys involved: the missing keys, or the keys around the cycle in order. */
    public List<Key> keys() {
        return keys;
    }
}
