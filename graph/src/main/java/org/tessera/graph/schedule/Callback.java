package org.tessera.graph.schedule;

import java.util.List;

import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.memory.MemoryBudget;

/**
 * Hooks into a computation, as Dask's callbacks: a progress bar, a profiler and the dashboard are
 * the users. Methods run on the scheduler's threads, so implementations must be thread-safe and
 * quick; {@link #resultsHeld} and {@link #spilled} run while the scheduler holds its lock.
 */
public interface Callback {

    /**
     * Before {@link #start}: who runs the tasks (worker {@code i} of the task events is
     * {@code workers.get(i)}, a thread or an executor's slot) and the computation's memory budget.
     * A scheduler whose workers can join while it runs (executors registering with a cluster)
     * gives a list that grows with them, so a task event may name a worker the list did not hold
     * when this was called.
     */
    default void configured(List<String> workers, MemoryBudget budget) {
    }

    /** Before the first task; {@code graph} holds just the tasks that will run. */
    default void start(TaskGraph graph) {
    }

    /** Before {@code key}'s task runs on worker {@code worker}. */
    default void beforeTask(Key key, int worker) {
    }

    /** After {@code key}'s task ran; {@code failure} is null when it succeeded. */
    default void afterTask(Key key, int worker, Throwable failure) {
    }

    /** After the results held in memory changed: their bytes (as {@code SizeOf} estimates them) and count, spilled ones included in the count. */
    default void resultsHeld(long bytesInMemory, int liveResults) {
    }

    /** After {@code key}'s result was written to disk, {@code bytes} of it, because the memory budget was reached. */
    default void spilled(Key key, long bytes) {
    }

    /** After the last task of a computation that succeeded, before {@link #finish}: what it held and did, where the scheduler counts it. */
    default void statistics(ExecutionStatistics statistics) {
    }

    /** After the last task, or after the failure or cancellation that ended the computation. */
    default void finish(boolean succeeded) {
    }
}
