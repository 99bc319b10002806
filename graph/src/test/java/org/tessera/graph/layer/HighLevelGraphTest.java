package org.tessera.graph.layer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.graph.layer.BlockwiseArgument.blockIndex;
import static org.tessera.graph.layer.BlockwiseArgument.blocks;
import static org.tessera.graph.layer.BlockwiseArgument.constant;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.schedule.SynchronousScheduler;

class HighLevelGraphTest {
    /** A block is a long: 100 * row + column of its block index, so results show where they came from. */
    static final TaskFunction MAKE = TaskFunction.unary("make", (int[] index) -> index.length == 1 ? (long) index[0] : 100L * index[0] + index[1]);
    static final TaskFunction PLUS = TaskFunction.binary("plus", (Long left, Long right) -> left + right);
    static final TaskFunction DOT = TaskFunction.binary("dot", (List<Long> row, List<Long> column) -> {
        long total = 0;
        for (int position = 0; position < row.size(); position++) {
            total += row.get(position) * column.get(position);
        }
        return total;
    });

    static HighLevelGraph source(String name, int rows, int columns) {
        BlockwiseLayer layer = BlockwiseLayer.of(name, "ij", MAKE, Map.of('i', rows, 'j', columns), blockIndex("ij"));
        return HighLevelGraph.empty().with(layer, Set.of());
    }

    @Test
    void blockwiseBuildsTheTasksOneWouldWriteByHand() {
        HighLevelGraph x = source("x", 2, 3);
        BlockwiseLayer add = BlockwiseLayer.of("y", "ij", PLUS, Map.of('i', 2, 'j', 3), blocks("x", "ij", 2, 3), constant(1000L));
        HighLevelGraph graph = x.with(add, Set.of("x"));
        assertEquals(12, graph.taskCount());
        assertEquals(new Task.Call(PLUS, List.of(Task.ref("x", 1, 2), Task.literal(1000L))), add.task(Key.of("y", 1, 2)));
        Map<Key, Object> values = new SynchronousScheduler().compute(graph.materialize(), List.of(Key.of("y", 1, 2), Key.of("y", 0, 0)));
        assertEquals(1102L, values.get(Key.of("y", 1, 2)));
        assertEquals(1000L, values.get(Key.of("y", 0, 0)));
    }

    @Test
    void contractedLettersBecomeListsAndSingleBlocksBroadcast() {
        HighLevelGraph graph = HighLevelGraph.merge(source("a", 2, 3), source("b", 3, 2));
        // c[i,k] = sum_j a[i,j] * b[j,k]: the matrix product of the block values.
        BlockwiseLayer product = BlockwiseLayer.of("c", "ik", DOT, Map.of('i', 2, 'j', 3, 'k', 2), blocks("a", "ij", 2, 3), blocks("b", "jk", 3, 2));
        assertEquals("j", product.contractedIndices());
        graph = graph.with(product, Set.of("a", "b"));
        long expected = 100L * 0 + 100 * 1 + 101 * 101 + 102 * 201; // row 1 of a times column 1 of b
        assertEquals(expected, new SynchronousScheduler().get(graph.materialize(), Key.of("c", 1, 1)));
        assertEquals(Set.of(Key.of("a", 1, 0), Key.of("a", 1, 1), Key.of("a", 1, 2), Key.of("b", 0, 1), Key.of("b", 1, 1), Key.of("b", 2, 1)),
                product.inputKeys(Key.of("c", 1, 1)));

        HighLevelGraph row = HighLevelGraph.merge(graph, source("r", 1, 3));
        BlockwiseLayer broadcast = BlockwiseLayer.of("s", "ij", PLUS, Map.of('i', 2, 'j', 3), blocks("a", "ij", 2, 3), blocks("r", "ij", 1, 3));
        assertEquals(new Task.Call(PLUS, List.of(Task.ref("a", 1, 2), Task.ref("r", 0, 2))), broadcast.task(Key.of("s", 1, 2)));
        assertThrows(IllegalArgumentException.class, () -> BlockwiseLayer.of("bad", "ij", PLUS, Map.of('i', 2, 'j', 3), blocks("a", "ij", 2, 2)));
        assertTrue(row.layers().containsKey("r"));
    }

    @Test
    void aMillionBlocksAreBuiltAndCulledWithoutAMillionTasks() {
        long before = allocatedBytes();
        HighLevelGraph x = source("x", 1000, 1000);
        HighLevelGraph graph = x.with(BlockwiseLayer.of("y", "ij", PLUS, Map.of('i', 1000, 'j', 1000), blocks("x", "ij", 1000, 1000), constant(1L)), Set.of("x"));
        assertEquals(2_000_000, graph.taskCount());
        HighLevelGraph everything = graph.cull(List.of(Key.of("y", 0, 0), Key.of("y", 999, 999)));
        HighLevelGraph single = graph.cull(List.of(Key.of("y", 5, 5))).cull(List.of(Key.of("y", 5, 5)));
        long allocated = allocatedBytes() - before;
        // A million Task objects with their argument lists and keys would take well over 100 MB.
        assertTrue(allocated < 20_000_000, "building and culling allocated " + allocated + " bytes");
        assertEquals(4, everything.taskCount());
        assertEquals(2, single.taskCount());
        assertFalse(single.layer("y").isMaterialized());
        TaskGraph tasks = single.materialize();
        assertEquals(Set.of(Key.of("x", 5, 5), Key.of("y", 5, 5)), tasks.keys());
        assertEquals(506L, new SynchronousScheduler().get(tasks, Key.of("y", 5, 5)));
    }

    @Test
    void cullingKeepsWholeLayersSymbolicAndDropsUnusedOnes() {
        HighLevelGraph used = source("x", 300, 300).with(BlockwiseLayer.of("y", "ij", PLUS, Map.of('i', 300, 'j', 300),
                blocks("x", "ij", 300, 300), constant(1L)), Set.of("x"));
        HighLevelGraph graph = HighLevelGraph.merge(used, source("unused", 10, 10));
        List<Key> all = new java.util.ArrayList<>();
        graph.layer("y").keys().forEach(all::add);
        HighLevelGraph culled = graph.cull(all);
        assertEquals(Set.of("x", "y"), culled.layers().keySet());
        assertEquals(180_000, culled.taskCount());
        assertThrows(org.tessera.graph.GraphException.class, () -> graph.cull(List.of(Key.of("y", 300, 0))));
    }

    /** A scan chains keys of one layer: culling to its last key must keep the whole chain. */
    @Test
    void cullingFollowsReadsWithinALayer() {
        TaskFunction increment = TaskFunction.unary("increment", (Long value) -> value + 1);
        Map<Key, Task> chain = new java.util.LinkedHashMap<>();
        chain.put(Key.of("carry", 0), Task.literal(0L));
        for (int block = 1; block < 5; block++) {
            chain.put(Key.of("carry", block), Task.call(increment, Task.ref("carry", block - 1)));
        }
        HighLevelGraph graph = HighLevelGraph.empty().with(new MaterializedLayer("carry", chain), Set.of());
        HighLevelGraph culled = graph.cull(List.of(Key.of("carry", 3)));
        assertEquals(4, culled.taskCount());
        assertEquals(3L, new SynchronousScheduler().get(culled.materialize(), Key.of("carry", 3)));
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
