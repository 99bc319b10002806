package org.tessera.ndarray.api;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.dtype.Promotion;
import org.tessera.ndarray.fft.Fft;
import org.tessera.ndarray.fft.FftNorm;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.index.Indexing;
import org.tessera.ndarray.join.Joining;
import org.tessera.ndarray.layout.Shapes;
import org.tessera.ndarray.ufunc.Reductions;
import org.tessera.ndarray.ufunc.Reductions.Options;
import org.tessera.ndarray.ufunc.Statistics;
import org.tessera.ndarray.ufunc.Ufunc;
import org.tessera.ndarray.ufunc.Ufuncs;
import org.tessera.ndarray.linalg.Einsum;
import org.tessera.ndarray.linalg.Matmul;
import org.tessera.ndarray.linalg.Products;
import org.tessera.ndarray.linalg.Trace;
import org.tessera.ndarray.sort.Quantiles;
import org.tessera.ndarray.sort.Searching;
import org.tessera.ndarray.sort.SortKind;
import org.tessera.ndarray.sort.Sorting;
import org.tessera.ndarray.sort.Unique;

/**
 * The dense family's entry point: creation functions and the functions NumPy users call as
 * {@code np.xxx}. Java arrays map onto dtypes by their element type ({@code double[]} is float64,
 * {@code int[]} int32, {@code boolean[]} bool); every result owns its memory unless it says "view".
 */
public final class NDArrays {
    private NDArrays() {}

    // ---------------------------------------------------------------- filled arrays

    /** A new array of zeros. */
    public static NDArray zeros(DType dtype, long... shape) {
        return NDArray.zeros(dtype, shape);
    }

    /** A new array of ones. */
    public static NDArray ones(DType dtype, long... shape) {
        return full(dtype, 1, shape);
    }

    /** A new array with every element {@code value} cast to {@code dtype}. */
    public static NDArray full(DType dtype, double value, long... shape) {
        NDArray result = NDArray.zeros(dtype, shape);
        result.fill(value);
        return result;
    }

    /** A new array of zeros with the shape and dtype of {@code like}. */
    public static NDArray zerosLike(NDArray like) {
        return NDArray.zeros(like.dtype(), like.shape());
    }

    /** A new array of ones with the shape and dtype of {@code like}. */
    public static NDArray onesLike(NDArray like) {
        return ones(like.dtype(), like.shape());
    }

    /** A new array filled with {@code value}, with the shape and dtype of {@code like}. */
    public static NDArray fullLike(NDArray like, double value) {
        return full(like.dtype(), value, like.shape());
    }

    /** The identity matrix of size {@code n} in float64. */
    public static NDArray identity(long n) {
        return eye(n, n, 0, DType.FLOAT64);
    }

    /** An (rows, columns) array with ones on diagonal {@code k} (positive: above the main diagonal). */
    public static NDArray eye(long rows, long columns, long k, DType dtype) {
        NDArray result = NDArray.zeros(dtype, rows, columns);
        NDArray diagonal = writableDiagonal(result, k);
        diagonal.fill(1);
        return result;
    }

    private static NDArray writableDiagonal(NDArray matrix, long k) {
        long rows = matrix.shape(0);
        long columns = matrix.shape(1);
        long start = k >= 0 ? k : -k * columns;
        long length = Math.max(0, k >= 0 ? Math.min(rows, columns - k) : Math.min(rows + k, columns));
        long stride = matrix.byteStride(0) + matrix.byteStride(1);
        long itemSize = matrix.dtype().byteSize();
        return NDArray.wrap(matrix.segment(), length == 0 ? 0 : start * itemSize, new long[] {length}, new long[] {stride},
                matrix.dtype(), true);
    }

    // ---------------------------------------------------------------- ranges

    /** {@code 0, 1, ..., stop - 1} as int64. */
    public static NDArray arange(long stop) {
        return arange(0, stop, 1);
    }

