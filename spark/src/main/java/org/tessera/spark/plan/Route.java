package org.tessera.spark.plan;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.Key;

/**
 * How the blocks of one stage reach the tasks of a later stage that read them. A block whose
 * reader sits in the partition of the same number (and the two stages have as many partitions)
 * stays where it is: a narrow dependency, no shuffle. Every other block is sent to the partitions
 * of its readers: a shuffle of just those blocks.
 *
 * @param producer   the stage whose blocks are read
 * @param consumer   the stage whose tasks read them
 * @param localKeys  blocks read in the partition of the same number
 * @param moves      blocks sent elsewhere, each with the consumer partitions that read it
 */
public record Route(int producer, int consumer, Set<Key> localKeys, Map<Key, Set<Integer>> moves) {

    public Route {
        localKeys = Collections.unmodifiableSet(new LinkedHashSet<>(localKeys));
        Map<Key, Set<Integer>> copy = new LinkedHashMap<>();
        moves.forEach((key, partitions) -> copy.put(key, Set.copyOf(partitions)));
        moves = Collections.unmodifiableMap(copy);
    }

    public boolean hasLocalKeys() {
        return !localKeys.isEmpty();
    }

    public boolean hasMoves() {
        return !moves.isEmpty();
    }
}
