package org.tessera.array.reduction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
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
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.memory.Scratch;
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

    /**
     * What a chunk step keeps of its task's partial: arrays made in the task's scratch are copied
     * out (the next task reuses that memory); an array made outside it, or a view of all of one (a
     * block product with its unit axis), is kept as it is; a view of part of a larger array is
     * copied, so that it does not keep the rest alive.
     */
    @Test
    void aPartialIsCopiedOutOfScratchOrWhereItViewsPartOfAnArray() throws Exception {
        TreeReduction.ChunkStep step = new TreeReduction.ChunkStep(null, new int[] {1}, null, true);
        NDArray[] made = new NDArray[4];
        Object[] kept = (Object[]) step.scope(() -> {
            made[0] = Ufuncs.ADD.apply(NDArray.zeros(DType.FLOAT64, 300, 1), 2.0);
            made[1] = Scratch.outside(() -> NDArray.zeros(DType.FLOAT64, 300, 300));
            made[2] = made[1].reshape(300, 300, 1);
            made[3] = made[1].slice(1, 4, 1, 1);
            return new Object[] {made[0], made[1], made[2], made[3], 7.0};
        });
        assertTrue(Scratch.holds(made[0].segment()), "the task's own arrays are scratch memory");
        assertNotSame(made[0], kept[0]);
        assertTrue(!Scratch.holds(((NDArray) kept[0]).segment()), "copied out of the scratch");
        assertEquals(2.0, ((NDArray) kept[0]).getDouble(299, 0));
        assertSame(made[1], kept[1], "an array made outside the scratch is kept");
        assertSame(made[2], kept[2], "a view of all of such an array is kept");
        assertNotSame(made[3], kept[3]);
        assertTrue(((NDArray) kept[3]).ownsData(), "a view of one column of it is copied");
        assertEquals(7.0, kept[4]);
    }
}
