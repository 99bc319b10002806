package org.tessera.array.reshape;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;

/** Dask's reshape rule as arithmetic, with the examples of Dask's documentation. */
class ReshapeChunksTest {
    @Test
    void expandSplitsBlocksIntoAboutFactorTimesAsMany() {
        assertArrayEquals(new long[] {1, 1, 2, 2}, ReshapeChunks.expand(new long[] {2, 4}, 2));
        assertArrayEquals(new long[] {1, 1, 1, 1, 2}, ReshapeChunks.expand(new long[] {2, 4}, 3));
        assertArrayEquals(new long[] {1, 2, 2, 2}, ReshapeChunks.expand(new long[] {3, 4}, 2));
        assertArrayEquals(new long[] {2, 2, 3, 1, 1, 2}, ReshapeChunks.expand(new long[] {7, 4}, 3));
        assertArrayEquals(new long[] {7, 4}, ReshapeChunks.expand(new long[] {7, 4}, 1));
    }

    @Test
    void contractMergesBlocksToMultiplesOfTheFactor() {
        assertArrayEquals(new long[] {4, 8, 4}, ReshapeChunks.contract(new long[] {2, 2, 8, 4}, 4));
    }

    @Test
    void mergingAxesMakesTheInnerOnesWhole() {
        // (4, 4, 4) in blocks of 2 to (64,): the two inner axes become whole, the first is split
        // so that there are about as many blocks as before.
        ReshapeChunks chunks = ReshapeChunks.plan(new long[] {4, 4, 4}, new long[] {64},
                new long[][] {{2, 2}, {2, 2}, {2, 2}}).orElseThrow();
        assertArrayEquals(new long[][] {{1, 1, 1, 1}, {4}, {4}}, chunks.input());
        assertArrayEquals(new long[][] {{16, 16, 16, 16}}, chunks.output());
    }

    @Test
    void splittingAnAxisMakesItsBlocksMultiplesOfTheInnerLength() {
        ReshapeChunks chunks = ReshapeChunks.plan(new long[] {64}, new long[] {4, 4, 4}, new long[][] {{2, 2, 8, 4, 16, 32}}).orElseThrow();
        assertArrayEquals(new long[][] {{16, 16, 32}}, chunks.input());
        assertArrayEquals(new long[][] {{1, 1, 2}, {4}, {4}}, chunks.output());
    }

    @Test
    void blocksOfOneBeforeAMergedAxisOnlyMove() {
        ReshapeChunks chunks = ReshapeChunks.plan(new long[] {2, 3}, new long[] {6}, new long[][] {{1, 1}, {2, 1}}).orElseThrow();
        assertArrayEquals(new long[][] {{1, 1}, {2, 1}}, chunks.input());
        assertArrayEquals(new long[][] {{2, 1, 2, 1}}, chunks.output());
    }

    @Test
    void unevenRegroupingsHaveNoPlan() {
        assertEquals(Optional.empty(), ReshapeChunks.plan(new long[] {4, 6}, new long[] {3, 8}, new long[][] {{2, 2}, {3, 3}}));
        assertTrue(ReshapeChunks.plan(new long[] {4, 6}, new long[] {24}, new long[][] {{2, 2}, {3, 3}}).isPresent());
    }
}
