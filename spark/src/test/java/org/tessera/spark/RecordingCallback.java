package org.tessera.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.schedule.Callback;

/**
 * Records a computation's events and checks what every scheduler promises of them. A Spark task
 * reports its keys together, so a worker may run several keys at once, but only those begun
 * together: no key begins on a worker while keys that began before are ending there. Spark calls
 * the events on its listener bus thread, which swallows exceptions, so broken promises are noted
 * and asserted afterwards.
 */
final class RecordingCallback implements Callback {
    private final List<String> events = new ArrayList<>();
    private final Map<Key, Integer> startWorkers = new HashMap<>();
    private final Map<Key, TaskRun> ended = new HashMap<>();
    private final Map<Integer, Set<Key>> runningOn = new HashMap<>();
    private final Set<Integer> ending = new HashSet<>();
    private final List<String> problems = new ArrayList<>();
    private List<String> workers;
    private TaskGraph graph;
    private Boolean succeeded;

    /** One key's events: its worker at start and at end, and how it ended. */
    record TaskRun(int startWorker, int endWorker, Throwable failure) {
    }

    @Override
    public synchronized void configured(List<String> names, MemoryBudget budget) {
        events.add("configured");
        // A view: workers that join later (executors registering with Spark) are added to it.
        workers = names;
        check(budget.isUnlimited(), "the budget is " + budget);
    }

    @Override
    public synchronized void start(TaskGraph scheduled) {
        events.add("start");
        graph = scheduled;
    }

    @Override
    public synchronized void beforeTask(Key key, int worker) {
        events.add("before " + key);
        check(startWorkers.put(key, worker) == null, key + " began twice");
        check(!ending.contains(worker), key + " began on worker " + worker + " while its previous tasks were ending");
        runningOn.computeIfAbsent(worker, unused -> new HashSet<>()).add(key);
    }

    @Override
    public synchronized void afterTask(Key key, int worker, Throwable failure) {
        events.add("after " + key);
        Integer startWorker = startWorkers.get(key);
        check(startWorker != null, key + " ended before it began");
        check(ended.put(key, new TaskRun(startWorker == null ? -1 : startWorker, worker, failure)) == null, key + " ended twice");
        Set<Key> running = runningOn.getOrDefault(worker, new HashSet<>());
        check(running.remove(key), key + " ended on worker " + worker + ", where it did not run");
        if (running.isEmpty()) {
            ending.remove(worker);
        } else {
            ending.add(worker);
        }
    }

    @Override
    public synchronized void finish(boolean success) {
        events.add("finish");
        succeeded = success;
    }

    private void check(boolean kept, String problem) {
        if (!kept) {
            problems.add(problem);
        }
    }

    synchronized List<String> workers() {
        return workers;
    }

    synchronized TaskGraph graph() {
        return graph;
    }

    synchronized boolean isSilent() {
        return events.isEmpty();
    }

    /** The keys that ended, with how. */
    synchronized Map<Key, TaskRun> tasks() {
        return Map.copyOf(ended);
    }

    /**
     * The events came in order (configured, start, tasks, one finish), every key that began ended
     * on its own worker, one of those configured, and the computation ended as {@code success}.
     */
    synchronized void assertConsistent(boolean success) {
        assertEquals(List.of(), problems);
        assertEquals(List.of("configured", "start"), events.subList(0, 2));
        assertEquals("finish", events.getLast());
        assertEquals(1, events.stream().filter("finish"::equals).count());
        assertEquals(success, succeeded);
        assertEquals(startWorkers.keySet(), ended.keySet(), "every task that began ended");
        ended.forEach((key, run) -> {
            assertTrue(graph.contains(key), () -> key + " is not a task of the computation");
            assertEquals(run.startWorker(), run.endWorker(), () -> key + " changed workers");
            assertTrue(run.startWorker() >= 0 && run.startWorker() < workers.size(), () -> key + " ran on unknown worker " + run.startWorker());
        });
    }

    /** {@link #assertConsistent}, and every task of the computation began and ended once. */
    synchronized void assertEveryTaskRanOnce(boolean success) {
        assertConsistent(success);
        assertFalse(graph.keys().isEmpty());
        assertEquals(graph.keys(), ended.keySet(), "every task of the computation began and ended once");
    }
}
