package org.tessera.ndarray.simd;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The transpose of 8-byte words in square blocks of a vector's lanes on the Vector API: a block's
 * columns are loaded as vectors (each a run of the source), and rounds of interleaving pairs of
 * vectors (single lanes, then pairs, then fours) leave its rows, as in the byte unshuffle. On one
 * core of the AMD EPYC (Zen 4), tiles of 128 x 256 words from 2000 x 2000 blocks out of cache take
 * 0.35 ns a word in 8 x 8 blocks at AVX-512 and 0.58-0.60 ns in 4 x 4 blocks at AVX2, against
 * 0.71-0.74 ns for the scalar 4 x 4 transpose of the caller.
 */
final class WordTranspose {
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;
    private static final int SIDE = LONGS.length();
    private static final LongVector SINGLES_LOW = interleave(1, false);
    private static final LongVector SINGLES_HIGH = interleave(1, true);
    private static final LongVector PAIRS_LOW = interleave(2, false);
    private static final LongVector PAIRS_HIGH = interleave(2, true);
    private static final LongVector QUADS_LOW = interleave(4, false);
    private static final LongVector QUADS_HIGH = interleave(4, true);

    private WordTranspose() {
    }

    /** The vector's bits, for the benchmark's kernel widths. */
    static int bits() {
        return LONGS.vectorBitSize();
    }

    /** The byte unshuffle's interleave on long lanes; groups of more than half the lanes (fours at AVX2) are never used, and are built as pairs. */
    private static LongVector interleave(int group, boolean high) {
        int[] indices = ByteUnshuffle.interleaveIndices(SIDE, Math.min(group, Math.max(1, SIDE / 2)), high);
        long[] lanes = new long[SIDE];
        for (int lane = 0; lane < SIDE; lane++) {
            lanes[lane] = indices[lane];
        }
        return LongVector.fromArray(LONGS, lanes, 0);
    }

    /** See {@code VectorMath.transposeWords}: blocks of 8 x 8 or 4 x 4 words, none at other vector sizes. */
    static int transpose(long[] source, int base, int columnStep, int rows, int columns, int step, long[] tile) {
        int wholeRows = rows - rows % SIDE;
        int wholeColumns = columns - columns % SIDE;
        if (SIDE != 8 && SIDE != 4 || rows < 0 || columns < 0) {
            return 0;
        }
        if (wholeRows > 0 && wholeColumns > 0) {
            // The loops index the arrays in ints: the corners of the block they touch must lie in them.
            java.util.Objects.checkFromIndexSize(base, (wholeColumns - 1L) * columnStep + wholeRows, source.length);
            java.util.Objects.checkFromIndexSize(0, (wholeRows - 1L) * step + wholeColumns, tile.length);
            if (SIDE == 8) {
                eights(source, base, columnStep, wholeRows, wholeColumns, step, tile);
            } else {
                fours(source, base, columnStep, wholeRows, wholeColumns, step, tile);
            }
        }
        return SIDE;
    }

    private static void eights(long[] source, int base, int columnStep, int rows, int columns, int step, long[] tile) {
        for (int column = 0; column < columns; column += 8) {
            for (int row = 0; row < rows; row += 8) {
                int from = base + row + column * columnStep;
                LongVector v0 = LongVector.fromArray(LONGS, source, from);
                LongVector v1 = LongVector.fromArray(LONGS, source, from + columnStep);
                LongVector v2 = LongVector.fromArray(LONGS, source, from + 2 * columnStep);
                LongVector v3 = LongVector.fromArray(LONGS, source, from + 3 * columnStep);
                LongVector v4 = LongVector.fromArray(LONGS, source, from + 4 * columnStep);
                LongVector v5 = LongVector.fromArray(LONGS, source, from + 5 * columnStep);
                LongVector v6 = LongVector.fromArray(LONGS, source, from + 6 * columnStep);
                LongVector v7 = LongVector.fromArray(LONGS, source, from + 7 * columnStep);
                LongVector low01 = SINGLES_LOW.selectFrom(v0, v1);
                LongVector high01 = SINGLES_HIGH.selectFrom(v0, v1);
                LongVector low23 = SINGLES_LOW.selectFrom(v2, v3);
                LongVector high23 = SINGLES_HIGH.selectFrom(v2, v3);
                LongVector low45 = SINGLES_LOW.selectFrom(v4, v5);
                LongVector high45 = SINGLES_HIGH.selectFrom(v4, v5);
                LongVector low67 = SINGLES_LOW.selectFrom(v6, v7);
                LongVector high67 = SINGLES_HIGH.selectFrom(v6, v7);
                LongVector a0 = PAIRS_LOW.selectFrom(low01, low23);
                LongVector a1 = PAIRS_HIGH.selectFrom(low01, low23);
                LongVector a2 = PAIRS_LOW.selectFrom(high01, high23);
                LongVector a3 = PAIRS_HIGH.selectFrom(high01, high23);
                LongVector b0 = PAIRS_LOW.selectFrom(low45, low67);
                LongVector b1 = PAIRS_HIGH.selectFrom(low45, low67);
                LongVector b2 = PAIRS_LOW.selectFrom(high45, high67);
                LongVector b3 = PAIRS_HIGH.selectFrom(high45, high67);
                int to = row * step + column;
                QUADS_LOW.selectFrom(a0, b0).intoArray(tile, to);
                QUADS_HIGH.selectFrom(a0, b0).intoArray(tile, to + step);
                QUADS_LOW.selectFrom(a1, b1).intoArray(tile, to + 2 * step);
                QUADS_HIGH.selectFrom(a1, b1).intoArray(tile, to + 3 * step);
                QUADS_LOW.selectFrom(a2, b2).intoArray(tile, to + 4 * step);
                QUADS_HIGH.selectFrom(a2, b2).intoArray(tile, to + 5 * step);
                QUADS_LOW.selectFrom(a3, b3).intoArray(tile, to + 6 * step);
                QUADS_HIGH.selectFrom(a3, b3).intoArray(tile, to + 7 * step);
            }
        }
    }

    private static void fours(long[] source, int base, int columnStep, int rows, int columns, int step, long[] tile) {
        for (int column = 0; column < columns; column += 4) {
            for (int row = 0; row < rows; row += 4) {
                int from = base + row + column * columnStep;
                LongVector v0 = LongVector.fromArray(LONGS, source, from);
                LongVector v1 = LongVector.fromArray(LONGS, source, from + columnStep);
                LongVector v2 = LongVector.fromArray(LONGS, source, from + 2 * columnStep);
                LongVector v3 = LongVector.fromArray(LONGS, source, from + 3 * columnStep);
                LongVector low01 = SINGLES_LOW.selectFrom(v0, v1);
                LongVector high01 = SINGLES_HIGH.selectFrom(v0, v1);
                LongVector low23 = SINGLES_LOW.selectFrom(v2, v3);
                LongVector high23 = SINGLES_HIGH.selectFrom(v2, v3);
                int to = row * step + column;
                PAIRS_LOW.selectFrom(low01, low23).intoArray(tile, to);
                PAIRS_HIGH.selectFrom(low01, low23).intoArray(tile, to + step);
                PAIRS_LOW.selectFrom(high01, high23).intoArray(tile, to + 2 * step);
                PAIRS_HIGH.selectFrom(high01, high23).intoArray(tile, to + 3 * step);
            }
        }
    }
}
