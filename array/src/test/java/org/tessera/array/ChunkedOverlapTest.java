package org.tessera.array;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.tessera.array.MethodOracle.FLOATS;
import static org.tessera.array.MethodOracle.INTEGERS;
import static org.tessera.array.MethodOracle.assertMatches;
import static org.tessera.array.MethodOracle.chunked;

import java.util.stream.Stream;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.overlap.Boundary;
import org.tessera.array.overlap.Overlap;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * mapOverlap and overlap against the whole array in memory: a 3 x 3 mean filter over blocks with
 * ghost cells equals the filter over the whole array padded by the boundary rule, and the enlarged
 * blocks themselves equal regions of the whole array padded by hand.
 */
class ChunkedOverlapTest {

    static Stream<Named<Boundary>> boundaries() {
        return Stream.of(Named.of("reflect", Boundary.REFLECT), Named.of("periodic", Boundary.PERIODIC), Named.of("nearest", Boundary.NEAREST),
                Named.of("constant 2.5", Boundary.constant(2.5)), Named.of("none", Boundary.NONE));
    }

    @ParameterizedTest
    @MethodSource("org.tessera.array.MethodOracle#chunkings")
    void meanFilterWithReflectEqualsTheFilterOnTheWholeArray(ChunkSpec spec) {
        ChunkedArray x = chunked(FLOATS, spec);
        NDArray expected = interior(meanFilter(padByHand(FLOATS, 1, Boundary.REFLECT)), 1);
        assertMatches("3 x 3 mean, reflect", expected, x.mapOverlap(ChunkedOverlapTest::meanFilter, 1, Boundary.REFLECT));
    }

    @ParameterizedTest
    @MethodSource("boundaries")
    void meanFilterWithEveryBoundaryOverSeveralChunkings(Boundary boundary) {
        NDArray expected = boundary.kind() == Boundary.Kind.NONE ? meanFilter(FLOATS) : interior(meanFilter(padByHand(FLOATS, 1, boundary)), 1);
        for (ChunkSpec spec : new ChunkSpec[] {ChunkSpec.of(3, 4), ChunkSpec.explicit(new long[] {2, 5}, new long[] {1, 1, 7}), ChunkSpec.size(1), ChunkSpec.of(-1, -1)}) {
            ChunkedArray x = chunked(FLOATS, spec);
            assertMatches("mean filter, " + boundary + ", chunks " + x.chunks(), expected,
                    Overlap.mapOverlap(x, ChunkedOverlapTest::meanFilter, new long[] {1, 1}, new Boundary[] {boundary}));
        }
    }

    @ParameterizedTest
    @MethodSource("boundaries")
    void enlargedBlocksAreRegionsOfTheHandPaddedArray(Boundary boundary) {
        // Depth 2 on rows, 1 on columns; blocks of 1 row are first merged to at least 2 rows.
        long[] depth = {2, 1};
        for (ChunkSpec spec : new ChunkSpec[] {ChunkSpec.of(3, 4), ChunkSpec.explicit(new long[] {2, 5}, new long[] {1, 1, 7}), ChunkSpec.size(1)}) {
            ChunkedArray x = chunked(INTEGERS, spec);
            ChunkedArray enlarged = Overlap.overlap(x, depth, new Boundary[] {boundary, Boundary.constant(-100)});
            NDArray padded = padByHand(padByHand(INTEGERS, new long[] {2, 0}, boundary), new long[] {0, 1}, Boundary.constant(-100));
            Chunks chunks = enlarged.chunks();
            NDArray computed = enlarged.compute(MethodOracle.SYNCHRONOUS);
            assertEquals(DType.INT64, computed.dtype());
            long[][] rows = regionStarts(chunks.axis(0), x.shape(0), 2, boundary);
            long[][] columns = regionStarts(chunks.axis(1), x.shape(1), 1, Boundary.constant(-100));
            long outputRow = 0;
            for (int blockRow = 0; blockRow < rows.length; blockRow++) {
                long outputColumn = 0;
                for (int blockColumn = 0; blockColumn < columns.length; blockColumn++) {
                    long height = rows[blockRow][1];
                    long width = columns[blockColumn][1];
                    NDArray expectedBlock = padded.slice(0, rows[blockRow][0], 1, height).slice(1, columns[blockColumn][0], 1, width);
                    NDArray actualBlock = computed.slice(0, outputRow, 1, height).slice(1, outputColumn, 1, width);
                    assertArrayEquals(longs(expectedBlock), longs(actualBlock), "block (" + blockRow + ", " + blockColumn + ") with " + boundary
                            + ", input chunks " + x.chunks());
                    outputColumn += width;
                }
                outputRow += rows[blockRow][1];
            }
        }
    }

    @Test
    void shortBlocksAreMergedUntilTheyHoldTheDepth() {
        ChunkedArray x = chunked(FLOATS, ChunkSpec.explicit(new long[] {1, 1, 4, 1}, new long[] {9}));
        ChunkedArray enlarged = Overlap.overlap(x, new long[] {2, 0}, new Boundary[] {Boundary.NONE});
        // Rows merged to (2, 4, 1) then (2, 5); the first block gains 2 rows after, the last 2 before.
        assertEquals(Chunks.of(new long[] {4, 7}, new long[] {9}), enlarged.chunks());
        NDArray expected = NDArrays.concatenate(java.util.List.of(FLOATS.slice(0, 0, 1, 4), FLOATS.slice(0, 0, 1, 7)), 0);
        assertMatches("enlarged", expected, enlarged);
    }

