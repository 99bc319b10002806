package org.tessera.graph.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.graph.Task.call;
import static org.tessera.graph.Task.ref;
import static org.tessera.graph.layer.BlockwiseArgument.blockIndex;
import static org.tessera.graph.layer.BlockwiseArgument.blocks;
import static org.tessera.graph.layer.BlockwiseArgument.constant;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.tessera.graph.Key;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.schedule.SynchronousScheduler;

class OptimizationTest {
    static final TaskFunction LOAD = TaskFunction.unary("load", (Integer block) -> (long) block * block);
    static final TaskFunction INC = TaskFunction.unary("inc", (Long value) -> value + 1);
    static final TaskFunction DOUBLE = TaskFunction.unary("double", (Long value) -> 2 * value);
    static final TaskFunction SUM = TaskFunction.unary("sum", (List<Long> values) -> values.stream().mapToLong(Long::longValue).sum());
    static final TaskFunction MINUS = TaskFunction.binary("minus", (Long left, Long right) -> left - right);
    static final TaskFunction GETTER = TaskFunction.cheap("getter", arguments -> arguments.get(0));

    /** load -> inc -> double per block, then one sum: 3 N + 1 tasks. */
    static TaskGraph chains(int blocks) {
        TaskGraph.Builder builder = TaskGraph.builder();
        List<Key> ends = new ArrayList<>();
        for (int block = 0; block < blocks; block++) {
            builder.put(Key.of("load", block), call(LOAD, block));
            builder.put(Key.of("inc", block), call(INC, ref("load", block)));
            builder.put(Key.of("double", block), call(DOUBLE, ref("inc", block)));
            ends.add(Key.of("double", block));
        }
        return builder.put("total", call(SUM, ends)).build();
    }

    static Object run(TaskGraph graph, Key output) {
        return new SynchronousScheduler().get(graph, output);
    }

    @Test
    void cullKeepsWhatTheOutputsNeed() {
        TaskGraph graph = chains(10).with(Map.of(Key.of("other"), call(INC, ref("load", 3))));
        TaskGraph culled = Cull.cull(graph, List.of(Key.of("double", 4)));
        assertEquals(Set.of(Key.of("load", 4), Key.of("inc", 4), Key.of("double", 4)), culled.keys());
        assertEquals(run(graph, Key.of("double", 4)), run(culled, Key.of("double", 4)));
        assertEquals(31, Cull.cull(graph, List.of(Key.of("total"))).size());
    }

    @Test
    void linearChainsFuseIntoOneTaskPerBlock() {
        TaskGraph graph = chains(10);
        TaskGraph fused = LinearFusion.fuse(graph, List.of(Key.of("total")));
        assertEquals(31, graph.size());
        assertEquals(11, fused.size());
        assertTrue(fused.contains(Key.of("double", 3)) && !fused.contains(Key.of("load", 3)));
        assertEquals(run(graph, Key.of("total")), run(fused, Key.of("total")));
        // A kept key stays a key; so does a key with two readers.
        TaskGraph keepingInc = LinearFusion.fuse(graph, List.of(Key.of("total"), Key.of("inc", 0)));
        assertTrue(keepingInc.contains(Key.of("inc", 0)));
        TaskGraph shared = graph.with(Map.of(Key.of("twice"), call(MINUS, ref("inc", 1), ref("inc", 1))));
        TaskGraph sharedFused = LinearFusion.fuse(shared, List.of(Key.of("total"), Key.of("twice")));
        assertTrue(sharedFused.contains(Key.of("inc", 1)));
        assertEquals(0L, run(sharedFused, Key.of("twice")));
    }

    @Test
    void cheapTasksAreInlinedIntoTheirReaders() {
        TaskGraph graph = TaskGraph.builder()
                .put("data", List.of(5L, 7L))
                .put("first", call(GETTER, ref("data")))
                .put("alias", ref("first"))
                .put("a", call(SUM, ref("alias")))
                .put("b", call(SUM, ref("first")))
                .put("out", call(MINUS, ref("a"), ref("b")))
                .build();
        TaskGraph inlined = Inlining.inline(graph, List.of(Key.of("out")));
        assertEquals(Set.of(Key.of("a"), Key.of("b"), Key.of("out")), inlined.keys());
        assertEquals(run(graph, Key.of("out")), run(inlined, Key.of("out")));
        assertEquals(12L, run(inlined, Key.of("a")));
    }

    @Test
    void aCheapFunctionOverAnExpensiveNestedCallIsNotCopiedIntoEachReader() {
        java.util.concurrent.atomic.AtomicInteger loads = new java.util.concurrent.atomic.AtomicInteger();
        TaskFunction load = TaskFunction.unary("load", (Long seed) -> {
            loads.incrementAndGet();
            return List.of(seed, seed + 1);
        });
        // What linear fusion makes of load -> getter: the getter is cheap, the load it calls is not.
        TaskGraph graph = TaskGraph.builder()
                .put("first", call(GETTER, call(load, 5L)))
                .put("a", call(SUM, ref("first")))
                .put("b", call(SUM, ref("first")))
                .put("out", call(MINUS, ref("a"), ref("b")))
                .build();
        TaskGraph inlined = Inlining.inline(graph, List.of(Key.of("out")));
        assertTrue(inlined.contains(Key.of("first")), "the nested load stays one task that both readers read");
        assertEquals(0L, run(inlined, Key.of("out")));
        assertEquals(1, loads.get(), "the load ran once");
    }

