package org.tessera.bench.workload;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.tessera.array.RegionSource;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * The corner {@code [0, shape)} of a stored array, read as an array of its own: the stored
 * workloads warm up on it, so the warm-up reads the same chunks through the same codec and graph
 * as the timed run, on fewer blocks, without writing a store of its own.
 */
record CornerSource(RegionSource source, long[] shape) implements RegionSource {
    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public DType dtype() {
        return source.dtype();
    }

    @Override
    public NDArray read(long[] start, long[] regionShape) {
        return source.read(start, regionShape);
    }

    @Override
    public Optional<SlabReader> slabs(long[] start, long[] regionShape) {
        return source.slabs(start, regionShape);
    }

    @Override
    public Object identity() {
        return List.of("corner", source.identity(), Arrays.toString(shape));
    }
}
