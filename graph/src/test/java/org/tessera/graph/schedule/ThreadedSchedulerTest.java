package org.tessera.graph.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.graph.Task.call;
import static org.tessera.graph.Task.ref;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.graph.Key;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.memory.MemoryBudget;

class ThreadedSchedulerTest {
    static final TaskFunction INC = TaskFunction.unary("inc", (Long value) -> value + 1);
    static final TaskFunction BOOM = TaskFunction.unary("boom", (Long value) -> {
        throw new IllegalStateException("block " + value + " is corrupt");
    });

    @Test
    void agreesWithTheSynchronousReferenceOnRandomGraphs() {
        ThreadedScheduler threaded = ThreadedScheduler.builder().workers(4).build();
        SynchronousScheduler reference = new SynchronousScheduler();
        for (long seed = 0; seed < 20; seed++) {
            TaskGraph graph = SchedulerFixtures.randomDag(seed, 300);
            List<Key> outputs = List.of(Key.of("k", 299), Key.of("k", 150), Key.of("k", 7));
            assertEquals(reference.compute(graph, outputs), threaded.compute(graph, outputs), "seed " + seed);
        }
    }

    @Test
    void aFailingTaskIsNamedAndItsExceptionKept() {
        TaskGraph graph = TaskGraph.builder()
                .put("x", 1L)
                .put("bad", call(BOOM, ref("x")))
                .put("out", call(INC, ref("bad")))
                .build();
        TaskFailedException failure = assertThrows(TaskFailedException.class, () -> new ThreadedScheduler().get(graph, Key.of("out")));
        assertEquals(Key.of("bad"), failure.key());
        assertInstanceOf(IllegalStateException.class, failure.getCause());
        assertTrue(failure.getMessage().contains("bad") && failure.getMessage().contains("boom") && failure.getMessage().contains("block 1 is corrupt"),
                failure.getMessage());
        TaskFailedException reference = assertThrows(TaskFailedException.class, () -> new SynchronousScheduler().get(graph, Key.of("out")));
        assertEquals(Key.of("bad"), reference.key());
    }

    @Test
    void cyclesAndMissingKeysAreNamedBeforeAnythingRuns() {
        TaskGraph cyclic = TaskGraph.builder().put("a", call(INC, ref("c"))).put("b", call(INC, ref("a"))).put("c", call(INC, ref("b")))
                .put("out", call(INC, ref("c"))).build();
        org.tessera.graph.GraphException cycle = assertThrows(org.tessera.graph.GraphException.class, () -> new ThreadedScheduler().get(cyclic, Key.of("out")));
        assertEquals(Set.of(Key.of("a"), Key.of("b"), Key.of("c")), Set.copyOf(cycle.keys()));
        TaskGraph missing = TaskGraph.builder().put("out", call(INC, ref("gone"))).build();
        org.tessera.graph.GraphException absent = assertThrows(org.tessera.graph.GraphException.class, () -> new ThreadedScheduler().get(missing, Key.of("out")));
        assertEquals(List.of(Key.of("gone")), absent.keys());
        assertTrue(absent.getMessage().contains("gone (read by out)"), absent.getMessage());
        assertThrows(org.tessera.graph.GraphException.class, () -> new ThreadedScheduler().get(missing, Key.of("nothing")));
    }

    @Test
    void aThousandFailingComputationsLeaveNoThreadsOrFiles(@TempDir Path spillRoot) throws IOException {
        ThreadedScheduler scheduler = ThreadedScheduler.builder().workers(4).memoryBudget(MemoryBudget.ofBytes(1)).spillDirectory(spillRoot).build();
        TaskGraph.Builder builder = TaskGraph.builder();
        List<Key> outputs = new ArrayList<>();
        for (int block = 0; block < 20; block++) {
            builder.put(Key.of("x", block), (long) block);
            builder.put(Key.of("y", block), call(block == 13 ? BOOM : INC, ref("x", block)));
            outputs.add(Key.of("y", block));
        }
        TaskGraph graph = builder.build();
        int threadsBefore = workerThreads();
        for (int run = 0; run < 1000; run++) {
            TaskFailedException failure = assertThrows(TaskFailedException.class, () -> scheduler.compute(graph, outputs));
            assertEquals(Key.of("y", 13), failure.key());
        }
        assertEquals(threadsBefore, workerThreads());
        try (Stream<Path> left = Files.list(spillRoot)) {
            assertEquals(List.of(), left.toList());
        }
    }

    @Test
    void tasksMayComputeGraphsThemselves() {
        ThreadedScheduler scheduler = ThreadedScheduler.builder().workers(2).build();
        TaskFunction inner = TaskFunction.unary("inner", (Long base) -> {
            TaskGraph nested = SchedulerFixtures.treeSum(50, 4);
            return base + (Long) scheduler.get(nested, Key.of("total"));
        });
        TaskGraph.Builder builder = TaskGraph.builder();
        List<Key> outputs = new ArrayList<>();
        for (int block = 0; block < 8; block++) {
            builder.put(Key.of("outer", block), call(inner, (long) block));
            outputs.add(Key.of("outer", block));
        }
        Map<Key, Object> values = scheduler.compute(builder.build(), outputs);
        for (int block = 0; block < 8; block++) {
            assertEquals(block + 1225L, values.get(Key.of("outer", block)));
        }
    }

