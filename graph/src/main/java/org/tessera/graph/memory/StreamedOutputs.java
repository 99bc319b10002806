package org.tessera.graph.memory;

import java.util.Set;
import org.tessera.graph.Key;

/**
 * Outputs that a computation hands, as their tasks finish, to results it allocated before any task
 * ran (see {@link org.tessera.graph.schedule.OutputSink}): those results are held from the start,
 * and each output block only until it is copied and no task reads it.
 *
 * @param keys        the outputs copied into such results
 * @param resultBytes the bytes of those results together
 */
public record StreamedOutputs(Set<Key> keys, long resultBytes) {
    /** No output streamed: each is held until the computation ends. */
    public static final StreamedOutputs NONE = new StreamedOutputs(Set.of(), 0);

    public StreamedOutputs {
        keys = Set.copyOf(keys);
        if (resultBytes < 0) {
            throw new IllegalArgumentException("streamed results cannot take negative bytes: " + resultBytes);
        }
    }
}
