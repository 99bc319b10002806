package org.tessera.graph.schedule;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.memory.MemoryBudget;

/**
 * Runs a graph on a pool of worker threads: the ready task with the best static priority runs
 * first, a result is released as soon as its last reader has run, and when results in memory would
 * exceed the memory budget, those needed latest are spilled to disk.
 *
 * <p>Each computation has threads of its own, started for it and joined before {@code compute}
 * returns. So a task may itself compute a graph with this scheduler without waiting for a thread its
 * caller holds, and nothing outlives a failed or cancelled computation.
 */
public final class ThreadedScheduler implements Scheduler {
    private final int workers;
    private final MemoryBudget budget;
    private final Path spillDirectory;
    private final List<Callback> callbacks;

    private ThreadedScheduler(Builder builder) {
        this.workers = builder.workers;
        this.budget = builder.budget;
        this.spillDirectory = builder.spillDirectory;
        this.callbacks = List.copyOf(builder.callbacks);
    }

    /** All cores, no memory budget, no callbacks. */
    public ThreadedScheduler() {
        this(builder());
    }

    public static Builder builder() {
        return new Builder();
    }

    public int workers() {
        return workers;
    }

    public MemoryBudget budget() {
        return budget;
    }

    @Override
    public boolean runsTasksInThisProcess() {
        return true;
    }

    @Override
    public Map<Key, Object> compute(TaskGraph graph, Collection<Key> outputs) {
        return run(graph, outputs).results();
    }

    /**
     * Computes {@code outputs} and reports what the computation held.
     *
     * @throws TaskFailedException if a task threw (the first failure; the others are not waited for)
     * @throws java.util.concurrent.CancellationException if the calling thread was interrupted; its
     *         interrupt flag stays set
     */
    public Computation run(TaskGraph graph, Collection<Key> outputs) {
        return new Execution(graph, outputs, workers, budget, spillDirectory, callbacks, null).run();
    }

    /** Each output goes to {@code sink} from the worker that computed it, as its task finishes. */
    @Override
    public Map<Key, Object> compute(TaskGraph graph, Collection<Key> outputs, OutputSink sink) {
        return new Execution(graph, outputs, workers, budget, spillDirectory, callbacks, sink).run().results();
    }

    @Override
    public boolean streamsOutputs() {
        return true;
    }

    /** Settings of a threaded scheduler. */
    public static final class Builder {
        private int workers = Runtime.getRuntime().availableProcessors();
        private MemoryBudget budget = MemoryBudget.unlimited();
        private Path spillDirectory;
        private final List<Callback> callbacks = new ArrayList<>();

        public Builder workers(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("a threaded scheduler needs at least one worker, got " + count);
            }
            this.workers = count;
            return this;
        }

        public Builder memoryBudget(MemoryBudget memoryBudget) {
            this.budget = java.util.Objects.requireNonNull(memoryBudget);
            return this;
        }

        /** Where spill directories are created (the system temporary directory by default). */
        public Builder spillDirectory(Path directory) {
            this.spillDirectory = directory;
            return this;
        }

        public Builder callback(Callback callback) {
            callbacks.add(java.util.Objects.requireNonNull(callback));
            return this;
        }

        public ThreadedScheduler build() {
            return new ThreadedScheduler(this);
        }
    }
}
