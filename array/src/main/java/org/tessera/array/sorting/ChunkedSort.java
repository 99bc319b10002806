package org.tessera.array.sorting;

import java.nio.file.Path;
import java.util.Objects;

import org.tessera.array.ChunkedArray;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;
import org.tessera.ndarray.sort.Quantiles;
import org.tessera.ndarray.sort.SortKind;

/**
 * Sorting across chunks, which Dask does not offer: {@code sort} and {@code argsort} along an
 * axis, {@code unique}, and exact {@code quantile}, {@code percentile} and {@code median}, with
 * NumPy's answers (NaN last, -0.0 equal to 0.0 and kept in input order, ties of argsort in index
 * order: every kind is served by one stable sort, as for NDArray).
 *
 * <p>A sample sort ({@link SampleSort}): each block is sorted along the axis, the cut of every
 * sorted run at each output block boundary is found exactly by multi-sequence selection (its
 * regular samples narrow each search to a page), and each output block merges only its pieces of
 * the runs. The result has the input's chunks, known before anything runs. The blocks that share
 * their position on the other axes are sorted together, each such group on its own.
 *
 * <p>Out of core: where a group of blocks holds more than {@link Options#inMemoryBytes()} (64 MiB by
 * default), the sorted runs are written to a scratch directory under {@link Options#scratch()} (one
 * per computation, deleted when its last reader is done) instead of being held as task results,
 * and every other task reads only pages and pieces of them; a task then holds its block, its output
 * block, and a window of {@value RunMerge#WINDOW} elements per run. With Zarr stores on both ends
 * this sorts arrays far larger than memory. The scratch directory must be reachable by every task:
 * a local directory for the threaded scheduler or Spark in local mode, a shared one on a cluster.
 * The runs of a group are deleted by the last of its merges (or by its selection); a computation
 * that asks for only some blocks of a sorted array leaves the others' runs until the JVM exits.
 *
 * <p>Example: {@code ChunkedSort.sort(x, 0)} of {@code x = [3, nan, -0.0, 1 | 0.0, -2, 1]} in blocks
 * of 4 and 3 gives {@code [-2, -0.0, 0.0, 1 | 1, 3, nan]} in the same blocks.
 */
public final class ChunkedSort {
    private ChunkedSort() {
    }

    /**
     * Where and when a sort goes out of core.
     *
     * @param scratch       the directory under which each computation makes its scratch directory
     * @param inMemoryBytes the most bytes (values, and positions for argsort) a group of blocks along
     *                      the axis may hold for its sorted runs to stay task results in memory
     */
    public record Options(Path scratch, long inMemoryBytes) {
        public Options {
            Objects.requireNonNull(scratch);
            if (inMemoryBytes < 0) {
                throw new IllegalArgumentException("sort: inMemoryBytes must not be negative, got " + inMemoryBytes);
            }
        }

        /** The system temporary directory; runs of groups up to 64 MiB stay in memory. */
        public static Options defaults() {
            return new Options(Path.of(System.getProperty("java.io.tmpdir")), 64L << 20);
        }

        /** Every run in a scratch directory under {@code scratch}. */
        public static Options outOfCore(Path scratch) {
            return new Options(scratch, 0);
        }

        /** Every run a task result (the scheduler's memory budget, if any, spills them whole). */
        public static Options inMemory() {
            return new Options(Path.of(System.getProperty("java.io.tmpdir")), Long.MAX_VALUE);
        }

        public Options withScratch(Path newScratch) {
            return new Options(newScratch, inMemoryBytes);
        }

        public Options withInMemoryBytes(long newInMemoryBytes) {
            return new Options(scratch, newInMemoryBytes);
        }
    }

    /** NumPy's {@code sort(x)}: along the last axis. */
    public static ChunkedArray sort(ChunkedArray x) {
        return sort(x, -1, SortKind.QUICKSORT, Options.defaults());
    }

    /** NumPy's {@code sort(x, axis)}; a null axis sorts the flattened array. */
    public static ChunkedArray sort(ChunkedArray x, Integer axis) {
        return sort(x, axis, SortKind.QUICKSORT, Options.defaults());
    }

    public static ChunkedArray sort(ChunkedArray x, Integer axis, SortKind kind) {
        return sort(x, axis, kind, Options.defaults());
    }

    /** The sorted array, in x's chunks (for a null axis, in the chunks of {@code x.ravel()}). */
    public static ChunkedArray sort(ChunkedArray x, Integer axis, SortKind kind, Options options) {
        Objects.requireNonNull(kind);
        ChunkedArray source = axis == null ? x.ravel() : x;
        return SampleSort.sorted(source, axis == null ? 0 : Shapes.normalizeAxis(axis, x.ndim()), false, options);
    }

    /** NumPy's {@code argsort(x)}: int64 indices along the last axis, ties in index order. */
    public static ChunkedArray argsort(ChunkedArray x) {
        return argsort(x, -1, SortKind.STABLE, Options.defaults());
    }

    public static ChunkedArray argsort(ChunkedArray x, Integer axis) {
        return argsort(x, axis, SortKind.STABLE, Options.defaults());
    }

    public static ChunkedArray argsort(ChunkedArray x, Integer axis, SortKind kind) {
        return argsort(x, axis, kind, Options.defaults());
    }

    /**
     * NumPy's {@code argsort(x, axis, kind="stable")}: the int64 positions along the axis (in the
     * flattened array for a null axis) that sort x. A 0-d x is argsorted as its 1-d ravel, as NumPy does.
     */
    public static ChunkedArray argsort(ChunkedArray x, Integer axis, SortKind kind, Options options) {
        Objects.requireNonNull(kind);
        if (x.ndim() == 0 && axis != null) {
            Shapes.normalizeAxis(axis, 1);
        }
        ChunkedArray source = axis == null || x.ndim() == 0 ? x.ravel() : x;
        return SampleSort.sorted(source, axis == null || x.ndim() == 0 ? 0 : Shapes.normalizeAxis(axis, x.ndim()), true, options);
    }

