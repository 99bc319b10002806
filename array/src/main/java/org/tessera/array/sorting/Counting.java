package org.tessera.array.sorting;

import java.util.Arrays;
import java.util.List;

import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.reduction.TreeReduction;
import org.tessera.graph.Key;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.optimize.Optimization;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;

/**
 * {@code unique}, {@code histogram} and {@code bincount} of chunked arrays: each block is reduced
 * to its distinct values or its counts, and the partials are merged by a tree ({@link PartialTree}).
 */
public final class Counting {
    private Counting() {
    }

    /** A histogram: the counts per bin (int64) and the bin edges. */
    public record Histogram(ChunkedArray counts, NDArray edges) {
    }

    /**
     * NumPy's {@code unique(x)}: the sorted distinct values of all elements, NaNs collapsed. It is
     * computed at once (with the default scheduler unless one is given), because its length is
     * not known before: per-block uniques are merged a few at a time, so no task holds more than
     * {@code splitEvery} blocks' distinct values.
     */
    public static NDArray unique(ChunkedArray x) {
        return unique(x, ChunkedArray.defaultScheduler());
    }

    public static NDArray unique(ChunkedArray x, Scheduler scheduler) {
        TaskFunction chunkStep = TaskFunction.named("unique-chunk", arguments -> NDArrays.unique(Blocks.dense(arguments.get(0), "unique")));
        TaskFunction combineStep = TaskFunction.named("unique-combine",
                arguments -> NDArrays.unique(NDArrays.concatenate(PartialTree.partials(arguments), 0)));
        // A block's distinct values are at most its elements; a sort copies, sorts and masks them (three arrays of the block's size).
        long item = x.dtype().byteSize();
        PartialTree.Partials sizes = new PartialTree.Partials(0, item, Math.multiplyExact(x.size(), item), 4.0 * item, 0, 3);
        ChunkedArray tree = PartialTree.reduce("unique", x, chunkStep, combineStep, TreeReduction.DEFAULT_SPLIT_EVERY, new long[] {Chunks.UNKNOWN},
                x.dtype(), sizes);
        Key result = tree.flatKeys().getFirst();
        return (NDArray) scheduler.compute(Optimization.optimize(tree.graph(), List.of(result)), List.of(result)).get(result);
    }

    /** {@code binCount} equal bins over {@code [min, max]}, as NumPy's {@code histogram(x, bins, range)}. */
    public static Histogram histogram(ChunkedArray x, int binCount, double min, double max) {
        if (binCount < 1) {
            throw new IllegalArgumentException("histogram: the number of bins must be positive, got " + binCount);
        }
        if (!(min <= max) || Double.isInfinite(min) || Double.isInfinite(max)) {
            throw new IllegalArgumentException("histogram: the range [" + min + ", " + max + "] must be finite with min <= max");
        }
        double low = min == max ? min - 0.5 : min;
        double high = min == max ? max + 0.5 : max;
        return histogram(x, NDArrays.linspace(low, high, binCount + 1L));
    }

    /**
     * Counts of all elements per bin, NumPy's {@code histogram(x, bins=edges)}: bin i holds
     * {@code edges[i] <= v < edges[i + 1]}, the last bin also its right edge; values outside the
     * edges and NaN are not counted.
     */
    public static Histogram histogram(ChunkedArray x, NDArray edges) {
        if (edges.ndim() != 1 || edges.size() < 2) {
            throw new IllegalArgumentException("histogram: bins must be a 1-D array of at least 2 edges, got shape " + Shapes.format(edges.shape()));
        }
        double[] bounds = new double[(int) edges.size()];
        for (int i = 0; i < bounds.length; i++) {
            bounds[i] = edges.getDouble(i);
            if (i > 0 && !(bounds[i] >= bounds[i - 1])) {
                throw new IllegalArgumentException("histogram: bins must increase monotonically, got " + edges);
            }
        }
        TaskFunction chunkStep = TaskFunction.named("histogram-chunk", arguments -> countInBins(Blocks.dense(arguments.get(0), "histogram"), bounds));
        TaskFunction combineStep = TaskFunction.named("histogram-combine", arguments -> sum(PartialTree.partials(arguments)));
        // Counts per bin; a block is copied to be read flat, and counted into a long[] of the bins.
        long countBytes = (bounds.length - 1L) * Long.BYTES;
        PartialTree.Partials sizes = new PartialTree.Partials(countBytes, 0, countBytes, x.dtype().byteSize(), countBytes, 0);
        ChunkedArray counts = PartialTree.reduce("histogram", x, chunkStep, combineStep, TreeReduction.DEFAULT_SPLIT_EVERY,
                new long[] {bounds.length - 1}, DType.INT64, sizes);
        return new Histogram(counts, edges.astype(DType.FLOAT64).copy());
    }

