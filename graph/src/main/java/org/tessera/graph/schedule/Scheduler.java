package org.tessera.graph.schedule;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;

/**
 * Runs a task graph and returns the values of the requested keys. Every executor of Tessera (the
 * synchronous reference, the threaded scheduler, Spark) implements this one interface, so an
 * array's {@code compute()} does not care which one runs it.
 */
public interface Scheduler {

    /**
     * Computes {@code outputs} and whatever they need, nothing else.
     *
     * @throws TaskFailedException naming the key whose task failed, with the task's exception as cause
     * @throws org.tessera.graph.GraphException if the graph lacks a needed key or has a cycle
     */
    Map<Key, Object> compute(TaskGraph graph, Collection<Key> outputs);

    /**
     * Whether every task runs in this process, so tasks may share objects that are not serialized
     * (a lock, a buffer gathering parts from several tasks). False unless a scheduler says so: one
     * that ships tasks to other processes (Spark) would give each its own copy.
     */
    default boolean runsTasksInThisProcess() {
        return false;
    }

    /**
     * Computes {@code outputs}, handing each to {@code sink} once it is computed, and returns those
     * the sink did not take (see {@link OutputSink#take}). Here after the whole computation; a
     * scheduler that {@link #streamsOutputs streams} them hands each over as its task finishes and
     * drops it once taken and read by every task that reads it.
     */
    default Map<Key, Object> compute(TaskGraph graph, Collection<Key> outputs, OutputSink sink) {
        Map<Key, Object> kept = new LinkedHashMap<>();
        compute(graph, outputs).forEach((key, value) -> {
            if (sink.take(key, value)) {
                kept.put(key, value);
            }
        });
        return kept;
    }

    /**
     * Whether {@link #compute(TaskGraph, Collection, OutputSink)} hands outputs over while the
     * computation runs, so that a caller assembling them should have its result ready before.
     */
    default boolean streamsOutputs() {
        return false;
    }

    /** The value of one key. */
    default Object get(TaskGraph graph, Key output) {
        return compute(graph, List.of(output)).get(output);
    }
}
