package org.tessera.array;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.tessera.array.blockwise.Elementwise;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.chunks.UnknownChunksException;
import org.tessera.array.creation.Creation;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * Arrays whose block lengths depend on the data (a boolean filter per block) have unknown chunks;
 * computeChunkSizes finds them, after which shape-dependent operations work.
 */
class ChunkSizesTest {
    private static final SynchronousScheduler SCHEDULER = new SynchronousScheduler();

    /** Keeps the elements of a 1-D block that are positive. */
    private static final TaskFunction POSITIVE = TaskFunction.named("positive", arguments -> {
        NDArray block = (NDArray) arguments.getFirst();
        return NDArrays.get(block, Index.of(Ufuncs.GREATER.apply(block, 0)));
    });

    /** Keeps the rows of a 2-D block whose first element is positive. */
    private static final TaskFunction POSITIVE_ROWS = TaskFunction.named("positive-rows", arguments -> {
        NDArray block = (NDArray) arguments.getFirst();
        return NDArrays.get(block, Index.of(Ufuncs.GREATER.apply(block.take(1, 0), 0)), Index.all());
    });

    /**
     * Every block of {@code source} through {@code filter}, built by hand as one layer: the lengths
     * along axis 0 are unknown, the other axes keep theirs.
     */
    static ChunkedArray filtered(ChunkedArray source, TaskFunction filter) {
        String name = Tokens.name("filtered", source.name(), filter.displayName());
        Map<Key, Task> tasks = new LinkedHashMap<>();
        BlockGrid.forEach(source.numBlocks(), index -> tasks.put(Key.of(name, index), Task.call(filter, Task.ref(source.key(index)))));
        long[][] lengths = new long[source.ndim()][];
        lengths[0] = new long[source.numBlocks()[0]];
        Arrays.fill(lengths[0], Chunks.UNKNOWN);
        for (int axis = 1; axis < lengths.length; axis++) {
            lengths[axis] = source.chunks().axis(axis);
        }
        return new ChunkedArray(source.graph().with(new MaterializedLayer(name, tasks), Set.of(source.name())), name, Chunks.of(lengths), source.dtype());
    }

    @Test
    void filteredBlocksHaveUnknownLengthsUntilComputed() {
        // Positive and negative runs of different lengths, so some blocks keep nothing.
        NDArray values = Ufuncs.SIN.apply(Ufuncs.MULTIPLY.apply(NDArrays.arange(40), 0.45));
        NDArray expected = NDArrays.get(values, Index.of(Ufuncs.GREATER.apply(values, 0)));
        for (ChunkSpec spec : List.of(ChunkSpec.size(4), ChunkSpec.size(7), ChunkSpec.explicit(new long[] {1, 6, 3, 20, 10}))) {
            ChunkedArray source = Creation.asarray(values, spec);
            ChunkedArray positive = filtered(source, POSITIVE);
            assertFalse(positive.chunks().isKnown());
            assertEquals(Chunks.UNKNOWN, positive.shape(0));

            UnknownChunksException compute = assertThrows(UnknownChunksException.class, positive::compute);
            assertTrue(compute.getMessage().contains("compute needs the length of axis 0") && compute.getMessage().contains("computeChunkSizes()"),
                    compute.getMessage());
            UnknownChunksException size = assertThrows(UnknownChunksException.class, positive::size);
            assertTrue(size.getMessage().contains("size needs the length of axis 0"), size.getMessage());

            ChunkedArray known = positive.computeChunkSizes(SCHEDULER);
            assertTrue(known.chunks().isKnown());
            assertEquals(positive.name(), known.name());
            assertArrayEquals(positiveCountsPerBlock(values, source.chunks()), known.chunks().axis(0));
            assertEquals(expected.size(), known.size());
            assertEquals(expected.toString(), known.compute(SCHEDULER).toString());
            assertEquals(Ufuncs.MULTIPLY.apply(expected, 2).toString(), Elementwise.apply(Ufuncs.MULTIPLY, known, 2).compute(SCHEDULER).toString());
        }
    }

    private static long[] positiveCountsPerBlock(NDArray values, Chunks chunks) {
        long[] offsets = chunks.offsets(0);
        long[] counts = new long[chunks.blockCount(0)];
        for (int block = 0; block < counts.length; block++) {
            for (long position = offsets[block]; position < offsets[block + 1]; position++) {
                counts[block] += values.getDouble(position) > 0 ? 1 : 0;
            }
        }
        return counts;
    }

    @Test
    void filteredRowsOfAMatrixGetTheirLengthsAndKeepTheKnownAxis() {
        NDArray values = Ufuncs.COS.apply(Ufuncs.MULTIPLY.apply(NDArrays.arange(60).reshape(12, 5), 0.3));
        NDArray expected = NDArrays.get(values, Index.of(Ufuncs.GREATER.apply(values.take(1, 0), 0)), Index.all());
        for (ChunkSpec spec : List.of(ChunkSpec.of(3, -1), ChunkSpec.explicit(new long[] {5, 2, 5}, new long[] {5}))) {
            ChunkedArray positive = filtered(Creation.asarray(values, spec), POSITIVE_ROWS);
            assertEquals(5, positive.shape(1));
            UnknownChunksException error = assertThrows(UnknownChunksException.class, () -> positive.compute(SCHEDULER));
            assertTrue(error.getMessage().contains("axis 0") && error.getMessage().contains("nan"), error.getMessage());

            ChunkedArray known = positive.computeChunkSizes(ThreadedScheduler.builder().workers(2).build());
            assertArrayEquals(expected.shape(), known.shape());
            assertArrayEquals(positive.chunks().axis(1), known.chunks().axis(1));
            assertEquals(expected.toString(), known.compute(SCHEDULER).toString());
        }
    }

    @Test
    void knownChunksNeedNoComputing() {
        ChunkedArray known = Creation.zeros(new long[] {4, 4}, org.tessera.ndarray.dtype.DType.FLOAT64, ChunkSpec.size(2));
        assertSame(known, known.computeChunkSizes());
    }

    @Test
    void blocksOfOneRowThatDisagreeOnALengthAreReported() {
        // The first column is positive in other rows than the second: each block filters differently.
        NDArray values = NDArrays.array(new double[] {1, -1}, new double[] {1, -1}, new double[] {-1, 1});
        ChunkedArray source = Creation.asarray(values, ChunkSpec.of(3, 1));
        ChunkedArray inconsistent = filtered(source, POSITIVE_ROWS);
        IllegalStateException error = assertThrows(IllegalStateException.class, () -> inconsistent.computeChunkSizes(SCHEDULER));
        assertTrue(error.getMessage().contains(Key.of(inconsistent.name(), 0, 1) + " has shape [1, 1]") && error.getMessage().contains("length 2 on axis 0"),
                error.getMessage());
    }
}