    /**
     * NumPy's {@code bincount(x, minlength)} of a 1-D array of non-negative integers. The result's
     * length must be known before computing, so it is {@code minlength}, which must be positive and
     * above every value of x; a larger value raises an exception naming it when computed (Dask
     * instead leaves the length unknown).
     */
    public static ChunkedArray bincount(ChunkedArray x, int minlength) {
        if (x.ndim() != 1) {
            throw new IllegalArgumentException("bincount: needs a 1-D array, got shape " + Shapes.format(x.shape()));
        }
        if (!x.dtype().isInteger() && !x.dtype().isBool()) {
            throw new IllegalArgumentException("bincount: needs integers, got " + x.dtype().numpyName());
        }
        if (minlength < 1) {
            throw new IllegalArgumentException("bincount: minlength must be positive (it is the result's length), got " + minlength);
        }
        TaskFunction chunkStep = TaskFunction.named("bincount-chunk", arguments -> countValues(Blocks.dense(arguments.get(0), "bincount"), minlength));
        TaskFunction combineStep = TaskFunction.named("bincount-combine", arguments -> sum(PartialTree.partials(arguments)));
        // Counts per value, counted into a long[] of minlength.
        long countBytes = (long) minlength * Long.BYTES;
        PartialTree.Partials sizes = new PartialTree.Partials(countBytes, 0, countBytes, 0, countBytes, 0);
        return PartialTree.reduce("bincount", x, chunkStep, combineStep, TreeReduction.DEFAULT_SPLIT_EVERY, new long[] {minlength}, DType.INT64, sizes);
    }

    static NDArray countInBins(NDArray block, double[] bounds) {
        int bins = bounds.length - 1;
        long[] counts = new long[bins];
        NDArray flat = block.copy().reshape(block.size());
        for (long i = 0; i < flat.size(); i++) {
            double value = flat.getDouble(i);
            if (!(value >= bounds[0] && value <= bounds[bins])) {
                continue;
            }
            int bin = Arrays.binarySearch(bounds, value);
            if (bin >= 0) {
                // An edge belongs to the bin it starts; equal edges repeat, so take the last one equal to value.
                while (bin + 1 < bounds.length && bounds[bin + 1] == value) {
                    bin++;
                }
            } else {
                bin = -bin - 2;
            }
            counts[Math.min(bin, bins - 1)]++;
        }
        return NDArrays.array(counts);
    }

    static NDArray countValues(NDArray block, int length) {
        long[] counts = new long[length];
        for (long i = 0; i < block.size(); i++) {
            long value = block.dtype().isBool() ? (block.getBoolean(i) ? 1 : 0) : block.getLong(i);
            if (value < 0) {
                throw new IllegalArgumentException("bincount: the values must be non-negative, found " + value);
            }
            if (value >= length) {
                throw new IllegalArgumentException("bincount: found the value " + value + ", at or above minlength " + length
                        + ", the declared length of the result; pass a larger minlength");
            }
            counts[(int) value]++;
        }
        return NDArrays.array(counts);
    }

    static NDArray sum(List<NDArray> partials) {
        NDArray total = partials.getFirst().copy();
        for (NDArray partial : partials.subList(1, partials.size())) {
            total = NDArrays.add(total, partial);
        }
        return total;
    }
}
