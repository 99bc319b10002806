package org.tessera.array.blockwise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.tessera.array.creation.CreationTest.assertSameArray;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.Creation;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Reductions.Options;
import org.tessera.ndarray.ufunc.Ufuncs;

/** mapBlocks against the same computation on the whole NDArray, over regular and irregular chunkings. */
class MapBlocksTest {
    private static final SynchronousScheduler SCHEDULER = new SynchronousScheduler();
    private static final NDArray VALUES = Ufuncs.MULTIPLY.apply(NDArrays.arange(63).reshape(7, 9), 0.5);
    private static final List<ChunkSpec> CHUNKINGS = List.of(ChunkSpec.of(3, 4), ChunkSpec.size(1),
            ChunkSpec.explicit(new long[] {2, 5}, new long[] {1, 1, 7}), ChunkSpec.explicit(new long[] {7}, new long[] {4, 5}));

    @Test
    void aBlockSumOverADroppedAxisGivesTheSumOverThatAxis() {
        for (ChunkSpec spec : CHUNKINGS) {
            ChunkedArray x = Creation.asarray(VALUES, spec);
            // A dropped axis reaches the function whole, so a per-block sum is the full sum.
            ChunkedArray rowSums = MapBlocks.of(blocks -> NDArrays.sum(blocks[0], Options.axes(1)), x).dropAxis(1).build();
            assertEquals(Chunks.of(x.chunks().axis(0)), rowSums.chunks());
            assertSameArray(NDArrays.sum(VALUES, Options.axes(1)), rowSums);
            ChunkedArray columnSums = MapBlocks.of(blocks -> NDArrays.sum(blocks[0], Options.axes(0)), x).dropAxis(-2).build();
            assertEquals(Chunks.of(x.chunks().axis(1)), columnSums.chunks());
            assertSameArray(NDArrays.sum(VALUES, Options.axes(0)), columnSums);
            ChunkedArray integerSums = MapBlocks.of(blocks -> NDArrays.sum(blocks[0], Options.axes(1)), Creation.asarray(VALUES.astype(DType.INT32), spec))
                    .dropAxis(1).build();
            assertSameArray(NDArrays.sum(VALUES.astype(DType.INT32), Options.axes(1)), integerSums);
        }
    }

    @Test
    void aNewAxisIsAddedWhereAsked() {
        for (ChunkSpec spec : CHUNKINGS) {
            ChunkedArray x = Creation.asarray(VALUES, spec);
            ChunkedArray leading = MapBlocks.of(blocks -> blocks[0].expandDims(0), x).newAxis(0).build();
            assertEquals(Chunks.of(new long[] {1}, x.chunks().axis(0), x.chunks().axis(1)), leading.chunks());
            assertSameArray(VALUES.expandDims(0), leading);

            ChunkedArray powers = MapBlocks.of(blocks -> NDArrays.stack(List.of(blocks[0], Ufuncs.MULTIPLY.apply(blocks[0], blocks[0])), 1), x)
                    .newAxis(1, new long[] {2}).build();
            assertEquals(Chunks.of(x.chunks().axis(0), new long[] {2}, x.chunks().axis(1)), powers.chunks());
            assertSameArray(NDArrays.stack(List.of(VALUES, Ufuncs.MULTIPLY.apply(VALUES, VALUES)), 1), powers);
        }
    }

    @Test
    void blockInfoGivesEveryBlockItsGlobalPositions() {
        long columns = VALUES.shape(1);
        NDArray linearPositions = NDArrays.arange(VALUES.size()).reshape(VALUES.shape());
        for (ChunkSpec spec : CHUNKINGS) {
            ChunkedArray x = Creation.asarray(VALUES, spec);
            ChunkedArray positions = MapBlocks.withBlockInfo((info, blocks) -> {
                long[] start = info.start();
                long[] shape = blocks[0].shape();
                NDArray rows = NDArrays.arange(start[0], start[0] + shape[0], 1).reshape(shape[0], 1);
                NDArray columnsOfBlock = NDArrays.arange(start[1], start[1] + shape[1], 1).reshape(1, shape[1]);
                return Ufuncs.ADD.apply(Ufuncs.MULTIPLY.apply(rows, info.arrayShape()[1]), columnsOfBlock);
            }, x).dtype(DType.INT64).build();
            assertEquals(x.chunks(), positions.chunks());
            assertSameArray(linearPositions, positions);
            assertEquals(columns * 7, positions.compute(ThreadedScheduler.builder().workers(3).build()).size());

            // The block index: every element holds the number of its block in C order.
            ChunkedArray blockNumbers = MapBlocks.withBlockInfo((info, blocks) -> NDArrays.full(DType.INT32,
                    info.blockIndex()[0] * info.blockCounts()[1] + info.blockIndex()[1], info.shape()), x).build();
            assertEquals(DType.INT32, blockNumbers.dtype(), "the dtype the function returns on the empty metas");
            assertSameArray(expectedBlockNumbers(x.chunks()), blockNumbers);
        }
    }

