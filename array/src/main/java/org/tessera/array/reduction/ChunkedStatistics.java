package org.tessera.array.reduction;

import java.util.function.Function;

import org.tessera.array.ChunkedArray;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Reductions.Options;
import org.tessera.ndarray.ufunc.Statistics;

/**
 * NumPy's statistics over chunked arrays as tree reductions. The result dtype is what the NDArray
 * layer gives for a one-element array of the input's dtype, so it always agrees with NumPy's.
 * {@code axes} null means all axes.
 */
public final class ChunkedStatistics {
    private ChunkedStatistics() {
    }

    /** How a reduction is asked for: axes (null for all), keepdims, dtype (null for NumPy's default), split_every. */
    public record Request(int[] axes, boolean keepdims, DType dtype, int splitEvery) {
        public static Request all() {
            return new Request(null, false, null, TreeReduction.DEFAULT_SPLIT_EVERY);
        }

        public static Request axes(int... axes) {
            return new Request(axes, false, null, TreeReduction.DEFAULT_SPLIT_EVERY);
        }

        public Request keepdims(boolean keep) {
            return new Request(axes, keep, dtype, splitEvery);
        }

        public Request dtype(DType requested) {
            return new Request(axes, keepdims, requested, splitEvery);
        }

        public Request splitEvery(int every) {
            if (every < 2) {
                throw new IllegalArgumentException("split_every must be at least 2, got " + every);
            }
            return new Request(axes, keepdims, dtype, every);
        }

        Options sampleOptions() {
            return new Options(null, dtype, false, null, null);
        }
    }

    private static ChunkedArray tree(ChunkedArray x, ReductionKind kind, Request request, Function<NDArray, NDArray> sample) {
        NDArray meta = sample.apply(NDArray.zeros(x.dtype(), 1));
        return TreeReduction.reduce(x, kind, request.axes(), request.keepdims(), request.splitEvery(), meta);
    }

    public static ChunkedArray sum(ChunkedArray x, Request request) {
        return tree(x, Kinds.sum(request.dtype()), request, one -> Statistics.sum(one, request.sampleOptions()));
    }

    public static ChunkedArray prod(ChunkedArray x, Request request) {
        return tree(x, Kinds.prod(request.dtype()), request, one -> Statistics.prod(one, request.sampleOptions()));
    }

    public static ChunkedArray max(ChunkedArray x, Request request) {
        return tree(x, Kinds.max(), request, one -> Statistics.max(one, Options.all()));
    }

    public static ChunkedArray min(ChunkedArray x, Request request) {
        return tree(x, Kinds.min(), request, one -> Statistics.min(one, Options.all()));
    }

    public static ChunkedArray any(ChunkedArray x, Request request) {
        return tree(x, Kinds.any(), request, one -> Statistics.any(one, Options.all()));
    }

    public static ChunkedArray all(ChunkedArray x, Request request) {
        return tree(x, Kinds.all(), request, one -> Statistics.all(one, Options.all()));
    }

    public static ChunkedArray countNonzero(ChunkedArray x, Request request) {
        return tree(x, Kinds.countNonzero(), request, one -> Statistics.countNonzero(one, Options.all()));
    }

    public static ChunkedArray nansum(ChunkedArray x, Request request) {
        return tree(x, Kinds.nansum(request.dtype()), request, one -> Statistics.nansum(one, request.sampleOptions()));
    }

    public static ChunkedArray nanprod(ChunkedArray x, Request request) {
        return tree(x, Kinds.nanprod(request.dtype()), request, one -> Statistics.nanprod(one, request.sampleOptions()));
    }

    public static ChunkedArray nanmax(ChunkedArray x, Request request) {
        return tree(x, Kinds.nanmax(), request, one -> Statistics.nanmax(one, Options.all()));
    }

    public static ChunkedArray nanmin(ChunkedArray x, Request request) {
        return tree(x, Kinds.nanmin(), request, one -> Statistics.nanmin(one, Options.all()));
    }

