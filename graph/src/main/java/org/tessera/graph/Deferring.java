package org.tessera.graph;

import java.util.List;

/**
 * A function that can take some of its arguments as {@link Deferred} values and may return one. When
 * blockwise fusion puts such a producer before such a reader, the producer's deferred result goes
 * straight to the reader, so a reduction at the end of a fused chain can pull the whole chain through
 * a block part by part, in cache, instead of making every intermediate block whole. A call nested in
 * another's arguments (a chain that linear fusion built) does the same at evaluation. A mixin: task
 * functions and the array layer's block functions both implement it.
 */
public interface Deferring {

    /** Whether the argument at this position may be given as a deferred value. */
    boolean acceptsDeferred(int position);

    /** Whether the argument at this position, a list (of blocks, say), may hold deferred values among its items. */
    default boolean acceptsDeferredItems(int position) {
        return false;
    }

    /**
     * The result, possibly deferred. Only the positions that {@link #acceptsDeferred} names may hold
     * deferred values, and only the lists at positions that {@link #acceptsDeferredItems} names
     * deferred items; the caller forces whatever it returns before it leaves the task.
     */
    Object applyDeferring(List<Object> arguments) throws Exception;

    /**
     * Whether {@link #applyDeferring}, given deferred values wherever it accepts them, returns a
     * deferred value and computes nothing: a random block made box by box, a slice of one. Such a
     * call costs nothing to repeat in each reader that takes its result deferred, which then
     * computes only the part it reads, so the optimiser may inline it there.
     */
    default boolean defersCheaply() {
        return false;
    }
}
