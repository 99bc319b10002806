package org.tessera.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.dashboard.Dashboard;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.schedule.TaskFailedException;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.spark.events.SparkTaskFailure;

/** Tessera's task events from the Spark scheduler, on embedded Spark ({@code local[2,4]}). */
class SparkSchedulerCallbackTest {
    private static final List<String> LOCAL_WORKERS = List.of("executor driver slot 0", "executor driver slot 1");

    @Test
    void everyTaskOfAMatrixProductStartsAndEndsOnceOnASlotOfTheLocalExecutor() {
        RecordingCallback recorder = new RecordingCallback();
        ArrayAssertions.assertSameArray(ReducedWorkloads.gram(new ThreadedScheduler()),
                ReducedWorkloads.gram(LocalSpark.scheduler().withCallback(recorder)));
        assertEquals(LOCAL_WORKERS, recorder.workers());
        recorder.assertEveryTaskRanOnce(true);
        recorder.tasks().values().forEach(task -> assertNull(task.failure(), () -> task + " failed"));
    }

    @Test
    void theDashboardShowsASparkComputationByExecutorSlot() {
        try (Dashboard dashboard = Dashboard.open(0)) {
            ReducedWorkloads.gram(LocalSpark.scheduler().withCallback(dashboard));
            String state = dashboard.stateJson();
            assertTrue(state.contains("\"state\":\"finished\",\"computations\":1,"), state);
            java.util.regex.Matcher counts = java.util.regex.Pattern.compile("\"total\":(\\d+),\"done\":(\\d+),\"failed\":0").matcher(state);
            assertTrue(counts.find() && Integer.parseInt(counts.group(1)) > 0, state);
            assertEquals(counts.group(1), counts.group(2), "every task of the plan done");
            assertTrue(state.contains("\"workers\":[\"executor driver slot 0\",\"executor driver slot 1\"]"), state);
        }
    }

    @Test
    void outputsOfSeveralStagesAreMappedThroughTheirUnion() {
        // y and z are both requested: the job's union lays their partitions end to end.
        TaskFunction source = TaskFunction.named("source", arguments -> 1);
        TaskFunction sum = TaskFunction.named("sum", arguments -> arguments.stream().mapToInt(value -> (Integer) value).sum());
        TaskGraph.Builder graph = TaskGraph.builder();
        List<Key> outputs = new ArrayList<>();
        for (int block = 0; block < 6; block++) {
            graph.put(Key.of("x", block), Task.call(source));
            graph.put(Key.of("y", block), Task.call(sum, Key.of("x", block), block));
            graph.put(Key.of("z", block), Task.call(sum, Key.of("y", block), Key.of("x", (block + 1) % 6)));
            outputs.add(Key.of("y", block));
            outputs.add(Key.of("z", block));
        }
        RecordingCallback recorder = new RecordingCallback();
        Map<Key, Object> results = LocalSpark.scheduler().withCallback(recorder).compute(graph.build(), outputs);
        assertEquals(1 + 3 + 1, results.get(Key.of("z", 3)));
        assertEquals(18, recorder.graph().size());
        recorder.assertEveryTaskRanOnce(true);
    }

    @Test
    void persistReportsItsTasksAndALaterComputationOnlyThoseItRuns() {
        SparkScheduler spark = LocalSpark.scheduler();
        ChunkedArray x = Creation.random(7, Creation.Distribution.UNIFORM, new long[] {30, 30}, ChunkSpec.of(10, 10));
        RecordingCallback persisting = new RecordingCallback();
        ChunkedArray persisted = x.persist(spark.withCallback(persisting).persisting());
        persisting.assertEveryTaskRanOnce(true);

        RecordingCallback reading = new RecordingCallback();
        persisted.sum().compute(spark.withCallback(reading));
        reading.assertEveryTaskRanOnce(true);
        Set<Key> stored = persisting.graph().keys();
        assertTrue(reading.tasks().keySet().stream().noneMatch(stored::contains), "blocks read from Spark storage are not computed again");
        spark.unpersistAll();
    }

    @Test
    void aFailingTaskEndsWithItsOwnExceptionAndTheComputationFails() {
        TaskFunction failing = TaskFunction.named("explode", arguments -> {
            if ((Integer) arguments.getFirst() == 1) {
                throw new IllegalStateException("block 1 is broken");
            }
            return arguments.getFirst();
        });
        TaskGraph.Builder graph = TaskGraph.builder();
        for (int block = 0; block < 3; block++) {
            graph.put(Key.of("fragile", block), Task.call(failing, block));
        }
        graph.put(Key.of("total"), Task.call(TaskFunction.named("count", List::size), List.of(Key.of("fragile", 0), Key.of("fragile", 1), Key.of("fragile", 2))));
        RecordingCallback recorder = new RecordingCallback();
        SparkScheduler spark = LocalSpark.scheduler().withCallback(recorder);
        assertThrows(TaskFailedException.class, () -> spark.compute(graph.build(), List.of(Key.of("total"))));

        recorder.assertConsistent(false);
        Throwable failure = recorder.tasks().get(Key.of("fragile", 1)).failure();
        assertInstanceOf(IllegalStateException.class, failure, "the key that threw gets its own exception");
        assertEquals("block 1 is broken", failure.getMessage());
        recorder.tasks().forEach((key, task) -> {
            if (!key.equals(Key.of("fragile", 1)) && task.failure() != null) {
                assertInstanceOf(SparkTaskFailure.class, task.failure(), key + " shared a failed Spark task");
            }
        });
    }

    @Test
    void aTaskRetriedBySparkIsReportedOnceWithItsFirstAttempt(@TempDir Path directory) {
        String marker = directory.resolve("failed-once").toString();
        TaskFunction flaky = TaskFunction.named("flaky", arguments -> {
            Path file = Path.of(marker);
            if (!Files.exists(file)) {
                Files.createFile(file);
                throw new IOException("first attempt fails");
            }
            return 42;
        });
        RecordingCallback recorder = new RecordingCallback();
        assertEquals(42, LocalSpark.scheduler().withCallback(recorder).get(TaskGraph.builder().put("answer", Task.call(flaky)).build(), Key.of("answer")));
        recorder.assertEveryTaskRanOnce(true);
        assertInstanceOf(IOException.class, recorder.tasks().get(Key.of("answer")).failure());
    }

    @Test
    void withCallbackLeavesTheOriginalSchedulerSilent() {
        RecordingCallback recorder = new RecordingCallback();
        SparkScheduler plain = LocalSpark.scheduler();
        SparkScheduler reporting = plain.withCallback(recorder);
        TaskGraph graph = TaskGraph.builder().put("one", 1).build();
        plain.compute(graph, List.of(Key.of("one")));
        assertTrue(recorder.isSilent());
        reporting.withMaxPartitions(1).compute(graph, List.of(Key.of("one")));
        recorder.assertEveryTaskRanOnce(true);
    }
}
