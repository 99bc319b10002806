package org.tessera.array.reduction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.array.SameValues.assertSameValues;

import org.junit.jupiter.api.Test;
import org.tessera.array.Allocation;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.overlap.Boundary;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * A reduction's chunk step runs the task fused into it in scratch memory (ChunkStep's scope): the
 * blocks the task makes whole on the way come from slabs the next task reuses, and the partials
 * copied out are what the same reduction gives over the same blocks held in memory.
 */
class ScopedChunkStepTest {
    private static NDArray scaled(NDArray block) {
        return Ufuncs.MULTIPLY.apply(block, 3.0);
    }

    private static ChunkedArray stencil() {
        // Four 2000 x 2000 blocks; each task makes a 2002 x 2002 enlarged block and a result as large (32 MB each).
        ChunkedArray x = Creation.random(6, Creation.Distribution.UNIFORM, new long[] {4000, 4000}, ChunkSpec.of(2000, 2000));
        return x.mapOverlap(ScopedChunkStepTest::scaled, 1, Boundary.REFLECT);
    }

    @Test
    void aFusedStencilAndSumReusesItsScratchMemory() {
        Allocation run = Allocation.ofSecondCompute(stencil().sum());
        long enlarged = 2002L * 2002 * Double.BYTES;
        // Unscoped, the four tasks allocated their enlarged blocks and results: eight times this.
        assertTrue(run.bytes() < enlarged, "the stencil allocated " + run.megabytes() + " MB; one enlarged block is " + (enlarged >> 20) + " MB");
        NDArray held = stencil().persist(new SynchronousScheduler()).sum().compute(new SynchronousScheduler());
        assertEquals(held.getDouble(), run.result().getDouble(), 0.0);
    }

    @Test
    void partialsKeptAlongAnAxisLeaveTheScratchIntact() {
        ChunkedArray filtered = stencil();
        NDArray scoped = ChunkedArray.computeAll(new SynchronousScheduler(), java.util.List.of(filtered.mean(1), filtered.max(0))).get(0);
        ChunkedArray held = filtered.persist(new SynchronousScheduler());
        assertSameValues(held.mean(1).compute(new SynchronousScheduler()), scoped, "mean(1)");
        assertSameValues(held.max(0).compute(new SynchronousScheduler()), filtered.max(0).compute(new SynchronousScheduler()), "max(0)");
    }
}