    @Test
    void anInterruptCancelsTheComputation() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        TaskFunction slow = TaskFunction.unary("slow", (Long value) -> {
            running.countDown();
            Thread.sleep(60_000);
            return value;
        });
        TaskGraph graph = TaskGraph.builder().put("x", 1L).put("slow", call(slow, ref("x"))).build();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread caller = Thread.ofPlatform().start(() -> {
            try {
                new ThreadedScheduler().get(graph, Key.of("slow"));
            } catch (Throwable any) {
                thrown.set(any);
            }
        });
        running.await();
        long start = System.nanoTime();
        caller.interrupt();
        caller.join(10_000);
        assertTrue(!caller.isAlive() && System.nanoTime() - start < 10_000_000_000L, "the interrupt did not end the computation");
        assertInstanceOf(CancellationException.class, thrown.get());
    }

    @Test
    void theOrderingKeepsFewPartialSumsAlive() {
        // 4096 leaves, fan-in 8: depth 4. Holding all leaves would be 4096 results.
        TaskGraph graph = SchedulerFixtures.treeSum(4096, 8);
        for (int workers : new int[] {1, 2, 4}) {
            Computation computation = ThreadedScheduler.builder().workers(workers).build().run(graph, List.of(Key.of("total")));
            assertEquals(4096L * 4095 / 2, computation.results().get(Key.of("total")));
            int peak = computation.statistics().peakLiveResults();
            assertTrue(peak <= frontLimit(workers, 1), workers + " workers held " + peak + " results at once");
        }
    }

    /**
     * Two reductions of the same leaves requested together (a mean and a std of one array): each leaf
     * must feed both as soon as it exists, not wait in memory until the walk reaches the second tree.
     */
    @Test
    void leavesReadByTwoReductionsAreNotHeldForTheSecond() {
        int leaves = 1024;
        TaskGraph.Builder builder = TaskGraph.builder();
        List<Key> outputs = new ArrayList<>();
        for (String tree : List.of("first", "second")) {
            List<Key> level = new ArrayList<>();
            for (int block = 0; block < leaves; block++) {
                Key chunk = Key.of(tree + "-chunk", block);
                builder.put(chunk, call(SchedulerFixtures.SUM, List.of(ref("leaf", block))));
                level.add(chunk);
            }
            for (int depth = 1; level.size() > 1; depth++) {
                List<Key> next = new ArrayList<>();
                for (int start = 0; start < level.size(); start += 8) {
                    Key key = Key.of(tree + "-" + depth, next.size());
                    builder.put(key, call(SchedulerFixtures.SUM, level.subList(start, Math.min(level.size(), start + 8))));
                    next.add(key);
                }
                level = next;
            }
            outputs.add(level.getFirst());
        }
        for (int block = 0; block < leaves; block++) {
            builder.put(Key.of("leaf", block), call(SchedulerFixtures.LEAF, block));
        }
        Computation computation = ThreadedScheduler.builder().workers(2).build().run(builder.build(), outputs);
        assertEquals((long) leaves * (leaves - 1) / 2, computation.results().get(outputs.get(1)));
        int peak = computation.statistics().peakLiveResults();
        // Holding the leaves for the second tree would be over 1024.
        assertTrue(peak <= frontLimit(2, 2), "held " + peak + " results at once for " + leaves + " leaves");
    }

    /**
     * The most results that trees of depth 4 and fan-in 8 may hold at once: per worker, a fan-in per
     * level of each tree plus a batch of up to 8 tiny tasks. On a machine with fewer cores than busy
     * workers, a preempted worker's unfinished batch pins the siblings along its path while the others
     * walk on, which can double that (seen: 95 results for 2 workers on one tree, on 2 loaded cores).
     * Still O(workers x depth), far from the number of leaves.
     */
    private static int frontLimit(int workers, int trees) {
        return workers * 2 * (trees * 4 * 8 + 8);
    }

    @Test
    void callbacksSeeEveryTask() {
        Profiler profiler = new Profiler();
        List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
        Callback recorder = new Callback() {
            @Override
            public void start(TaskGraph graph) {
                events.add("start " + graph.size());
            }

            @Override
            public void finish(boolean succeeded) {
                events.add("finish " + succeeded);
            }
        };
        TaskGraph graph = SchedulerFixtures.treeSum(100, 10);
        ThreadedScheduler.builder().workers(3).callback(profiler).callback(recorder).build().get(graph, Key.of("total"));
        assertEquals(List.of("start 111", "finish true"), events);
        assertEquals(111, profiler.records().size());
        assertEquals(graph.keys(), profiler.records().stream().map(Profiler.TaskRecord::key).collect(java.util.stream.Collectors.toSet()));
        Profiler.TaskRecord total = profiler.records().stream().filter(record -> record.key().equals(Key.of("total"))).findFirst().orElseThrow();
        assertEquals("sum", total.label());
        assertTrue(profiler.records().stream().allMatch(record -> record.endNanos() >= record.startNanos() && record.thread().startsWith("tessera-worker-")));
    }

    private static int workerThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream().filter(thread -> thread.getName().startsWith("tessera-worker-")).count();
    }
}
