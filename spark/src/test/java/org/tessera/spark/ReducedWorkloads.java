package org.tessera.spark;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.ndarray.NDArray;

/**
 * W1, W2 and W4 of bench/WORKLOADS.md with the same expressions and block shapes, on
 * matrices a hundred times smaller (W1: 20000 → 200 per side, blocks 2000 → 50; W2: 20000 x 4000 →
 * 400 x 80, blocks 40; W4: 16000 → 320 per side, strips 250 → 20 wide).
 */
final class ReducedWorkloads {
    private ReducedWorkloads() {
    }

    /** W1: {@code (x + x.T).mean(axis=0)}. */
    static NDArray transposeMean(Scheduler scheduler) {
        ChunkedArray x = Creation.random(0, Creation.Distribution.UNIFORM, new long[] {200, 200}, ChunkSpec.of(50, 50));
        return x.add(x.T()).mean(0).compute(scheduler);
    }

    /** W2: {@code A.T @ A}. */
    static NDArray gram(Scheduler scheduler) {
        ChunkedArray a = Creation.random(1, Creation.Distribution.UNIFORM, new long[] {400, 80}, ChunkSpec.of(40, 40));
        return a.T().matmul(a).compute(scheduler);
    }

    /** W4: {@code x.rechunk((250, 16000)).sum()}: column strips to row strips. */
    static NDArray rechunkSum(Scheduler scheduler) {
        ChunkedArray x = Creation.random(2, Creation.Distribution.UNIFORM, new long[] {320, 320}, ChunkSpec.of(320, 20));
        return x.rechunk(ChunkSpec.of(20, -1)).sum().compute(scheduler);
    }
}
