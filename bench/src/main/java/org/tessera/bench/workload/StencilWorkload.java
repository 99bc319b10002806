package org.tessera.bench.workload;

import java.util.Map;

import org.tessera.array.ChunkedArray;
import org.tessera.array.overlap.Boundary;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.filter.EdgeMode;
import org.tessera.ndarray.filter.UniformFilter;

/**
 * W8: a 3 x 3 mean filter with {@code map_overlap} (depth 1, boundary reflect), then {@code .sum()},
 * for x uniform [0, 1) of 10000 x 10000 in 1000 x 1000 blocks.
 */
final class StencilWorkload extends SquareRandomWorkload {
    StencilWorkload() {
        super("W8", 10_000, 1_000);
    }

    @Override
    double compute(ChunkedArray x) {
        return x.mapOverlap(StencilWorkload::meanFilter, 1, Boundary.REFLECT).sum().compute().getDouble();
    }

    @Override
    boolean accepts(double value, long side) {
        return Math.abs(value / ((double) side * side) - 0.5) < 1e-3;
    }

    @Override
    void addParams(Map<String, Object> params) {
        params.put("depth", 1);
        params.put("boundary", "reflect");
    }

    /**
     * The 3 x 3 mean of every element of the enlarged block, by the ndarray layer's uniform filter
     * (scipy.ndimage's {@code uniform_filter}): one pass over the block. The ghost ring's own means,
     * which the filter's edge mode makes, are trimmed away by mapOverlap.
     */
    static NDArray meanFilter(NDArray block) {
        return UniformFilter.apply(block, 3, EdgeMode.REFLECT);
    }
}
