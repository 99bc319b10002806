package org.tessera.graph.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.graph.Task.call;
import static org.tessera.graph.Task.ref;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.graph.Key;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.memory.MemoryBudget;

class MemoryBudgetTest {
    static final int BLOCK_BYTES = 1 << 20;
    static final TaskFunction BIG = TaskFunction.unary("big", (Integer block) -> {
        byte[] bytes = new byte[BLOCK_BYTES];
        Arrays.fill(bytes, (byte) block.intValue());
        return bytes;
    });
    static final TaskFunction FORWARD = TaskFunction.binary("forward", (Long previous, byte[] block) -> previous + checksum(block));
    static final TaskFunction BACKWARD = TaskFunction.binary("backward", (Long previous, byte[] block) -> previous * 31 + checksum(block));

    static long checksum(byte[] block) {
        long total = 0;
        for (int position = 0; position < block.length; position += 4096) {
            total += block[position] + position;
        }
        return total;
    }

    /**
     * Every block is read by a chain running forward and by one running backward, so whatever the
     * order, about half the blocks wait for their second reader at once: 32 MiB of intermediates.
     */
    static TaskGraph forwardAndBackward(int blocks) {
        TaskGraph.Builder builder = TaskGraph.builder().put("forward-start", 0L).put("backward-start", 0L);
        for (int block = 0; block < blocks; block++) {
            builder.put(Key.of("block", block), call(BIG, block));
            builder.put(Key.of("forward", block), call(FORWARD, block == 0 ? Key.of("forward-start") : Key.of("forward", block - 1), Key.of("block", block)));
            builder.put(Key.of("backward", block), call(BACKWARD, block == 0 ? Key.of("backward-start") : Key.of("backward", block - 1),
                    Key.of("block", blocks - 1 - block)));
        }
        return builder.build();
    }

    @Test
    void intermediatesSeveralTimesTheBudgetSpillAndComeBack(@TempDir Path spillRoot) throws Exception {
        int blocks = 32;
        TaskGraph graph = forwardAndBackward(blocks);
        List<Key> outputs = List.of(Key.of("forward", blocks - 1), Key.of("backward", blocks - 1));
        Map<Key, Object> expected = new SynchronousScheduler().compute(graph, outputs);
        MemoryBudget budget = MemoryBudget.ofMebibytes(6);
        Computation unbudgeted = ThreadedScheduler.builder().workers(2).build().run(graph, outputs);
        Computation budgeted = ThreadedScheduler.builder().workers(2).memoryBudget(budget).spillDirectory(spillRoot).build().run(graph, outputs);

        assertEquals(expected, unbudgeted.results());
        assertEquals(expected, budgeted.results());
        assertTrue(unbudgeted.statistics().peakResultBytes() > 3 * budget.bytes(),
                "without a budget the graph holds " + unbudgeted.statistics().peakResultBytes() + " bytes");
        assertTrue(budgeted.statistics().peakResultBytes() <= budget.bytes(),
                "peak " + budgeted.statistics().peakResultBytes() + " bytes over a budget of " + budget.bytes());
        assertTrue(budgeted.statistics().spilledResults() >= blocks / 2, budgeted.statistics().toString());
        try (Stream<Path> left = Files.list(spillRoot)) {
            assertEquals(List.of(), left.toList(), "the spill directory was not removed");
        }
    }

    @Test
    void budgetsParseAndRejectNonsense() {
        assertEquals(512L << 20, MemoryBudget.parse("512m").bytes());
        assertEquals(2L << 30, MemoryBudget.parse("2G").bytes());
        assertEquals(1000, MemoryBudget.parse("1000").bytes());
        assertThrows(IllegalArgumentException.class, () -> MemoryBudget.parse("lots"));
        assertThrows(IllegalArgumentException.class, () -> MemoryBudget.ofBytes(0));
    }
}
