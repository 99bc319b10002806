package org.tessera.array.reduction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.tessera.array.SameValues.assertSameValues;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.Layer;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;

/**
 * The mean and the variance or standard deviation of the same blocks, computed together, read the
 * blocks once ({@link SharedMoments}): the mean's chunk step becomes the first parts of the
 * variance's, with the values the mean computed alone gives, bit for bit.
 */
class SharedMomentsTest {
    /** Held blocks (not generated), irregular, with NaNs, so nanmean and nanstd have something to skip. */
    private static ChunkedArray values() {
        NDArray dense = Creation.random(3, Creation.Distribution.NORMAL, new long[] {230, 170}, ChunkSpec.of(230, 170)).compute();
        dense.setDouble(Double.NaN, 5, 7);
        dense.setDouble(Double.NaN, 200, 100);
        return Creation.asarray(dense, ChunkSpec.explicit(new long[] {70, 90, 70}, new long[] {100, 70}));
    }

    private static void assertTogetherAsAlone(ChunkedArray mean, ChunkedArray spread) {
        List<NDArray> together = ChunkedArray.computeAll(new SynchronousScheduler(), List.of(mean, spread));
        assertSameValues(mean.compute(new SynchronousScheduler()), together.get(0), "mean");
        assertSameValues(spread.compute(new SynchronousScheduler()), together.get(1), "spread");
    }

    @Test
    void meanWithVarianceOrStdGivesWhatEachGivesAlone() {
        ChunkedArray x = values();
        assertTogetherAsAlone(x.mean(0), x.std(0, 0));
        assertTogetherAsAlone(x.mean(1), x.var(1, 1));
        assertTogetherAsAlone(x.nanmean(0), x.nanstd(0, 0));
        // The whole array, and a float32 input whose mean is float32.
        assertTogetherAsAlone(x.mean(), x.var());
        ChunkedArray narrow = x.astype(DType.FLOAT32);
        assertTogetherAsAlone(narrow.mean(0), narrow.std(0, 0));
    }

    @Test
    void theMeanReadsTheVarianceChunksWhereTheyMatch() {
        ChunkedArray x = values();
        HighLevelGraph merged = HighLevelGraph.merge(x.mean(0).graph(), x.std(0, 0).graph(), x.nanstd(1, 0).graph());
        HighLevelGraph shared = SharedMoments.apply(merged);
        Layer meanChunks = shared.layers().values().stream().filter(layer -> layer.name().startsWith("mean-chunk-")).findFirst().orElseThrow();
        assertInstanceOf(SharedMoments.FirstParts.class, ((BlockwiseLayer) meanChunks).function());
        String twin = shared.dependencies(meanChunks.name()).iterator().next();
        assertEquals(true, twin.startsWith("std-chunk-"), twin);
        // Layers stay in an order where each comes after what it reads.
        List<String> order = List.copyOf(shared.layers().keySet());
        assertEquals(true, order.indexOf(twin) < order.indexOf(meanChunks.name()), order.toString());
        // Different axes, or NaNs skipped on one side only, are left alone.
        HighLevelGraph unmatched = SharedMoments.apply(HighLevelGraph.merge(x.mean(0).graph(), x.std(0, 1).graph(), x.nanvar(0, 0).graph()));
        Layer alone = unmatched.layers().values().stream().filter(layer -> layer.name().startsWith("mean-chunk-")).findFirst().orElseThrow();
        assertNotEquals(SharedMoments.FirstParts.class, ((BlockwiseLayer) alone).function().getClass());
    }
}
