package org.tessera.graph.schedule;

import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;

/**
 * Hooks into a computation, as Dask's callbacks: a progress bar and a profiler are the two users.
 * Methods run on the scheduler's threads, so implementations must be thread-safe and quick.
 */
public interface Callback {

    /** Before the first task; {@code graph} holds just the tasks that will run. */
    default void start(TaskGraph graph) {
    }

    /** Before {@code key}'s task runs on worker {@code worker}. */
    default void beforeTask(Key key, int worker) {
    }

    /** After {@code key}'s task ran; {@code failure} is null when it succeeded. */
    default void afterTask(Key key, int worker, Throwable failure) {
    }

    /** After the last task, or after the failure or cancellation that ended the computation. */
    default void finish(boolean succeeded) {
    }
}
