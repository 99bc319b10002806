package org.tessera.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.spark.Dependency;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.rdd.RDD;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.blockwise.MapBlocks;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.GraphException;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.graph.schedule.TaskFailedException;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.spark.lowering.StageLowering;
import org.tessera.spark.plan.StagePlan;
import org.tessera.spark.plan.StagePlanner;

import scala.jdk.javaapi.CollectionConverters;

/** The Spark scheduler on embedded Spark, {@code local[2,4]}: two threads, four attempts per task. */
class SparkSchedulerLocalTest {
    private static final TaskFunction INCREMENT = TaskFunction.unary("inc", (Integer value) -> value + 1);
    private static final TaskFunction ADD = TaskFunction.binary("add", (Integer first, Integer second) -> first + second);

    @Test
    void handWrittenGraphGivesTheReferenceResult() {
        TaskGraph graph = TaskGraph.builder()
                .put("x", 1)
                .put("y", Task.call(INCREMENT, Key.of("x")))
                .put("z", Task.call(ADD, Key.of("y"), 10))
                .put("unused", Task.call(INCREMENT, Key.of("nothing-reads-this")))
                .build();
        List<Key> outputs = List.of(Key.of("z"), Key.of("y"));
        Map<Key, Object> spark = LocalSpark.scheduler().compute(graph, outputs);
        assertEquals(new SynchronousScheduler().compute(graph, outputs), spark);
        assertEquals(List.of(Key.of("z"), Key.of("y")), List.copyOf(spark.keySet()), "only the requested keys come back, in order");
        assertEquals(12, spark.get(Key.of("z")));
    }

    @Nested
    class ReducedWorkloadsEqualTheThreadedScheduler {
        @Test
        void transposeMean() {
            ArrayAssertions.assertSameArray(ReducedWorkloads.transposeMean(new ThreadedScheduler()), ReducedWorkloads.transposeMean(LocalSpark.scheduler()));
        }

        @Test
        void gram() {
            ArrayAssertions.assertSameArray(ReducedWorkloads.gram(new ThreadedScheduler()), ReducedWorkloads.gram(LocalSpark.scheduler()));
        }

        @Test
        void rechunkSum() {
            ArrayAssertions.assertSameArray(ReducedWorkloads.rechunkSum(new ThreadedScheduler()), ReducedWorkloads.rechunkSum(LocalSpark.scheduler()));
        }
    }

    @Nested
    class Partitioning {
        private static final TaskFunction SOURCE = TaskFunction.named("source", arguments -> 1);
        private static final TaskFunction SUM = TaskFunction.named("sum", arguments -> arguments.stream().mapToInt(value -> (Integer) value).sum());