    public static ChunkedArray mean(ChunkedArray x, Request request) {
        return moments(x, request, Statistics.mean(NDArray.zeros(x.dtype(), 1), request.sampleOptions()).dtype(), Kinds.mean(false, null));
    }

    public static ChunkedArray nanmean(ChunkedArray x, Request request) {
        return moments(x, request, Statistics.nanmean(NDArray.zeros(x.dtype(), 1), request.sampleOptions()).dtype(), Kinds.mean(true, null));
    }

    public static ChunkedArray var(ChunkedArray x, Request request, long ddof) {
        return moments(x, request, Statistics.var(NDArray.zeros(x.dtype(), 2), request.sampleOptions(), 0).dtype(), Kinds.var(false, ddof, null));
    }

    public static ChunkedArray std(ChunkedArray x, Request request, long ddof) {
        return moments(x, request, Statistics.std(NDArray.zeros(x.dtype(), 2), request.sampleOptions(), 0).dtype(), Kinds.std(false, ddof, null));
    }

    public static ChunkedArray nanvar(ChunkedArray x, Request request, long ddof) {
        return moments(x, request, Statistics.nanvar(NDArray.zeros(x.dtype(), 2), request.sampleOptions(), 0).dtype(), Kinds.var(true, ddof, null));
    }

    public static ChunkedArray nanstd(ChunkedArray x, Request request, long ddof) {
        return moments(x, request, Statistics.nanstd(NDArray.zeros(x.dtype(), 2), request.sampleOptions(), 0).dtype(), Kinds.std(true, ddof, null));
    }

    private static ChunkedArray moments(ChunkedArray x, Request request, DType resultType, ReductionKind kind) {
        Kinds.Moments moments = (Kinds.Moments) kind;
        ReductionKind typed = new Kinds.Moments(moments.name(), moments.skipNan(), moments.order(), moments.ddof(), resultType);
        return TreeReduction.reduce(x, typed, request.axes(), request.keepdims(), request.splitEvery(), NDArray.zeros(resultType, 0));
    }

    /** argmax along {@code axis}, or over the flattened array when it is null. */
    public static ChunkedArray argmax(ChunkedArray x, Integer axis, boolean keepdims) {
        return arg(x, axis, keepdims, true, false);
    }

    public static ChunkedArray argmin(ChunkedArray x, Integer axis, boolean keepdims) {
        return arg(x, axis, keepdims, false, false);
    }

    public static ChunkedArray nanargmax(ChunkedArray x, Integer axis, boolean keepdims) {
        return arg(x, axis, keepdims, true, true);
    }

    public static ChunkedArray nanargmin(ChunkedArray x, Integer axis, boolean keepdims) {
        return arg(x, axis, keepdims, false, true);
    }

    private static ChunkedArray arg(ChunkedArray x, Integer axis, boolean keepdims, boolean largest, boolean skipNan) {
        String name = (skipNan ? "nanarg" : "arg") + (largest ? "max" : "min");
        ArgKind kind = new ArgKind(name, largest, skipNan, axis == null);
        int[] axes = axis == null ? null : new int[] {axis};
        return TreeReduction.reduce(x, kind, axes, keepdims, TreeReduction.DEFAULT_SPLIT_EVERY, NDArray.zeros(DType.INT64, 0));
    }

    public static ChunkedArray cumsum(ChunkedArray x, Integer axis, DType dtype) {
        return CumulativeScan.scan(x, CumulativeScan.Kind.CUMSUM, axis, dtype);
    }

    public static ChunkedArray cumprod(ChunkedArray x, Integer axis, DType dtype) {
        return CumulativeScan.scan(x, CumulativeScan.Kind.CUMPROD, axis, dtype);
    }

    public static ChunkedArray nancumsum(ChunkedArray x, Integer axis, DType dtype) {
        return CumulativeScan.scan(x, CumulativeScan.Kind.NANCUMSUM, axis, dtype);
    }

    public static ChunkedArray nancumprod(ChunkedArray x, Integer axis, DType dtype) {
        return CumulativeScan.scan(x, CumulativeScan.Kind.NANCUMPROD, axis, dtype);
    }
}