    /** {@code start, start + step, ...} below {@code stop} (above, for a negative step), as int64. */
    public static NDArray arange(long start, long stop, long step) {
        if (step == 0) {
            throw new IllegalArgumentException("Maximum allowed size exceeded: arange step must not be zero");
        }
        long length = Math.max(0, step > 0 ? Math.ceilDiv(stop - start, step) : Math.ceilDiv(start - stop, -step));
        NDArray result = NDArray.zeros(DType.INT64, length);
        MemorySegment segment = result.segment();
        for (long i = 0; i < length; i++) {
            segment.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, start + i * step);
        }
        return result;
    }

    /** Evenly spaced float64 values in [start, stop) with {@code step}, as NumPy's float arange. */
    public static NDArray arange(double start, double stop, double step) {
        if (step == 0 || Double.isNaN(step)) {
            throw new IllegalArgumentException("arange step must be a non-zero number, got " + step);
        }
        long length = (long) Math.max(0, Math.ceil((stop - start) / step));
        NDArray result = NDArray.zeros(DType.FLOAT64, length);
        MemorySegment segment = result.segment();
        for (long i = 0; i < length; i++) {
            segment.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, start + i * step);
        }
        return result;
    }

    /** {@code count} evenly spaced float64 values from {@code start} to {@code stop} inclusive. */
    public static NDArray linspace(double start, double stop, long count) {
        if (count < 0) {
            throw new IllegalArgumentException("Number of samples, " + count + ", must be non-negative.");
        }
        NDArray result = NDArray.zeros(DType.FLOAT64, count);
        MemorySegment segment = result.segment();
        long divisions = count - 1;
        double step = divisions > 0 ? (stop - start) / divisions : 0;
        for (long i = 0; i < count; i++) {
            segment.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, start + i * step);
        }
        if (count > 1) {
            segment.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, count - 1, stop);
        }
        return result;
    }

    // ---------------------------------------------------------------- from Java arrays

    /** A float64 vector holding a copy of {@code values}. */
    public static NDArray array(double... values) {
        return copyOf(MemorySegment.ofArray(values), DType.FLOAT64, values.length);
    }

    /** A float32 vector holding a copy of {@code values}. */
    public static NDArray array(float... values) {
        return copyOf(MemorySegment.ofArray(values), DType.FLOAT32, values.length);
    }

    /** An int64 vector holding a copy of {@code values}. */
    public static NDArray array(long... values) {
        return copyOf(MemorySegment.ofArray(values), DType.INT64, values.length);
    }

    /** An int32 vector holding a copy of {@code values}. */
    public static NDArray array(int... values) {
        return copyOf(MemorySegment.ofArray(values), DType.INT32, values.length);
    }

    /** An int16 vector holding a copy of {@code values}. */
    public static NDArray array(short... values) {
        return copyOf(MemorySegment.ofArray(values), DType.INT16, values.length);
    }

    /** An int8 vector holding a copy of {@code values}. */
    public static NDArray array(byte... values) {
        return copyOf(MemorySegment.ofArray(values), DType.INT8, values.length);
    }

    /** A bool vector holding {@code values}. */
    public static NDArray array(boolean... values) {
        NDArray result = NDArray.zeros(DType.BOOL, values.length);
        for (int i = 0; i < values.length; i++) {
            result.setBoolean(values[i], i);
        }
        return result;
    }

    /** A float64 matrix from rows of equal length. */
    public static NDArray array(double[]... rows) {
        long columns = rows.length == 0 ? 0 : rows[0].length;
        NDArray result = NDArray.zeros(DType.FLOAT64, rows.length, columns);
        for (int row = 0; row < rows.length; row++) {
            if (rows[row].length != columns) {
                throw new IllegalArgumentException("setting an array element with a sequence: row 0 has " + columns
                        + " elements but row " + row + " has " + rows[row].length);
            }
            MemorySegment.copy(MemorySegment.ofArray(rows[row]), 0, result.segment(), row * columns * Double.BYTES,
                    columns * Double.BYTES);
        }
        return result;
    }

    private static NDArray copyOf(MemorySegment source, DType dtype, long length) {
        NDArray result = NDArray.zeros(dtype, length);
        MemorySegment.copy(source, 0, result.segment(), result.byteOffset(), length * dtype.byteSize());
        return result;
    }

    // ---------------------------------------------------------------- indexing, joining, broadcasting

    /** NumPy's {@code x[index]}: a view for basic indices, a copy when any index is advanced. */
    public static NDArray get(NDArray x, Index... index) {
        return Indexing.get(x, index);
    }

    /** NumPy's {@code x[index] = value}: the value is broadcast to the selection and cast unsafely. */
    public static void set(NDArray x, NDArray value, Index... index) {
        Indexing.set(x, value, index);
    }

    /** Joins arrays along an existing axis. */
    public static NDArray concatenate(List<NDArray> arrays, int axis) {
        return Joining.concatenate(arrays, axis);
    }

    /** Joins arrays of one shape along a new axis. */
    public static NDArray stack(List<NDArray> arrays, int axis) {
        return Joining.stack(arrays, axis);
    }

    /** The shape that all given shapes broadcast to. */
    public static long[] broadcastShapes(long[]... shapes) {
        return Shapes.broadcast(shapes);
    }

    /** Read-only views of every array broadcast to their common shape. */
    public static List<NDArray> broadcastArrays(NDArray... arrays) {
        long[][] shapes = new long[arrays.length][];
        for (int i = 0; i < arrays.length; i++) {
            shapes[i] = arrays[i].shape();
        }
        long[] shape = Shapes.broadcast(shapes);
        return Arrays.stream(arrays).map(array -> array.broadcastTo(shape)).toList();
    }

    /**
     * NumPy 2's {@code result_type}: each operand is a {@link DType}, an {@link NDArray} (its
     * dtype), or a Java scalar, which is "weak" (NEP 50) and does not widen an array's kind.
     */
    public static DType resultType(Object... operands) {
        Object[] resolved = new Object[operands.length];
        for (int i = 0; i < operands.length; i++) {
            resolved[i] = operands[i] instanceof NDArray array ? array.dtype() : operands[i];
        }
        return Promotion.resultType(resolved);
    }

    // ---------------------------------------------------------------- ufuncs

    /** The ufunc called {@code name} in NumPy ({@code "add"}, {@code "true_divide"}, also {@code "divide"}). */
    public static Ufunc ufunc(String name) {
        return Ufuncs.byName(name);
    }

    /** {@code ufunc.reduce} with its options (axes, dtype, keepdims, initial, where). */
    public static NDArray reduce(Ufunc ufunc, NDArray x, Options options) {
        return Reductions.reduce(ufunc, x, options);
    }

    /** {@code ufunc.accumulate(x, axis)}. */
    public static NDArray accumulate(Ufunc ufunc, NDArray x, int axis) {
        return Reductions.accumulate(ufunc, x, axis, null);
    }

    /** {@code ufunc.reduceat(x, indices, axis)}. */
    public static NDArray reduceat(Ufunc ufunc, NDArray x, long[] indices, int axis) {
        return Reductions.reduceat(ufunc, x, indices, axis, null);
    }

    /** {@code ufunc.outer(a, b)}. */
    public static NDArray outer(Ufunc ufunc, NDArray a, NDArray b) {
        return Reductions.outer(ufunc, a, b);
    }

    // ---------------------------------------------------------------- elementwise shorthands

    public static NDArray add(Object a, Object b) { return Ufuncs.ADD.apply(a, b); }

    public static NDArray subtract(Object a, Object b) { return Ufuncs.SUBTRACT.apply(a, b); }

    public static NDArray multiply(Object a, Object b) { return Ufuncs.MULTIPLY.apply(a, b); }

    public static NDArray divide(Object a, Object b) { return Ufuncs.TRUE_DIVIDE.apply(a, b); }

    public static NDArray sqrt(Object x) { return Ufuncs.SQRT.apply(x); }

    public static NDArray exp(Object x) { return Ufuncs.EXP.apply(x); }

    public static NDArray log(Object x) { return Ufuncs.LOG.apply(x); }

    public static NDArray clip(Object x, Object low, Object high) { return Ufuncs.CLIP.apply(x, low, high); }

    /** {@code np.where(condition, x, y)}: the condition is taken as bool. */
    public static NDArray where(NDArray condition, Object x, Object y) {
        NDArray truth = condition.dtype() == DType.BOOL ? condition : condition.astype(DType.BOOL);
        return Ufuncs.WHERE.apply(truth, x, y);
    }

    // ---------------------------------------------------------------- statistics

    public static NDArray sum(NDArray x, Options options) { return Statistics.sum(x, options); }

    /** The sum of every element. */
    public static NDArray sum(NDArray x) { return Statistics.sum(x, Options.all()); }

    public static NDArray prod(NDArray x, Options options) { return Statistics.prod(x, options); }

    public static NDArray max(NDArray x, Options options) { return Statistics.max(x, options); }

    public static NDArray min(NDArray x, Options options) { return Statistics.min(x, options); }

    public static NDArray mean(NDArray x, Options options) { return Statistics.mean(x, options); }

    public static NDArray var(NDArray x, Options options, long ddof) { return Statistics.var(x, options, ddof); }

    public static NDArray std(NDArray x, Options options, long ddof) { return Statistics.std(x, options, ddof); }

    public static NDArray argmax(NDArray x, Integer axis, boolean keepdims) { return Statistics.argmax(x, axis, keepdims); }

    public static NDArray argmin(NDArray x, Integer axis, boolean keepdims) { return Statistics.argmin(x, axis, keepdims); }

    public static NDArray any(NDArray x, Options options) { return Statistics.any(x, options); }

    public static NDArray all(NDArray x, Options options) { return Statistics.all(x, options); }

    public static NDArray countNonzero(NDArray x, Options options) { return Statistics.countNonzero(x, options); }

    public static NDArray cumsum(NDArray x, Integer axis, DType dtype) { return Statistics.cumsum(x, axis, dtype); }

    public static NDArray cumprod(NDArray x, Integer axis, DType dtype) { return Statistics.cumprod(x, axis, dtype); }

    public static NDArray nansum(NDArray x, Options options) { return Statistics.nansum(x, options); }

    public static NDArray nanprod(NDArray x, Options options) { return Statistics.nanprod(x, options); }

    public static NDArray nanmean(NDArray x, Options options) { return Statistics.nanmean(x, options); }

    public static NDArray nanvar(NDArray x, Options options, long ddof) { return Statistics.nanvar(x, options, ddof); }

    public static NDArray nanstd(NDArray x, Options options, long ddof) { return Statistics.nanstd(x, options, ddof); }

    public static NDArray nanmax(NDArray x, Options options) { return Statistics.nanmax(x, options); }

    public static NDArray nanmin(NDArray x, Options options) { return Statistics.nanmin(x, options); }

    public static NDArray nanargmax(NDArray x, Integer axis, boolean keepdims) { return Statistics.nanargmax(x, axis, keepdims); }

    public static NDArray nanargmin(NDArray x, Integer axis, boolean keepdims) { return Statistics.nanargmin(x, axis, keepdims); }

    public static NDArray nancumsum(NDArray x, Integer axis, DType dtype) { return Statistics.nancumsum(x, axis, dtype); }

    public static NDArray nancumprod(NDArray x, Integer axis, DType dtype) { return Statistics.nancumprod(x, axis, dtype); }
    // ---------------------------------------------------------------- linear algebra

    /** NumPy's {@code matmul} ({@code a @ b}): batched over leading axes, which broadcast. */
    public static NDArray matmul(NDArray a, NDArray b) {
        return Matmul.matmul(a, b);
    }

    /** NumPy's {@code dot}. */
    public static NDArray dot(NDArray a, NDArray b) {
        return Products.dot(a, b);
    }

    /** NumPy's {@code vdot}: flattened operands, the first conjugated; a 0-d result. */
    public static NDArray vdot(NDArray a, NDArray b) {
        return Products.vdot(a, b);
    }

    /** NumPy's {@code inner}: sums over the last axes of both operands. */
    public static NDArray inner(NDArray a, NDArray b) {
        return Products.inner(a, b);
    }

    /** NumPy's {@code outer}: result[i, j] = a.flat[i] × b.flat[j]. */
    public static NDArray outer(NDArray a, NDArray b) {
        return Products.outer(a, b);
    }

    /** NumPy's {@code tensordot(a, b, axisCount)}: a's last axes against b's first. */
    public static NDArray tensordot(NDArray a, NDArray b, int axisCount) {
        return Products.tensordot(a, b, axisCount);
    }

    /** NumPy's {@code tensordot(a, b, (aAxes, bAxes))}. */
    public static NDArray tensordot(NDArray a, NDArray b, int[] aAxes, int[] bAxes) {
        return Products.tensordot(a, b, aAxes, bAxes);
    }

    /** NumPy's {@code einsum}: explicit ({@code "ij,jk->ik"}) or implicit ({@code "ij,jk"}) subscripts. */
    public static NDArray einsum(String subscripts, NDArray... operands) {
        return Einsum.einsum(subscripts, operands);
    }

    /** NumPy's {@code trace}: the sum of the main diagonal of the first two axes. */
    public static NDArray trace(NDArray a) {
        return Trace.trace(a);
    }

    /** NumPy's {@code trace(a, offset, axis1, axis2)}. */
    public static NDArray trace(NDArray a, long offset, int axis1, int axis2) {
        return Trace.trace(a, offset, axis1, axis2);
    }

    // ---------------------------------------------------------------- ordering

    /** NumPy's {@code sort(a, axis=-1)}: a sorted copy (NaN last, ties in input order). */
    public static NDArray sort(NDArray a) {
        return Sorting.sort(a, -1, SortKind.QUICKSORT);
    }

    /** NumPy's {@code sort(a, axis, kind)}; a null axis sorts the flattened array. */
    public static NDArray sort(NDArray a, Integer axis, SortKind kind) {
        return Sorting.sort(a, axis, kind);
    }

    /** NumPy's {@code argsort(a, axis=-1)}: int64 indices that sort a. */
    public static NDArray argsort(NDArray a) {
        return Sorting.argsort(a, -1, SortKind.QUICKSORT);
    }

    /** NumPy's {@code argsort(a, axis, kind)}; a null axis sorts the flattened array. */
    public static NDArray argsort(NDArray a, Integer axis, SortKind kind) {
        return Sorting.argsort(a, axis, kind);
    }

    /** NumPy's {@code partition(a, kth, axis)}. */
    public static NDArray partition(NDArray a, int[] kth, Integer axis) {
        return Sorting.partition(a, kth, axis);
    }

    /** NumPy's {@code argpartition(a, kth, axis)}. */
    public static NDArray argpartition(NDArray a, int[] kth, Integer axis) {
        return Sorting.argpartition(a, kth, axis);
    }

    /** NumPy's {@code unique(a)}: the sorted distinct values of the flattened array, NaNs collapsed. */
    public static NDArray unique(NDArray a) {
        return Unique.of(a, true).values();
    }

    /**
     * NumPy's {@code unique(a, return_index=True, return_inverse=True, return_counts=True,
     * equal_nan=equalNan)}: values, first indices, inverse (in a's shape) and counts.
     */
    public static Unique unique(NDArray a, boolean equalNan) {
        return Unique.of(a, equalNan);
    }

    /** NumPy's {@code quantile(a, q, axis, method=method, keepdims=keepdims)}; a null axis reduces the flattened array. */
    public static NDArray quantile(NDArray a, NDArray q, Integer axis, String method, boolean keepdims) {
        return Quantiles.quantile(a, q, axis, method, keepdims);
    }

    /** NumPy's {@code quantile(a, q)} of the flattened array for a Python float q (linear). */
    public static NDArray quantile(NDArray a, double q) {
        return Quantiles.quantile(a, q, null, "linear", false);
    }

    /** NumPy's {@code percentile(a, q, axis, method=method, keepdims=keepdims)}: quantiles q / 100. */
    public static NDArray percentile(NDArray a, NDArray q, Integer axis, String method, boolean keepdims) {
        return Quantiles.percentile(a, q, axis, method, keepdims);
    }

    /** NumPy's {@code percentile(a, q)} of the flattened array for a Python float q (linear). */
    public static NDArray percentile(NDArray a, double q) {
        return Quantiles.percentile(a, q, null, "linear", false);
    }

    /** NumPy's {@code median(a, axis, keepdims=keepdims)}; a null axis reduces the flattened array. */
    public static NDArray median(NDArray a, Integer axis, boolean keepdims) {
        return Quantiles.median(a, axis, keepdims);
    }

    /** NumPy's {@code searchsorted(sorted, values, side, sorter)}; sorter may be null. */
    public static NDArray searchsorted(NDArray sorted, NDArray values, Searching.Side side, NDArray sorter) {
        return Searching.searchsorted(sorted, values, side, sorter);
    }

    /** NumPy's {@code searchsorted(sorted, values)} (side left). */
    public static NDArray searchsorted(NDArray sorted, NDArray values) {
        return Searching.searchsorted(sorted, values, Searching.Side.LEFT, null);
    }

    /** NumPy's {@code nonzero}: one int64 index array per axis. */
    public static List<NDArray> nonzero(NDArray a) {
        return Searching.nonzero(a);
    }

    /** NumPy's {@code flatnonzero}: indices of the non-zero elements of the flattened array. */
    public static NDArray flatnonzero(NDArray a) {
        return Searching.flatnonzero(a);
    }

    // ---------------------------------------------------------------- discrete Fourier transforms (numpy.fft)

    /** NumPy's {@code fft.fft(a)}: the transform along the last axis (complex128, complex64 for float32/complex64). */
    public static NDArray fft(NDArray a) { return Fft.fft(a); }

    /** NumPy's {@code fft.fft(a, n, axis, norm)}: n (null: the axis length) crops or zero-pads; norm null is "backward". */
    public static NDArray fft(NDArray a, Long n, int axis, FftNorm norm) { return Fft.fft(a, n, axis, norm); }

    /** NumPy's {@code fft.ifft(a)}. */
    public static NDArray ifft(NDArray a) { return Fft.ifft(a); }

    /** NumPy's {@code fft.ifft(a, n, axis, norm)}. */
    public static NDArray ifft(NDArray a, Long n, int axis, FftNorm norm) { return Fft.ifft(a, n, axis, norm); }

    /** NumPy's {@code fft.rfft(a)}: the n/2 + 1 non-negative frequencies of real input. */
    public static NDArray rfft(NDArray a) { return Fft.rfft(a); }

    /** NumPy's {@code fft.rfft(a, n, axis, norm)}. */
    public static NDArray rfft(NDArray a, Long n, int axis, FftNorm norm) { return Fft.rfft(a, n, axis, norm); }

    /** NumPy's {@code fft.irfft(a)}: 2 (m - 1) real points. */
    public static NDArray irfft(NDArray a) { return Fft.irfft(a); }

    /** NumPy's {@code fft.irfft(a, n, axis, norm)}. */
    public static NDArray irfft(NDArray a, Long n, int axis, FftNorm norm) { return Fft.irfft(a, n, axis, norm); }

    /** NumPy's {@code fft.fft2(a)}: over the last two axes. */
    public static NDArray fft2(NDArray a) { return Fft.fft2(a); }

    /** NumPy's {@code fft.fft2(a, s, axes, norm)}; null axes are (-2, -1). */
    public static NDArray fft2(NDArray a, long[] s, int[] axes, FftNorm norm) { return Fft.fft2(a, s, axes, norm); }

    /** NumPy's {@code fft.ifft2(a)}. */
    public static NDArray ifft2(NDArray a) { return Fft.ifft2(a); }

    /** NumPy's {@code fft.ifft2(a, s, axes, norm)}; null axes are (-2, -1). */
    public static NDArray ifft2(NDArray a, long[] s, int[] axes, FftNorm norm) { return Fft.ifft2(a, s, axes, norm); }

    /** NumPy's {@code fft.fftn(a)}: over every axis. */
    public static NDArray fftn(NDArray a) { return Fft.fftn(a); }

    /** NumPy's {@code fft.fftn(a, s, axes, norm)}; null axes: all, or the last s.length when s is given. */
    public static NDArray fftn(NDArray a, long[] s, int[] axes, FftNorm norm) { return Fft.fftn(a, s, axes, norm); }

    /** NumPy's {@code fft.ifftn(a)}. */
    public static NDArray ifftn(NDArray a) { return Fft.ifftn(a); }

    /** NumPy's {@code fft.ifftn(a, s, axes, norm)}. */
    public static NDArray ifftn(NDArray a, long[] s, int[] axes, FftNorm norm) { return Fft.ifftn(a, s, axes, norm); }

    /** NumPy's {@code fft.rfftn(a)}. */
    public static NDArray rfftn(NDArray a) { return Fft.rfftn(a); }

    /** NumPy's {@code fft.rfftn(a, s, axes, norm)}. */
    public static NDArray rfftn(NDArray a, long[] s, int[] axes, FftNorm norm) { return Fft.rfftn(a, s, axes, norm); }

    /** NumPy's {@code fft.irfftn(a)}. */
    public static NDArray irfftn(NDArray a) { return Fft.irfftn(a); }

    /** NumPy's {@code fft.irfftn(a, s, axes, norm)}. */
    public static NDArray irfftn(NDArray a, long[] s, int[] axes, FftNorm norm) { return Fft.irfftn(a, s, axes, norm); }

    /** NumPy's {@code fft.fftfreq(n, d)}: sample frequencies, float64. */
    public static NDArray fftfreq(long n, double d) { return Fft.fftfreq(n, d); }

    /** NumPy's {@code fft.rfftfreq(n, d)}: the non-negative sample frequencies, float64. */
    public static NDArray rfftfreq(long n, double d) { return Fft.rfftfreq(n, d); }
}