    /**
     * NumPy 2's {@code unique(x)}: the sorted distinct values of the flattened array, NaNs as one,
     * -0.0 and 0.0 as one. Nothing is computed here: the result's block lengths are unknown
     * ({@link org.tessera.array.chunks.Chunks#UNKNOWN}) until its blocks are, as after Dask's
     * boolean indexing; {@link ChunkedArray#computeChunkSizes()} finds them.
     */
    public static ChunkedArray unique(ChunkedArray x) {
        return unique(x, Options.defaults());
    }

    public static ChunkedArray unique(ChunkedArray x, Options options) {
        return SampleSort.unique(x.ravel(), options);
    }

    /** NumPy's {@code quantile(x, q, axis, method=method, keepdims=keepdims)} for an array q (0-d to 2-d) in [0, 1]. */
    public static ChunkedArray quantile(ChunkedArray x, NDArray q, Integer axis, String method, boolean keepdims) {
        return quantile(x, q, axis, method, keepdims, Options.defaults());
    }

    public static ChunkedArray quantile(ChunkedArray x, NDArray q, Integer axis, String method, boolean keepdims, Options options) {
        return quantiles("quantile", x, q.astype(DType.FLOAT64), false, axis, method, keepdims, "Quantiles must be in the range [0, 1]", options);
    }

    /** The same for a Python float q, which is weak: the result of float data keeps their dtype. */
    public static ChunkedArray quantile(ChunkedArray x, double q, Integer axis, String method, boolean keepdims) {
        return quantile(x, q, axis, method, keepdims, Options.defaults());
    }

    public static ChunkedArray quantile(ChunkedArray x, double q, Integer axis, String method, boolean keepdims, Options options) {
        return quantiles("quantile", x, NDArray.scalar(q), true, axis, method, keepdims, "Quantiles must be in the range [0, 1]", options);
    }

    /** NumPy's {@code quantile(x, q, axis, method=method)} for q given as a 1-d array: the result's first axis is q's. */
    public static ChunkedArray quantile(ChunkedArray x, double[] q, Integer axis, String method) {
        return quantile(x, org.tessera.ndarray.api.NDArrays.array(q), axis, method, false);
    }

    /** NumPy's {@code percentile}: quantiles q / 100 (q in [0, 100]). */
    public static ChunkedArray percentile(ChunkedArray x, NDArray q, Integer axis, String method, boolean keepdims) {
        return percentile(x, q, axis, method, keepdims, Options.defaults());
    }

    public static ChunkedArray percentile(ChunkedArray x, NDArray q, Integer axis, String method, boolean keepdims, Options options) {
        return quantiles("percentile", x, Quantiles.hundredths(q.astype(DType.FLOAT64)), false, axis, method, keepdims,
                "Percentiles must be in the range [0, 100]", options);
    }

    public static ChunkedArray percentile(ChunkedArray x, double q, Integer axis, String method, boolean keepdims) {
        return percentile(x, q, axis, method, keepdims, Options.defaults());
    }

    public static ChunkedArray percentile(ChunkedArray x, double q, Integer axis, String method, boolean keepdims, Options options) {
        return quantiles("percentile", x, NDArray.scalar(q / 100), true, axis, method, keepdims, "Percentiles must be in the range [0, 100]", options);
    }

    public static ChunkedArray percentile(ChunkedArray x, double[] q, Integer axis, String method) {
        return percentile(x, org.tessera.ndarray.api.NDArrays.array(q), axis, method, false);
    }

    /** NumPy's {@code median(x, axis, keepdims=keepdims)}: NaN where a lane holds NaN, and for empty lanes. */
    public static ChunkedArray median(ChunkedArray x, Integer axis, boolean keepdims) {
        return median(x, axis, keepdims, Options.defaults());
    }

    public static ChunkedArray median(ChunkedArray x, Integer axis) {
        return median(x, axis, false, Options.defaults());
    }

    public static ChunkedArray median(ChunkedArray x, Integer axis, boolean keepdims, Options options) {
        Quantiles.requireReal(x.dtype());
        SampleSort.QuantileRequest request = new SampleSort.QuantileRequest("median", new double[0], new long[0], false, "linear", true);
        return reduce(x, axis, keepdims, request, options);
    }

    private static ChunkedArray quantiles(String label, ChunkedArray x, NDArray q, boolean weak, Integer axis, String method, boolean keepdims,
                                          String rangeMessage, Options options) {
        Quantiles.requireReal(x.dtype());
        Quantiles.checkRange(q, rangeMessage);
        double[] values = new double[Math.toIntExact(q.size())];
        NDArray flat = q.reshape(q.size());
        for (int i = 0; i < values.length; i++) {
            values[i] = flat.getDouble(i);
        }
        SampleSort.QuantileRequest request = new SampleSort.QuantileRequest(label, values, q.shape(), weak, method, false);
        return reduce(x, axis, keepdims, request, options);
    }

    private static ChunkedArray reduce(ChunkedArray x, Integer axis, boolean keepdims, SampleSort.QuantileRequest request, Options options) {
        if (axis == null) {
            return SampleSort.quantile(x.ravel(), 0, keepdims, null, x.shape(), request, options);
        }
        int normalized = Shapes.normalizeAxis(axis, x.ndim());
        return SampleSort.quantile(x, normalized, keepdims, axis, x.shape(), request, options);
    }
}
