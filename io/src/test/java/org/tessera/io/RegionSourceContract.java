package org.tessera.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.tessera.io.TestArrays.assertSameArray;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/** The contract of a region source that a format provides; each format's test extends it. */
public abstract class RegionSourceContract {

    /** A source holding exactly {@code values}. */
    protected abstract RegionSource sourceOf(NDArray values) throws Exception;

    @Test
    void describesItsShapeAndDtype() throws Exception {
        NDArray values = TestArrays.random(DType.INT16, 1, 9, 4);
        RegionSource source = sourceOf(values);
        assertArrayEquals(new long[] {9, 4}, source.shape());
        assertEquals(DType.INT16, source.dtype());
    }

    @Test
    void everyRegionReadsTheValuesInIt() throws Exception {
        NDArray values = TestArrays.random(DType.FLOAT64, 2, 11, 7);
        RegionSource source = sourceOf(values);
        SplittableRandom random = new SplittableRandom(3);
        for (int trial = 0; trial < 20; trial++) {
            long[] start = {random.nextLong(11), random.nextLong(7)};
            long[] shape = {random.nextLong(12 - start[0]), random.nextLong(8 - start[1])};
            assertSameArray(values.slice(0, start[0], 1, shape[0]).slice(1, start[1], 1, shape[1]), source.read(start, shape),
                    "region " + java.util.Arrays.toString(start) + " " + java.util.Arrays.toString(shape));
        }
    }

    @Test
    void aChunkedArrayOverTheSourceComputesItsValues() throws Exception {
        NDArray values = TestArrays.random(DType.COMPLEX64, 4, 10, 6);
        RegionSource source = sourceOf(values);
        ChunkedArray array = Creation.fromSource(source, ChunkSpec.of(3, 4));
        assertSameArray(values, array.compute(), "computed");
        assertEquals(array.name(), Creation.fromSource(source, ChunkSpec.of(3, 4)).name(), "the same source gives the same name");
    }
}