    @Test
    void consecutiveBlockwiseLayersFuseIntoOne() {
        Map<Character, Integer> counts = Map.of('i', 4, 'j', 3);
        TaskFunction make = TaskFunction.unary("make", (int[] index) -> 10L * index[0] + index[1]);
        TaskFunction plus = TaskFunction.binary("plus", (Long left, Long right) -> left + right);
        HighLevelGraph graph = HighLevelGraph.empty()
                .with(BlockwiseLayer.of("x", "ij", make, counts, blockIndex("ij")), Set.of())
                .with(BlockwiseLayer.of("y", "ij", plus, counts, blocks("x", "ij", 4, 3), constant(1L)), Set.of("x"))
                .with(BlockwiseLayer.of("z", "ij", DOUBLE, counts, blocks("y", "ij", 4, 3)), Set.of("y"))
                // w reads z transposed: w[j, i] = z[i, j] - x2[j, i]
                .with(BlockwiseLayer.of("x2", "ji", make, Map.of('j', 3, 'i', 4), blockIndex("ji")), Set.of())
                .with(BlockwiseLayer.of("w", "ji", MINUS, Map.of('j', 3, 'i', 4), blocks("z", "ij", 4, 3), blocks("x2", "ji", 3, 4)), Set.of("z", "x2"));
        HighLevelGraph fused = BlockwiseFusion.fuse(graph, List.of("w"));
        assertEquals(60, graph.taskCount());
        assertEquals(12, fused.taskCount());
        assertEquals(Set.of("w"), fused.layers().keySet());
        TaskGraph before = graph.materialize();
        TaskGraph after = fused.materialize();
        for (Key key : before.keys()) {
            if (key.name().equals("w")) {
                assertEquals(run(before, key), run(after, key), key.toString());
            }
        }
        // w(2, 3) = 2 * (x(3, 2) + 1) - x2(2, 3) = 2 * 33 - 23
        assertEquals(43L, run(after, Key.of("w", 2, 3)));
        // The whole pipeline: cull, fuse layers, build tasks, fuse chains, inline.
        List<Key> some = List.of(Key.of("w", 2, 3), Key.of("w", 0, 1));
        TaskGraph optimized = Optimization.optimize(graph, some);
        assertEquals(2, optimized.size());
        assertEquals(new SynchronousScheduler().compute(before, some), new SynchronousScheduler().compute(optimized, some));

        // A requested layer stays: x fuses into y, and z, x2 into w.
        assertEquals(Set.of("y", "w"), BlockwiseFusion.fuse(graph, List.of("w", "y")).layers().keySet());
        // So does a layer that two layers read.
        HighLevelGraph twoReaders = graph.with(BlockwiseLayer.of("v", "ij", DOUBLE, counts, blocks("y", "ij", 4, 3)), Set.of("y"));
        assertTrue(BlockwiseFusion.fuse(twoReaders, List.of("w", "v")).layers().containsKey("y"));
    }

    /** x + x.T: the reader gets a copy of x for each of its two reads, so no block of x is held between tasks. */
    @Test
    void aProducerReadTwiceByOneReaderIsFusedAtEachRead() {
        Map<Character, Integer> counts = Map.of('i', 3, 'j', 3);
        TaskFunction make = TaskFunction.unary("make", (int[] index) -> 10L * index[0] + index[1]);
        TaskFunction plus = TaskFunction.binary("plus", (Long left, Long right) -> left + right);
        HighLevelGraph graph = HighLevelGraph.empty()
                .with(BlockwiseLayer.of("x", "ij", make, counts, blockIndex("ij")), Set.of())
                .with(BlockwiseLayer.of("s", "ij", plus, counts, blocks("x", "ij", 3, 3), blocks("x", "ji", 3, 3)), Set.of("x"));
        HighLevelGraph fused = BlockwiseFusion.fuse(graph, List.of("s"));
        assertEquals(Set.of("s"), fused.layers().keySet());
        assertEquals(9, fused.taskCount());
        // s(1, 2) = x(1, 2) + x(2, 1) = 12 + 21
        assertEquals(33L, run(fused.materialize(), Key.of("s", 1, 2)));
        TaskGraph before = graph.materialize();
        TaskGraph after = fused.materialize();
        for (Key key : after.keys()) {
            assertEquals(run(before, key), run(after, key), key.toString());
        }
    }

    /**
     * A.T @ A with A in row blocks: the partial product k reads block (k, 0) of A twice, once
     * transposed; both reads name the same block, so it is made once and both get the same object.
     */
    @Test
    void readsOfTheSameBlockShareOneCopy() {
        Map<Character, Integer> counts = Map.of('k', 4, 'i', 1, 'j', 1);
        java.util.concurrent.atomic.AtomicInteger made = new java.util.concurrent.atomic.AtomicInteger();
        TaskFunction make = TaskFunction.unary("make", (int[] index) -> {
            made.incrementAndGet();
            return new long[] {index[0]};
        });
        TaskFunction same = TaskFunction.binary("same", (long[] left, long[] right) -> left == right ? left[0] : -1L);
        HighLevelGraph graph = HighLevelGraph.empty()
                .with(BlockwiseLayer.of("a", "ki", make, Map.of('k', 4, 'i', 1), blockIndex("ki")), Set.of())
                .with(BlockwiseLayer.of("p", "kij", same, counts, blocks("a", "ki", 4, 1), blocks("a", "kj", 4, 1)), Set.of("a"));
        HighLevelGraph fused = BlockwiseFusion.fuse(graph, List.of("p"));
        assertEquals(Set.of("p"), fused.layers().keySet());
        for (int k = 0; k < 4; k++) {
            assertEquals((long) k, run(fused.materialize(), Key.of("p", k, 0, 0)), "block " + k + " given once, to both reads");
        }
        assertEquals(4, made.get(), "each block of a made once");
    }
}
