package org.tessera.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.property.Chain;
import org.tessera.array.property.Step;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;

/** The failures {@link SparkChunkedPropertyTest} found, shrunk, as plain tests. */
class SparkChunkedPropertyRegressionTest {

    /**
     * Caught: an array read from an in-memory NDArray ({@code Creation.fromSource(RegionSource.of(array))})
     * could not run on Spark: its read tasks capture the region source, which was not serializable.
     */
    @Test
    void arrayReadFromAnNDArrayRunsOnSpark() {
        new Chain(new long[] {}, DType.BOOL, 0L, 0L, List.of(new Step(Step.Kind.UNARY, 0, 0, 0, 0L))).run(LocalSpark.scheduler());
        NDArray values = NDArrays.arange(12).reshape(3, 4);
        ChunkedArray x = Creation.fromSource(RegionSource.of(values), ChunkSpec.explicit(new long[] {2, 0, 1}, new long[] {4}));
        assertEquals(values.toString(), x.compute(LocalSpark.scheduler()).toString());
        assertEquals("array(66)", x.sum().compute(LocalSpark.scheduler()).toString());
    }
}
