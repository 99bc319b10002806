package org.tessera.graph.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.tessera.graph.Task.call;
import static org.tessera.graph.Task.ref;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;
import org.tessera.graph.Key;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;

/**
 * Outputs handed to a sink: those it takes are not returned, those it leaves are, an output that
 * another task reads still reaches it after the sink took it, and a sink that throws fails the
 * output's task. The same on a scheduler that streams them and on one that hands them over at the end.
 */
class OutputSinkTest {
    private static final TaskFunction DOUBLE = TaskFunction.unary("double", (Long value) -> 2 * value);

    /** a and b are outputs, b reads a; the sink takes keys named "a" and leaves the others. */
    private static final TaskGraph GRAPH = TaskGraph.builder()
            .put("x", 3L)
            .put("a", call(DOUBLE, ref("x")))
            .put("b", call(DOUBLE, ref("a")))
            .put("c", call(DOUBLE, ref("b")))
            .build();

    private static void takesWhatItKeeps(Scheduler scheduler) {
        Map<Key, Object> taken = new ConcurrentHashMap<>();
        Map<Key, Object> returned = scheduler.compute(GRAPH, List.of(Key.of("a"), Key.of("b"), Key.of("c")), (key, value) -> {
            taken.put(key, value);
            return !key.name().equals("a");
        });
        assertEquals(Map.of(Key.of("a"), 6L, Key.of("b"), 12L, Key.of("c"), 24L), taken);
        assertEquals(Map.of(Key.of("b"), 12L, Key.of("c"), 24L), returned, "a was taken; b read it all the same");
    }

    @Test
    void theThreadedSchedulerReturnsWhatTheSinkLeaves() {
        ThreadedScheduler scheduler = ThreadedScheduler.builder().workers(2).build();
        assertEquals(true, scheduler.streamsOutputs());
        takesWhatItKeeps(scheduler);
    }

    @Test
    void aSchedulerThatDoesNotStreamHandsThemOverAtTheEnd() {
        SynchronousScheduler scheduler = new SynchronousScheduler();
        assertEquals(false, scheduler.streamsOutputs());
        takesWhatItKeeps(scheduler);
    }

    @Test
    void aSinkThatThrowsFailsTheOutputsTask() {
        TaskFailedException failed = assertThrows(TaskFailedException.class,
                () -> ThreadedScheduler.builder().workers(2).build().compute(GRAPH, List.of(Key.of("c")), (key, value) -> {
                    throw new IllegalStateException("no room for " + key);
                }));
        assertEquals(Key.of("c"), failed.key());
        assertEquals("no room for c", failed.getCause().getMessage());
    }
}
