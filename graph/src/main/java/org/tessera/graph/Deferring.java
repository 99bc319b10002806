package org.tessera.graph;

import java.util.List;

/**
 * A function that can take some of its arguments as {@link Deferred} values and may return one. When
 * blockwise fusion puts such a producer before such a reader, the producer's deferred result goes
 * straight to the reader, so a reduction at the end of a fused chain can pull the whole chain through
 * a block part by part, in cache, instead of making every intermediate block whole. A mixin: task
 * functions and the array layer's block functions both implement it.
 */
public interface Deferring {

    /** Whether the argument at this position may be given as a deferred value. */
    boolean acceptsDeferred(int position);

    /**
     * The result, possibly deferred. Only the positions that {@link #acceptsDeferred} names may hold
     * deferred values; the caller forces whatever it returns before it leaves the task.
     */
    Object applyDeferring(List<Object> arguments) throws Exception;
}
