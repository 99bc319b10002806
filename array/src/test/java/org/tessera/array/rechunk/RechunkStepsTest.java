package org.tessera.array.rechunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.array.SameValues.assertSameValues;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;

/**
 * A plan's intermediate step over blocks that are made (read, computed) makes every intermediate
 * block, a copy of the whole array, so such a rechunk takes a step only where the graph would grow
 * four times more than Dask allows; over generated blocks, which stay deferred through a step,
 * Dask's plan stands. Either way the values are the array's.
 */
class RechunkStepsTest {
    private static final ChunkSpec SQUARES = ChunkSpec.of(200, 200);
    private static final ChunkSpec BANDS = ChunkSpec.of(25, 1600);

    private static long steps(ChunkedArray rechunked) {
        return rechunked.graph().layers().keySet().stream().filter(name -> name.startsWith("rechunk-merge")).count();
    }

    @Test
    void readBlocksTakeOneStepWhereGeneratedBlocksTakeDasksTwo() {
        ChunkedArray generated = Creation.random(3, Creation.Distribution.UNIFORM, new long[] {1600, 1600}, SQUARES);
        ChunkedArray read = Creation.fromSource(RegionSource.of(generated.compute()), SQUARES);
        assertTrue(Rechunk.defersCheaply(generated.graph(), generated.name()), "random blocks defer cheaply");
        assertFalse(Rechunk.defersCheaply(read.graph(), read.name()), "a source's blocks are read");
        assertEquals(2, steps(generated.rechunk(BANDS)), "Dask's plan: through an intermediate chunking");
        assertEquals(1, steps(read.rechunk(BANDS)), "one step over read blocks");
        assertSameValues(generated.compute(), read.rechunk(BANDS).compute(), "the read array rechunked");
        assertSameValues(generated.compute(), generated.rechunk(BANDS).compute(), "the generated array rechunked");
    }

    @Test
    void aChangeThatWouldGrowTheGraphSixteenTimesStillTakesSteps() {
        // (N, 1)-like blocks to (1, N)-like: one step would make 64 x 64 pieces from 128 blocks.
        ChunkedArray read = Creation.fromSource(RegionSource.of(Creation.random(5, Creation.Distribution.UNIFORM, new long[] {640, 640},
                ChunkSpec.of(640, 10)).compute()), ChunkSpec.of(640, 10));
        ChunkedArray rechunked = read.rechunk(ChunkSpec.of(10, 640));
        assertTrue(steps(rechunked) > 1, "a transposing change over read blocks goes through steps: " + rechunked.graph().layers().keySet());
        assertSameValues(read.compute(), rechunked.compute(), "the transposing change");
    }
}
