package org.tessera.graph.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.graph.schedule.Computation;
import org.tessera.graph.schedule.MeasuredPeak;
import org.tessera.graph.schedule.OutputSink;
import org.tessera.graph.schedule.ThreadedScheduler;

/**
 * The projection against hand-counted figures, and against what the threaded scheduler measures
 * when each task allocates what its layer declares.
 */
class MemoryProjectionTest {
    private static final long BLOCK = 1000;
    /** What SizeOf counts for a byte array beside its bytes. */
    private static final long HEADER = 16;

    /** A task that allocates {@code bytes} (through the test meter) and returns a value of that size. */
    private static TaskFunction allocating(long bytes) {
        return TaskFunction.named("allocate-" + bytes, arguments -> {
            CountingMeter.allocate(bytes);
            return new byte[(int) bytes];
        });
    }

    /** {@code blocks} leaves of BLOCK bytes, each read by one task of a second layer, summed by one last task. */
    private static HighLevelGraph tree(int blocks) {
        Map<Key, Task> leaves = new LinkedHashMap<>();
        Map<Key, Task> doubled = new LinkedHashMap<>();
        for (int block = 0; block < blocks; block++) {
            leaves.put(Key.of("leaf", block), Task.call(allocating(BLOCK)));
            doubled.put(Key.of("twice", block), Task.call(allocating(2 * BLOCK), Task.ref(Key.of("leaf", block))));
        }
        List<Key> all = List.copyOf(doubled.keySet());
        Map<Key, Task> total = Map.of(Key.of("total"), Task.call(allocating(8), all));
        return HighLevelGraph.empty()
                .with(new MaterializedLayer("leaf", leaves), Set.of())
                .with(new MaterializedLayer("twice", doubled), Set.of("leaf"))
                .with(new MaterializedLayer("total", total), Set.of("twice"))
                .withFootprint("leaf", Footprint.uniform(BLOCK + HEADER, 0))
                .withFootprint("twice", Footprint.uniform(2 * BLOCK + HEADER, 0))
                .withFootprint("total", Footprint.uniform(8 + HEADER, 0));
    }

    @Test
    void aChainFusedIntoOneTaskIsProjectedWithEverythingItComputes() {
        MemoryProjection projection = MemoryProjection.of(tree(1), List.of(Key.of("total")), 1);
        // Linear fusion folds leaf and twice into total's task: it allocates all three.
        assertEquals(1, projection.tasks());
        assertEquals(3 * (BLOCK + HEADER) + 8, projection.largestTaskBytes());
        assertEquals(3 * (BLOCK + HEADER) + 8, projection.peakBytes());
        assertTrue(projection.undeclared().isEmpty());
    }

    @Test
    void theSimulatedPeakHoldsTheResultsTheLastTaskReads() {
        int blocks = 6;
        MemoryProjection projection = MemoryProjection.of(tree(blocks), List.of(Key.of("total")), 1);
        // Every pair (leaf, twice) is fused; the sum's task reads all six results of 2 blocks. The
        // peak comes before it, while the last pair runs beside five results: small tasks run in
        // batches, as the scheduler runs them, so all six pairs run at once.
        assertEquals(blocks + 1, projection.tasks());
        assertEquals(blocks * (2 * BLOCK + HEADER) + 8 + HEADER, projection.largestTaskBytes());
        assertEquals(blocks * (3 * BLOCK + 2 * HEADER), projection.peakBytes());
    }

    @Test
    void theMeasuredPeakStaysWithinTheProjectionOnEveryWorkerCount() {
        for (int workers = 1; workers <= 4; workers++) {
            HighLevelGraph graph = tree(16);
            MemoryProjection projection = MemoryProjection.of(graph, List.of(Key.of("total")), workers);
            Computation run = ThreadedScheduler.builder().workers(workers).build()
                    .run(org.tessera.graph.optimize.Optimization.optimize(graph, List.of(Key.of("total"))), List.of(Key.of("total")));
            long measured = run.statistics().measuredPeakBytes();
            assertTrue(measured > 0 && measured <= projection.peakBytes(),
                    workers + " workers: measured " + measured + ", projected " + projection.peakBytes());
        }
    }

    /**
     * Outputs copied into a result allocated first: on paper the result is held from the start and
     * each output gives back its data once copied (its header stays, as AHEAD_HEADERS asks), so the
     * projection is at least that of the outputs held to the end and short of both together; a run
     * that streams them measures the result too, within the projection.
     */
    @Test
    void streamedOutputsAreHeldAsTheirResultFromTheStart() {
        int blocks = 64;
        HighLevelGraph graph = tree(blocks);
        List<Key> outputs = java.util.stream.IntStream.range(0, blocks).mapToObj(block -> Key.of("twice", block)).toList();
        long resultBytes = blocks * 2 * BLOCK;
        for (int workers = 1; workers <= 2; workers++) {
            long held = MemoryProjection.of(graph, outputs, workers).peakBytes();
            long streamed = MemoryProjection.of(graph, outputs, workers, new StreamedOutputs(Set.copyOf(outputs), resultBytes)).peakBytes();
            assertTrue(held <= streamed && streamed < held + resultBytes, workers + " workers: held to the end " + held + ", streamed " + streamed);

            MeasuredPeak measured = new MeasuredPeak();
            OutputSink copies = new OutputSink() {
                @Override
                public boolean take(Key output, Object value) {
                    return false;
                }

                @Override
                public long heldBytes() {
                    return resultBytes;
                }
            };
            ThreadedScheduler.builder().workers(workers).callback(measured).build()
                    .compute(org.tessera.graph.optimize.Optimization.optimize(graph, outputs), outputs, copies);
            assertTrue(measured.bytes() >= resultBytes && measured.bytes() <= streamed,
                    workers + " workers: measured " + measured.bytes() + ", the result " + resultBytes + ", projected " + streamed);
        }
    }

    @Test
    void aLayerWithoutAFootprintIsNamedUndeclared() {
        HighLevelGraph graph = tree(2);
        HighLevelGraph bare = HighLevelGraph.empty().with(graph.layer("leaf"), Set.of()).with(graph.layer("twice"), Set.of("leaf"))
                .with(graph.layer("total"), Set.of("twice")).withFootprint("leaf", Footprint.uniform(BLOCK, 0));
        MemoryProjection projection = MemoryProjection.of(bare, List.of(Key.of("total")), 1);
        assertEquals(Set.of("twice", "total"), projection.undeclared());
    }
}