        /** x(i, j) sources; y(i, j) reads x(i, j) or x(j, i); z(i, j) reads y(i, j) and x(i, j). */
        private static TaskGraph grid(boolean transposed) {
            TaskGraph.Builder graph = TaskGraph.builder();
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    graph.put(Key.of("x", i, j), Task.call(SOURCE));
                    graph.put(Key.of("y", i, j), Task.call(SUM, transposed ? Key.of("x", j, i) : Key.of("x", i, j), i * 3 + j));
                    graph.put(Key.of("z", i, j), Task.call(SUM, Key.of("y", i, j), Key.of("x", i, j)));
                }
            }
            return graph.build();
        }

        private static List<Key> zKeys() {
            List<Key> keys = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    keys.add(Key.of("z", i, j));
                }
            }
            return keys;
        }

        private static boolean shuffles(RDD<?> rdd) {
            for (Dependency<?> dependency : CollectionConverters.asJava(rdd.dependencies())) {
                if (dependency instanceof ShuffleDependency<?, ?, ?> || shuffles(dependency.rdd())) {
                    return true;
                }
            }
            return false;
        }

        private static RDD<?> lowered(TaskGraph graph) {
            StagePlan plan = StagePlanner.plan(graph, zKeys(), Map.of(), 100);
            return StageLowering.lower(LocalSpark.scheduler().context(), plan, dataset -> null).outputs().rdd();
        }

        @Test
        void layersOnTheSameBlockGridAreCoPartitionedWithoutShuffle() {
            assertFalse(shuffles(lowered(grid(false))), "an elementwise chain must not shuffle");
            Map<Key, Object> results = LocalSpark.scheduler().compute(grid(false), zKeys());
            assertEquals(1 + 1 + 5, results.get(Key.of("z", 1, 2)));
        }

        @Test
        void transposedReadShufflesAndStillGivesTheReferenceResult() {
            assertTrue(shuffles(lowered(grid(true))), "a transposed read must move blocks");
            assertEquals(new SynchronousScheduler().compute(grid(true), zKeys()), LocalSpark.scheduler().compute(grid(true), zKeys()));
        }
    }

    @Nested
    class Failures {
        @Test
        void taskThatAlwaysFailsIsNamedByItsKey() {
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
            TaskFailedException failure = assertThrows(TaskFailedException.class, () -> LocalSpark.scheduler().compute(graph.build(), List.of(Key.of("total"))));
            assertEquals(Key.of("fragile", 1), failure.key());
            assertTrue(failure.getMessage().contains("('fragile', 1) (explode)"), failure.getMessage());
            assertInstanceOf(IllegalStateException.class, failure.getCause());
            assertEquals("block 1 is broken", failure.getCause().getMessage());
        }

        @Test
        void taskThatFailsOnceSucceedsOnSparksRetry(@TempDir Path directory) {
            String marker = directory.resolve("failed-once").toString();
            TaskFunction flaky = TaskFunction.named("flaky", arguments -> {
                Path file = Path.of(marker);
                if (!Files.exists(file)) {
                    Files.createFile(file);
                    throw new IOException("first attempt fails");
                }
                return 42;
            });
            TaskGraph graph = TaskGraph.builder().put("answer", Task.call(flaky)).build();
            assertEquals(42, LocalSpark.scheduler().get(graph, Key.of("answer")));
            assertTrue(Files.exists(Path.of(marker)), "the first attempt ran and failed");
        }
    }

    /** Counts block computations: local mode runs tasks in this JVM. */
    static final AtomicInteger COMPUTED_BLOCKS = new AtomicInteger();

    @Test
    void persistedArrayStaysInSparkStorageAndIsNotComputedAgain() {
        SparkScheduler spark = LocalSpark.scheduler();
        ChunkedArray x = Creation.random(5, Creation.Distribution.UNIFORM, new long[] {40, 30}, ChunkSpec.of(10, 10));
        ChunkedArray counted = MapBlocks.of(blocks -> {
            COMPUTED_BLOCKS.incrementAndGet();
            return blocks[0];
        }, x).build();
        COMPUTED_BLOCKS.set(0);
        ChunkedArray persisted = counted.persist(spark.persisting());
        assertEquals(12, COMPUTED_BLOCKS.get(), "each block computed once by persist");
        assertTrue(spark.context().sc().getPersistentRDDs().values().exists(rdd -> rdd.name().startsWith("tessera persisted")),
                "the blocks are held in Spark storage");

        NDArray sum = persisted.sum().compute(spark);
        NDArray doubled = persisted.add(persisted).compute(spark);
        assertEquals(12, COMPUTED_BLOCKS.get(), "later computations read the stored blocks");
        ArrayAssertions.assertSameArray(x.sum().compute(new ThreadedScheduler()), sum);
        ArrayAssertions.assertSameArray(x.add(x).compute(new ThreadedScheduler()), doubled);

        spark.unpersistAll();
        GraphException gone = assertThrows(GraphException.class, () -> persisted.sum().compute(spark));
        assertTrue(gone.getMessage().contains("unpersisted"), gone.getMessage());
    }
}