    /** Each element's block number in C order, filled region by region from the chunks. */
    private static NDArray expectedBlockNumbers(Chunks chunks) {
        NDArray expected = NDArrays.zeros(DType.INT32, chunks.shape());
        long[] rowOffsets = chunks.offsets(0);
        long[] columnOffsets = chunks.offsets(1);
        for (int row = 0; row < chunks.blockCount(0); row++) {
            for (int column = 0; column < chunks.blockCount(1); column++) {
                expected.slice(0, rowOffsets[row], 1, chunks.length(0, row)).slice(1, columnOffsets[column], 1, chunks.length(1, column))
                        .fill((long) row * chunks.blockCount(1) + column);
            }
        }
        return expected;
    }

    @Test
    void inputsWithDifferentChunksAndAxesAreAlignedFirst() {
        NDArray other = Ufuncs.SUBTRACT.apply(VALUES, 10.0);
        NDArray row = NDArrays.linspace(-1, 1, 9);
        for (ChunkSpec spec : CHUNKINGS) {
            ChunkedArray x = Creation.asarray(VALUES, spec);
            ChunkedArray y = Creation.asarray(other, ChunkSpec.explicit(new long[] {4, 3}, new long[] {5, 4}));
            ChunkedArray r = Creation.asarray(row, ChunkSpec.size(2));
            ChunkedArray combined = MapBlocks.of(blocks -> Ufuncs.ADD.apply(blocks[0], Ufuncs.MULTIPLY.apply(blocks[1], blocks[2])), x, y, r).build();
            assertSameArray(Ufuncs.ADD.apply(VALUES, Ufuncs.MULTIPLY.apply(other, row)), combined);
            // Block info follows the aligned (split) blocks.
            ChunkedArray starts = MapBlocks.withBlockInfo((info, blocks) -> NDArrays.full(DType.INT64, info.start()[1], blocks[0].shape()), x, r).build();
            NDArray expected = NDArrays.zeros(DType.INT64, 7, 9);
            for (long column = 0; column < 9; column++) {
                long start = 0;
                for (long boundary : starts.chunks().offsets(1)) {
                    if (boundary <= column) {
                        start = boundary;
                    }
                }
                expected.slice(1, column, 1, 1).fill(start);
            }
            assertSameArray(expected, starts);
        }
    }

    @Test
    void declaredChunksDescribeBlocksTheFunctionReshapes() {
        for (ChunkSpec spec : CHUNKINGS) {
            ChunkedArray x = Creation.asarray(VALUES, spec);
            long[] firstRowPerBlock = new long[x.numBlocks()[0]];
            java.util.Arrays.fill(firstRowPerBlock, 1);
            ChunkedArray firstRows = MapBlocks.of(blocks -> blocks[0].slice(0, 0, 1, 1), x).chunks(firstRowPerBlock, x.chunks().axis(1)).build();
            List<NDArray> rows = new ArrayList<>();
            long[] rowOffsets = x.chunks().offsets(0);
            for (int block = 0; block < firstRowPerBlock.length; block++) {
                rows.add(VALUES.slice(0, rowOffsets[block], 1, 1));
            }
            assertSameArray(NDArrays.concatenate(rows, 0), firstRows);
        }
    }

    @Test
    void badOptionsAreRefusedNamingTheAxes() {
        ChunkedArray x = Creation.asarray(VALUES, ChunkSpec.of(3, 4));
        IllegalArgumentException dropped = assertThrows(IllegalArgumentException.class,
                () -> MapBlocks.of(blocks -> blocks[0], x).dropAxis(2).build());
        assertTrue(dropped.getMessage().contains("axis 2") && dropped.getMessage().contains("dimension 2"), dropped.getMessage());
        IllegalArgumentException repeated = assertThrows(IllegalArgumentException.class,
                () -> MapBlocks.of(blocks -> blocks[0], x).dropAxis(1, -1).build());
        assertTrue(repeated.getMessage().contains("repeats axis 1"), repeated.getMessage());
        IllegalArgumentException chunks = assertThrows(IllegalArgumentException.class,
                () -> MapBlocks.of(blocks -> blocks[0], x).chunks(new long[] {7}).build());
        assertTrue(chunks.getMessage().contains("1 axes but the output has 2"), chunks.getMessage());
        IllegalArgumentException newAxis = assertThrows(IllegalArgumentException.class,
                () -> MapBlocks.of(blocks -> blocks[0], x).newAxis(5).build());
        assertTrue(newAxis.getMessage().contains("position 5") && newAxis.getMessage().contains("3 axes"), newAxis.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MapBlocks.of(blocks -> blocks[0]));
    }

    @Test
    void aBlockWithTheWrongAxisCountFailsNamingTheAxes() {
        ChunkedArray x = Creation.asarray(VALUES, ChunkSpec.of(3, 4));
        ChunkedArray flattened = MapBlocks.of(blocks -> blocks[0].ravel(), x).dtype(DType.FLOAT64).label("flatten-blocks").build();
        RuntimeException error = assertThrows(RuntimeException.class, () -> flattened.compute(SCHEDULER));
        Throwable cause = error;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        assertTrue(cause.getMessage().contains("flatten-blocks") && cause.getMessage().contains("output has 2 axes"), cause.getMessage());
    }
}
