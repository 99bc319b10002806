package org.tessera.array.creation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class SplitMixUniformTest {
    /** The first {@code count} values of the stream of {@code seed}: the whole of a 1-D block, from {@code offset}. */
    private static void stream(long seed, MemorySegment segment, long offset, long count) {
        SplitMixUniform.fillRegion(seed, new long[] {count}, new long[] {0}, new long[] {count}, segment, offset, new long[] {Double.BYTES}, null);
    }

    @Test
    void theBulkStreamIsSplittableRandomsStreamValueForValue() {
        for (long seed : new long[] {0, 1, -7, 0x9E3779B97F4A7C15L * 3 + 11}) {
            int count = 10_007;
            MemorySegment values = MemorySegment.ofArray(new double[count + 1]);
            stream(seed, values, 8, count);
            SplittableRandom reference = new SplittableRandom(seed);
            for (int i = 0; i < count; i++) {
                assertEquals(reference.nextDouble(), values.getAtIndex(ValueLayout.JAVA_DOUBLE, i + 1), "value " + i + " of seed " + seed);
            }
            assertEquals(0.0, values.getAtIndex(ValueLayout.JAVA_DOUBLE, 0), "nothing written before the offset");
        }
    }

    /** A 3-D block filled whole; the values of the box {@code start}/{@code shape} of it, in C order. */
    private static double[] boxOfWhole(long seed, long[] block, long[] start, long[] shape) {
        MemorySegment whole = MemorySegment.ofArray(new double[(int) (block[0] * block[1] * block[2])]);
        stream(seed, whole, 0, whole.byteSize() / 8);
        double[] box = new double[(int) (shape[0] * shape[1] * shape[2])];
        int position = 0;
        for (long i = 0; i < shape[0]; i++) {
            for (long j = 0; j < shape[1]; j++) {
                for (long k = 0; k < shape[2]; k++) {
                    long flat = ((start[0] + i) * block[1] + start[1] + j) * block[2] + start[2] + k;
                    box[position++] = whole.getAtIndex(ValueLayout.JAVA_DOUBLE, flat);
                }
            }
        }
        return box;
    }

    @Test
    void aRegionHoldsTheValuesTheWholeBlockHoldsThere() {
        long[] block = {5, 7, 4100};
        for (long[][] box : new long[][][] {{{0, 0, 0}, {5, 7, 4100}}, {{1, 2, 3}, {3, 4, 5}}, {{4, 6, 10}, {1, 1, 4090}}, {{2, 0, 0}, {2, 7, 1}}}) {
            double[] region = new double[(int) (box[1][0] * box[1][1] * box[1][2])];
            long[] strides = {box[1][1] * box[1][2] * Double.BYTES, box[1][2] * Double.BYTES, Double.BYTES};
            SplitMixUniform.fillRegion(42, block, box[0], box[1], MemorySegment.ofArray(region), 0, strides, null);
            org.junit.jupiter.api.Assertions.assertArrayEquals(boxOfWhole(42, block, box[0], box[1]), region);
        }
    }

    @Test
    void aRegionWrittenIntoRowsWithGapsLeavesTheGapsAlone() {
        long[] block = {5, 7, 4100};
        long[] start = {1, 2, 3};
        long[] shape = {3, 4, 5};
        // Each row of 5 values lands at the start of a row of 8, as in a slice of a wider array.
        double[] wide = new double[3 * 4 * 8];
        java.util.Arrays.fill(wide, -1.0);
        SplitMixUniform.fillRegion(42, block, start, shape, MemorySegment.ofArray(wide), 0, new long[] {4 * 8 * Double.BYTES, 8 * Double.BYTES, Double.BYTES}, null);
        double[] expected = boxOfWhole(42, block, start, shape);
        for (int row = 0; row < 12; row++) {
            for (int column = 0; column < 8; column++) {
                assertEquals(column < 5 ? expected[row * 5 + column] : -1.0, wide[row * 8 + column], "row " + row + ", column " + column);
            }
        }
    }

    @Test
    void aTransposedRegionHoldsTheSameValuesColumnByColumn() {
        long[] block = {4200, 9};
        long[] start = {7, 2};
        long[] shape = {4150, 5};
        MemorySegment whole = MemorySegment.ofArray(new double[(int) (block[0] * block[1])]);
        stream(-3, whole, 0, block[0] * block[1]);
        double[] transposed = new double[(int) (shape[0] * shape[1])];
        SplitMixUniform.fillRegionTransposed(-3, block, start, shape, MemorySegment.ofArray(transposed), 0, null);
        for (int row = 0; row < shape[0]; row++) {
            for (int column = 0; column < shape[1]; column++) {
                double expected = whole.getAtIndex(ValueLayout.JAVA_DOUBLE, (start[0] + row) * block[1] + start[1] + column);
                assertEquals(expected, transposed[(int) (column * shape[0] + row)], "row " + row + ", column " + column);
            }
        }
    }
}
