package org.tessera.bench.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;

/** The warm-up of a random-matrix workload builds the timed run's grid of blocks, at a fifth of the side. */
class RandomMatrixWorkloadTest {
    @Test
    void theWarmUpHasTheRunsGridInSmallerBlocks() {
        List<RandomMatrixWorkload> workloads = List.of(new TransposeMeanWorkload(), new GramWorkload(), new RechunkSumWorkload(),
                new FancyIndexSumWorkload(), new CumulativeSumWorkload(), new StencilWorkload());
        for (RandomMatrixWorkload workload : workloads) {
            ChunkedArray run = workload.input(false);
            ChunkedArray warmUp = workload.input(true);
            assertArrayEquals(run.chunks().blockCounts(), warmUp.chunks().blockCounts(), workload.name() + ": the same grid of blocks");
            for (int axis = 0; axis < run.ndim(); axis++) {
                assertEquals(run.shape(axis), warmUp.shape(axis) * RandomMatrixWorkload.WARM_UP_SCALE, workload.name() + ": a fifth of the side");
                assertEquals(run.chunks().axis(axis)[0], warmUp.chunks().axis(axis)[0] * RandomMatrixWorkload.WARM_UP_SCALE,
                        workload.name() + ": blocks a fifth of the side");
            }
        }
    }
}
