package org.tessera.array.overlap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.array.SameValues.assertSameValues;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.tessera.array.Allocation;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.api.ChunkedArrays;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.Key;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * Ghost cells taken from blocks not computed yet (random blocks, made box by box): each enlarged
 * block asks its neighbours only for the boxes it takes, and must hold exactly the values the same
 * overlap gives over the same values held as computed blocks, for every boundary.
 */
class DeferredOverlapTest {
    private static final ChunkSpec BLOCKS = ChunkSpec.of(40, 50);

    @Test
    void enlargedDeferredBlocksAreTheEnlargedComputedBlocks() {
        ChunkedArray lazy = Creation.random(2, Creation.Distribution.UNIFORM, new long[] {120, 110}, BLOCKS);
        ChunkedArray held = ChunkedArrays.fromArray(lazy.compute(), BLOCKS);
        for (Boundary boundary : List.of(Boundary.REFLECT, Boundary.PERIODIC, Boundary.NEAREST, Boundary.constant(-3), Boundary.NONE)) {
            for (long depth : new long[] {1, 3}) {
                String label = boundary + ", depth " + depth;
                assertSameValues(Overlap.overlap(held, depth, boundary).compute(), Overlap.overlap(lazy, depth, boundary).compute(), label);
                assertSameValues(held.mapOverlap(DeferredOverlapTest::scaled, depth, boundary).compute(),
                        lazy.mapOverlap(DeferredOverlapTest::scaled, depth, boundary).compute(), "mapOverlap, " + label);
            }
        }
    }

    private static NDArray scaled(NDArray block) {
        return Ufuncs.MULTIPLY.apply(block, 3.0);
    }

    @Test
    void aStencilOverRandomBlocksMakesNoNeighbourWhole() {
        // Four 2000 x 2000 blocks (32 MB each); each enlarged block is 2002 x 2002, and the function
        // makes one array as large. A neighbour made whole for its edge would add 32 MB.
        ChunkedArray x = Creation.random(6, Creation.Distribution.UNIFORM, new long[] {4000, 4000}, ChunkSpec.of(2000, 2000));
        ChunkedArray filtered = x.mapOverlap(DeferredOverlapTest::scaled, 1, Boundary.REFLECT);
        Allocation run = Allocation.ofSecondCompute(filtered.sum());
        long enlarged = 2002L * 2002 * Double.BYTES;
        assertTrue(run.bytes() < 8 * enlarged + (8L << 20),
                "the stencil allocated " + run.megabytes() + " MB; four enlarged blocks and their results are " + (8 * enlarged >> 20) + " MB");
        double expected = 3 * x.sum().compute().getDouble();
        assertEquals(expected, run.result().getDouble(), expected * 1e-12);
    }

    @Test
    void anEnlargedBlockTakesItsNeighboursEdgesNotTheNeighbours() {
        // A source's blocks are read once each and held until their readers have run: a neighbour's task that read
        // the whole block for its edge would keep it alive until the last of its nine readers ran.
        NDArray values = Creation.random(3, Creation.Distribution.UNIFORM, new long[] {120, 110}, BLOCKS).compute();
        ChunkedArray x = Creation.fromSource(RegionSource.of(values), BLOCKS);
        ChunkedArray filtered = x.mapOverlap(DeferredOverlapTest::scaled, 2, Boundary.REFLECT);
        var graph = filtered.optimizedGraph();
        int enlarged = 0;
        for (var dependencies : graph.dependencyMap().entrySet()) {
            if (!dependencies.getKey().name().equals(filtered.name())) {
                continue;
            }
            enlarged++;
            for (Key read : dependencies.getValue()) {
                assertTrue(!read.name().equals(x.name()) || java.util.Arrays.equals(read.index(), dependencies.getKey().index()),
                        dependencies.getKey() + " reads the whole neighbour " + read);
            }
        }
        assertEquals(3 * 3, enlarged);
        assertSameValues(ChunkedArrays.fromArray(values, BLOCKS).mapOverlap(DeferredOverlapTest::scaled, 2, Boundary.REFLECT).compute(),
                filtered.compute(), "the enlarged blocks from edges");
    }
}
