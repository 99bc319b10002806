package org.tessera.graph;

import java.util.concurrent.Callable;

/**
 * A task function that runs the producers fused into its task inside a scope of its own: a
 * reduction whose partial is small can let everything the task allocated on the way (an enlarged
 * block, a filter's output) be taken back at once, so that tasks reuse the same memory instead of
 * each leaving its blocks to the collector. The fused task asks its last function for the scope.
 */
public interface Scoping {

    /** Runs {@code task}, the whole fused task with this function last, and returns a result that outlives the scope. */
    Object scope(Callable<Object> task) throws Exception;

    /**
     * Runs {@code computation} in memory of this scope's kind that lasts until it returns, around
     * tasks of this function that each run in a scope of their own: what the computation keeps for
     * all of them (a stored block several of them read, see {@link Deferred#keepWhole}) lives there.
     * Its result is the computation's own; the scope copies nothing out.
     */
    default <T> T enclose(Callable<T> computation) throws Exception {
        return computation.call();
    }
}
