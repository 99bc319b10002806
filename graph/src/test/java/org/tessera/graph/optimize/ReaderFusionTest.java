package org.tessera.graph.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.graph.layer.BlockwiseArgument.blockIndex;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.graph.schedule.ThreadedScheduler;

class ReaderFusionTest {
    static final TaskFunction MAKE = TaskFunction.unary("make", (int[] index) -> 3L * index[0] + 1);
    static final TaskFunction SUM = TaskFunction.unary("sum", (List<Long> values) -> values.stream().mapToLong(Long::longValue).sum());

    /** x: {@code blocks} blockwise blocks; partial: groups of {@code groupSize} consecutive blocks summed; total: the sum of the partials. */
    static HighLevelGraph tree(int blocks, int groupSize, boolean readFirstBlockTwice) {
        Map<Key, Task> partials = new LinkedHashMap<>();
        for (int group = 0; group * groupSize < blocks; group++) {
            List<Key> members = new ArrayList<>();
            for (int block = group * groupSize; block < Math.min(blocks, (group + 1) * groupSize); block++) {
                members.add(Key.of("x", block));
            }
            if (readFirstBlockTwice && group == 1) {
                members.add(Key.of("x", 0));
            }
            partials.put(Key.of("partial", group), Task.call(SUM, members));
        }
        return HighLevelGraph.empty()
                .with(BlockwiseLayer.of("x", "i", MAKE, Map.of('i', blocks), blockIndex("i")), Set.of())
                .with(new MaterializedLayer("partial", partials), Set.of("x"))
                .with(new MaterializedLayer("total", Map.of(Key.of("total"), Task.call(SUM, new ArrayList<>(partials.keySet())))), Set.of("partial"));
    }

    static Object total(TaskGraph graph) {
        return new ThreadedScheduler().compute(graph, List.of(Key.of("total"))).get(Key.of("total"));
    }

    @Test
    void aLargeReaderComputesTheBlocksItReads() {
        HighLevelGraph graph = tree(4000, 4, false);
        HighLevelGraph fused = ReaderFusion.fuse(graph, Set.of("total"));
        assertEquals(Set.of("partial", "total"), fused.layers().keySet());
        assertEquals(Set.of(), fused.dependencies("partial"));
        TaskGraph before = graph.materialize();
        TaskGraph after = fused.materialize();
        assertEquals(4000 + 1000 + 1, before.size());
        assertEquals(1000 + 1, after.size());
        // sum over blocks of 3 * block + 1
        assertEquals(3L * 3999 * 4000 / 2 + 4000, total(after));
        assertEquals(total(before), total(after));
        // The default optimisation applies it too.
        assertEquals(1001, Optimization.optimize(graph, List.of(Key.of("total"))).size());
    }

    @Test
    void levelsAboveAbsorbTheLevelsBelowWhileTheyAreLarge() {
        // x (16,000 blocks) -> partial (4,000) -> upper (1,000) -> total (1): x and partial are absorbed, upper stays.
        HighLevelGraph lower = tree(16_000, 4, false);
        Map<Key, Task> upper = new LinkedHashMap<>();
        for (int group = 0; group < 1000; group++) {
            List<Key> members = new ArrayList<>();
            for (int partial = 4 * group; partial < 4 * group + 4; partial++) {
                members.add(Key.of("partial", partial));
            }
            upper.put(Key.of("upper", group), Task.call(SUM, members));
        }
        HighLevelGraph graph = HighLevelGraph.empty()
                .with(lower.layer("x"), Set.of())
                .with(lower.layer("partial"), Set.of("x"))
                .with(new MaterializedLayer("upper", upper), Set.of("partial"))
                .with(new MaterializedLayer("total", Map.of(Key.of("total"), Task.call(SUM, new ArrayList<>(upper.keySet())))), Set.of("upper"));
        HighLevelGraph fused = ReaderFusion.fuse(graph, Set.of("total"));
        assertEquals(Set.of("upper", "total"), fused.layers().keySet());
        TaskGraph after = fused.materialize();
        assertEquals(1001, after.size());
        assertEquals(3L * 15_999 * 16_000 / 2 + 16_000, total(after));
        assertEquals(total(graph.materialize()), total(after));
    }

    @Test
    void smallReadersRepeatedReadsAndOutputsKeepTheirBlocks() {
        // 999 readers: parallelism over a few large blocks matters more than scheduling.
        HighLevelGraph small = tree(3996, 4, false);
        assertSame(small, ReaderFusion.fuse(small, Set.of("total")));
        // A block read twice would be computed twice.
        HighLevelGraph twice = tree(4000, 4, true);
        assertSame(twice, ReaderFusion.fuse(twice, Set.of("total")));
        assertEquals(3L * 3999 * 4000 / 2 + 4000 + 1, total(Optimization.optimize(twice, List.of(Key.of("total")))));
        // A requested layer stays a layer.
        HighLevelGraph graph = tree(4000, 4, false);
        assertTrue(ReaderFusion.fuse(graph, Set.of("total", "x")).layers().containsKey("x"));
    }
}
