package org.tessera.bench.workload;

import java.util.Map;

import org.tessera.array.ChunkedArray;
import org.tessera.array.overlap.Boundary;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Ufuncs;

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
     * The 3 x 3 mean of every element with all 8 neighbours in the block (the ghost ring keeps its
     * values and is trimmed away); the 3 x 3 sum is separable, three rows then three columns.
     */
    static NDArray meanFilter(NDArray block) {
        long rows = block.shape(0);
        long columns = block.shape(1);
        NDArray result = block.astype(DType.FLOAT64);
        if (rows < 3 || columns < 3) {
            return result;
        }
        NDArray rowSums = Ufuncs.ADD.apply(Ufuncs.ADD.apply(block.slice(0, 0, 1, rows - 2), block.slice(0, 1, 1, rows - 2)), block.slice(0, 2, 1, rows - 2));
        NDArray sums = Ufuncs.ADD.apply(Ufuncs.ADD.apply(rowSums.slice(1, 0, 1, columns - 2), rowSums.slice(1, 1, 1, columns - 2)),
                rowSums.slice(1, 2, 1, columns - 2));
        result.slice(0, 1, 1, rows - 2).slice(1, 1, 1, columns - 2).assign(Ufuncs.MULTIPLY.apply(sums, 1.0 / 9));
        return result;
    }
}
