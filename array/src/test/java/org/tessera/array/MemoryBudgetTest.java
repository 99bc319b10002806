package org.tessera.array;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.blockwise.Elementwise;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.reshape.Transpose;
import org.tessera.graph.Key;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.schedule.Computation;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.ufunc.Ufuncs;

class MemoryBudgetTest {
    @Test
    void aChunkedComputationStaysUnderItsBudgetBySpillingBlocks(@TempDir Path spillRoot) throws Exception {
        // x + x.T over 64 blocks of 500 kB: block (i, j) of x is read by output blocks (i, j) and (j, i),
        // so without a budget many x blocks wait in memory for their second reader.
        ChunkedArray x = Creation.random(5, Creation.Distribution.UNIFORM, new long[] {2000, 2000}, ChunkSpec.size(250));
        ChunkedArray y = Elementwise.apply(Ufuncs.ADD, x, Transpose.transpose(x));
        List<Key> keys = y.flatKeys();
        MemoryBudget budget = MemoryBudget.ofMebibytes(6);
        Computation free = ThreadedScheduler.builder().workers(2).build().run(y.optimizedGraph(), keys);
        Computation bounded = ThreadedScheduler.builder().workers(2).memoryBudget(budget).spillDirectory(spillRoot).build()
                .run(y.optimizedGraph(), keys);
        for (Key key : keys) {
            assertEquals(((NDArray) free.results().get(key)).toString(), ((NDArray) bounded.results().get(key)).toString(), key.toString());
        }
        // The outputs themselves (32 MB) are returned, so they are spilled too and read back at the end.
        assertTrue(free.statistics().peakResultBytes() > 3 * budget.bytes(), free.statistics().toString());
        assertTrue(bounded.statistics().peakResultBytes() <= budget.bytes(), bounded.statistics().toString());
        assertTrue(bounded.statistics().spilledResults() > 0, bounded.statistics().toString());
        try (Stream<Path> left = Files.list(spillRoot)) {
            assertEquals(List.of(), left.toList());
        }
    }
}