    @Test
    void badDepthsAndFunctionsAreNamed() {
        ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 4));
        assertThrows(IllegalArgumentException.class, () -> Overlap.overlap(x, new long[] {8, 1}, new Boundary[] {Boundary.REFLECT}));
        assertThrows(IllegalArgumentException.class, () -> Overlap.overlap(x, new long[] {1, 1, 1}, new Boundary[] {Boundary.REFLECT}));
        assertThrows(IllegalArgumentException.class, () -> Overlap.overlap(x, new long[] {-1}, new Boundary[] {Boundary.REFLECT}));
        ChunkedArray shrinking = x.mapOverlap(block -> block.slice(0, 0, 1, 1), 1, Boundary.NEAREST);
        Exception failure = assertThrows(Exception.class, () -> shrinking.compute(MethodOracle.SYNCHRONOUS));
        Throwable cause = failure;
        while (cause.getCause() != null && !(cause instanceof IllegalStateException)) {
            cause = cause.getCause();
        }
        assertEquals(IllegalStateException.class, cause.getClass(), failure.toString());
    }

    /** The 3 x 3 mean at every element with all 8 neighbours inside the array; the border keeps its values. */
    static NDArray meanFilter(NDArray values) {
        NDArray result = values.astype(DType.FLOAT64);
        long rows = values.shape(0);
        long columns = values.shape(1);
        if (rows < 3 || columns < 3) {
            return result;
        }
        NDArray sum = NDArrays.zeros(DType.FLOAT64, rows - 2, columns - 2);
        for (int rowShift = 0; rowShift < 3; rowShift++) {
            for (int columnShift = 0; columnShift < 3; columnShift++) {
                sum = Ufuncs.ADD.apply(sum, values.slice(0, rowShift, 1, rows - 2).slice(1, columnShift, 1, columns - 2));
            }
        }
        result.slice(0, 1, 1, rows - 2).slice(1, 1, 1, columns - 2).assign(Ufuncs.TRUE_DIVIDE.apply(sum, 9.0));
        return result;
    }

    private static NDArray interior(NDArray values, long depth) {
        return values.slice(0, depth, 1, values.shape(0) - 2 * depth).slice(1, depth, 1, values.shape(1) - 2 * depth);
    }

    private static NDArray padByHand(NDArray values, long depth, Boundary boundary) {
        return padByHand(values, new long[] {depth, depth}, boundary);
    }

    /** The 2-D array with {@code depth[k]} elements added on both sides of axis k by the boundary rule, element by element. */
    private static NDArray padByHand(NDArray values, long[] depth, Boundary boundary) {
        if (boundary.kind() == Boundary.Kind.NONE) {
            return values;
        }
        long rows = values.shape(0);
        long columns = values.shape(1);
        NDArray result = NDArrays.zeros(values.dtype(), rows + 2 * depth[0], columns + 2 * depth[1]);
        for (long row = 0; row < result.shape(0); row++) {
            for (long column = 0; column < result.shape(1); column++) {
                long sourceRow = source(row - depth[0], rows, boundary);
                long sourceColumn = source(column - depth[1], columns, boundary);
                boolean outside = sourceRow < 0 || sourceColumn < 0;
                if (values.dtype() == DType.FLOAT64) {
                    result.setDouble(outside ? boundary.constant().doubleValue() : values.getDouble(sourceRow, sourceColumn), row, column);
                } else {
                    result.setLong(outside ? boundary.constant().longValue() : values.getLong(sourceRow, sourceColumn), row, column);
                }
            }
        }
        return result;
    }

    /** The source of a position outside [0, length): reflect mirrors with the edge (c b a | a b c), -1 for a constant. */
    private static long source(long position, long length, Boundary boundary) {
        if (position >= 0 && position < length) {
            return position;
        }
        return switch (boundary.kind()) {
            case REFLECT -> position < 0 ? -position - 1 : 2 * length - 1 - position;
            case PERIODIC -> Math.floorMod(position, length);
            case NEAREST -> position < 0 ? 0 : length - 1;
            case CONSTANT -> -1;
            case NONE -> throw new IllegalArgumentException("no padding for none");
        };
    }

    /**
     * For each enlarged block along an axis: its first position in the hand-padded array and its
     * length. The blocks' own lengths are the enlarged ones less the ghost cells (none at an outer
     * end whose boundary is none).
     */
    private static long[][] regionStarts(long[] enlargedLengths, long axisLength, long depth, Boundary boundary) {
        boolean none = boundary.kind() == Boundary.Kind.NONE;
        long[][] regions = new long[enlargedLengths.length][];
        long blockStart = 0;
        for (int block = 0; block < enlargedLengths.length; block++) {
            long before = block == 0 && none ? 0 : depth;
            long after = block == enlargedLengths.length - 1 && none ? 0 : depth;
            long ownLength = enlargedLengths[block] - before - after;
            long paddedStart = (none ? 0 : depth) + blockStart - before;
            regions[block] = new long[] {paddedStart, enlargedLengths[block]};
            blockStart += ownLength;
        }
        assertEquals(axisLength, blockStart, "the enlarged blocks cover the axis once");
        return regions;
    }

    private static long[] longs(NDArray values) {
        NDArray flat = values.copy().reshape(values.size());
        long[] result = new long[(int) flat.size()];
        for (int element = 0; element < result.length; element++) {
            result[element] = flat.getLong(element);
        }
        return result;
    }
}
