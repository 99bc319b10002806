package org.tessera.ndarray.ufunc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.Casting;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.kernel.VectorMath;
import org.tessera.ndarray.layout.Shapes;
import org.tessera.ndarray.ufunc.Reductions.Options;

/**
 * NumPy's statistics over axes, built on ufunc reductions with NumPy's result dtypes: sums of bool
 * and small integers in int64/uint64, means and variances of integers in float64, of float16
 * through a float32 sum. The nan-variants treat NaN as missing (integers have none).
 */
public final class Statistics {
    private Statistics() {}

    public static NDArray sum(NDArray x, Options options) {
        return Reductions.reduce(Ufuncs.ADD, x, options);
    }

    public static NDArray prod(NDArray x, Options options) {
        return Reductions.reduce(Ufuncs.MULTIPLY, x, options);
    }

    /** The maximum; NaN wins. An empty reduction without initial is a ValueError. */
    public static NDArray max(NDArray x, Options options) {
        return Reductions.reduce(Ufuncs.MAXIMUM, x, options);
    }

    public static NDArray min(NDArray x, Options options) {
        return Reductions.reduce(Ufuncs.MINIMUM, x, options);
    }

    public static NDArray any(NDArray x, Options options) {
        return Reductions.reduce(Ufuncs.LOGICAL_OR, x, options.withDtype(null));
    }

    public static NDArray all(NDArray x, Options options) {
        return Reductions.reduce(Ufuncs.LOGICAL_AND, x, options.withDtype(null));
    }

    /** The number of nonzero (NaN counts) elements, as int64. */
    public static NDArray countNonzero(NDArray x, Options options) {
        return Reductions.reduce(Ufuncs.ADD, x.astype(DType.BOOL), options.withDtype(DType.INT64));
    }

    /**
     * The mean: the sum in the accumulation dtype divided by the count of selected elements (cast
     * back unsafely, as NumPy). {@code initial} does not apply.
     */
    public static NDArray mean(NDArray x, Options options) {
        return average(x, options, selection(x, options, false));
    }

    /** The variance with {@code ddof} delta degrees of freedom, over the elements {@code where} selects. */
    public static NDArray var(NDArray x, Options options, long ddof) {
        return variance(x, options, ddof, selection(x, options, false));
    }

    public static NDArray std(NDArray x, Options options, long ddof) {
        NDArray variance = var(x, options, ddof);
        return Ufuncs.SQRT.apply(new Object[] {variance}, new NDArray[] {variance}, null, Casting.SAME_KIND)[0];
    }

    /**
     * The sum of the squared deviations of real {@code x} from {@code mean} (broadcast against it)
     * over {@code options}: {@code sum((x - mean)**2, ...)}, bit for bit. NumPy squares every
     * deviation into an array, then sums it. Summed down the columns of a float64 matrix with kept
     * dims, it adds the rows in order, row 0's squares first; where it does so (at least 64
     * columns, each row's elements adjacent, a float64 mean of one row) each row's squared
     * deviations are added into the sums in one pass, and the squares never exist as an array.
     * Elsewhere it is that composition.
     */
    public static NDArray squaredDeviationSums(NDArray x, NDArray mean, Options options) {
        if (!addsRowByRow(x, mean, options)) {
            NDArray deviation = Ufuncs.SUBTRACT.apply(x, mean);
            NDArray squares = Ufuncs.MULTIPLY.apply(new Object[] {deviation, deviation}, new NDArray[] {deviation}, null, Casting.SAME_KIND)[0];
            return sum(squares, options);
        }
        // From zeros: 0.0 + d * d is d * d, bit for bit (a square is never -0.0), so the sums are NumPy's row-by-row ones.
        NDArray result = NDArray.zeros(DType.FLOAT64, 1, x.shape(1));
        for (long row = 0; row < x.shape(0); row++) {
            addSquaredDeviations(x, row, mean, result);
        }
        return result;
    }

    /**
     * Row {@code row} of {@code x} less {@code mean}, squared, added into the contiguous {@code sums},
     * in one pass: three loops apart (subtract, multiply, add) wrote the row twice more, and C2 took
     * a second of a two-core machine's first computation to compile the row loop with all three
     * inlined (R2, the mean and standard deviation of a stored array).
     */
    private static void addSquaredDeviations(NDArray x, long row, NDArray mean, NDArray sums) {
        MemorySegment values = x.segment(), means = mean.segment(), out = sums.segment();
        long valuesAt = x.byteOffset() + row * x.byteStride(0), meansAt = mean.byteOffset(), at = sums.byteOffset();
        long count = x.shape(1);
        if (VectorMath.selected().addSquaredDeviations(values, valuesAt, means, meansAt, out, at, count)) {
            return;
        }
        for (long element = 0; element < count; element++) {
            long offset = element * Double.BYTES;
            double deviation = values.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, valuesAt + offset) - means.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, meansAt + offset);
            out.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at + offset, out.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at + offset) + deviation * deviation);
        }
    }

    private static boolean addsRowByRow(NDArray x, NDArray mean, Options options) {
        return options.axes() != null && options.axes().length == 1 && options.axes()[0] == 0 && options.keepdims() && options.dtype() == null
                && options.initial() == null && options.where() == null && x.ndim() == 2 && mean.ndim() == 2 && x.dtype() == DType.FLOAT64 && mean.dtype() == DType.FLOAT64
                && x.shape(0) > 0 && x.shape(1) >= Reductions.VERTICAL_MINIMUM && mean.shape(0) == 1 && mean.shape(1) == x.shape(1)
                && x.byteStride(1) == Double.BYTES && mean.byteStride(1) == Double.BYTES;
    }

    /** The flat (axes null) or per-axis index of the first maximum; a NaN is the maximum. */
    public static NDArray argmax(NDArray x, Integer axis, boolean keepdims) {
        return ArgExtremum.find(x, axis, keepdims, true);
    }

    public static NDArray argmin(NDArray x, Integer axis, boolean keepdims) {
        return ArgExtremum.find(x, axis, keepdims, false);
    }

    /** The running sum along {@code axis} (null: over the flattened array). */
    public static NDArray cumsum(NDArray x, Integer axis, DType dtype) {
        return axis == null ? Reductions.accumulate(Ufuncs.ADD, x.ravel(), 0, dtype) : Reductions.accumulate(Ufuncs.ADD, x, axis, dtype);
    }

    public static NDArray cumprod(NDArray x, Integer axis, DType dtype) {
        return axis == null ? Reductions.accumulate(Ufuncs.MULTIPLY, x.ravel(), 0, dtype)
                : Reductions.accumulate(Ufuncs.MULTIPLY, x, axis, dtype);
    }

    // ---------------------------------------------------------------- NaN as missing

    public static NDArray nansum(NDArray x, Options options) {
        return sum(withoutNaN(x, 0.0), options);
    }

    public static NDArray nanprod(NDArray x, Options options) {
        return prod(withoutNaN(x, 1.0), options);
    }

    public static NDArray nancumsum(NDArray x, Integer axis, DType dtype) {
        return cumsum(withoutNaN(x, 0.0), axis, dtype);
    }

    public static NDArray nancumprod(NDArray x, Integer axis, DType dtype) {
        return cumprod(withoutNaN(x, 1.0), axis, dtype);
    }

    /** The maximum ignoring NaN; NaN where every element is NaN. */
    public static NDArray nanmax(NDArray x, Options options) {
        return Reductions.reduce(x.dtype().isInexact() ? Ufuncs.FMAX : Ufuncs.MAXIMUM, x, options);
    }

    public static NDArray nanmin(NDArray x, Options options) {
        return Reductions.reduce(x.dtype().isInexact() ? Ufuncs.FMIN : Ufuncs.MINIMUM, x, options);
    }

    public static NDArray nanmean(NDArray x, Options options) {
        return average(x, options, selection(x, options, true));
    }

    public static NDArray nanvar(NDArray x, Options options, long ddof) {
        return variance(x, options, ddof, selection(x, options, true));
    }

    public static NDArray nanstd(NDArray x, Options options, long ddof) {
        NDArray variance = nanvar(x, options, ddof);
        return Ufuncs.SQRT.apply(new Object[] {variance}, new NDArray[] {variance}, null, Casting.SAME_KIND)[0];
    }

    /** argmax ignoring NaN; a slice of only NaN is a ValueError. */
    public static NDArray nanargmax(NDArray x, Integer axis, boolean keepdims) {
        return nanArgExtremum(x, axis, keepdims, true);
    }

    public static NDArray nanargmin(NDArray x, Integer axis, boolean keepdims) {
        return nanArgExtremum(x, axis, keepdims, false);
    }

    private static NDArray nanArgExtremum(NDArray x, Integer axis, boolean keepdims, boolean maximum) {
        if (!x.dtype().isInexact()) {
            return ArgExtremum.find(x, axis, keepdims, maximum);
        }
        NDArray allMissing = all(Ufuncs.ISNAN.apply(x), new Options(axis == null ? null : new int[] {axis}, null, false, null, null));
        if (any(allMissing, Options.all()).getBoolean()) {
            throw new IllegalArgumentException("All-NaN slice encountered in nanarg" + (maximum ? "max" : "min")
                    + " of an array of shape " + Shapes.format(x.shape()));
        }
        return ArgExtremum.find(withoutNaN(x, maximum ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY), axis, keepdims, maximum);
    }

    // ---------------------------------------------------------------- helpers

    /** x with NaN replaced by {@code replacement} (integers and bools unchanged). */
    private static NDArray withoutNaN(NDArray x, double replacement) {
        if (!x.dtype().isInexact()) {
            return x;
        }
        return Ufuncs.WHERE.apply(Ufuncs.ISNAN.apply(x), replacement, x);
    }

    /**
     * The elements that count, as a bool mask of x's shape: the {@code where} mask, and for the
     * nan-variants the elements that are not NaN. Null when every element counts.
     */
    private static NDArray selection(NDArray x, Options options, boolean skipNaN) {
        NDArray mask = options.where() == null ? null : options.where().broadcastTo(x.shape());
        if (skipNaN && x.dtype().isInexact()) {
            NDArray present = Ufuncs.LOGICAL_NOT.apply(Ufuncs.ISNAN.apply(x));
            mask = mask == null ? present : Ufuncs.LOGICAL_AND.apply(mask, present);
        }
        return mask;
    }

    /** The sum of the selected elements over their count. */
    private static NDArray average(NDArray x, Options options, NDArray selected) {
        Options summed = options.withDtype(accumulationType(x.dtype(), options.dtype())).withWhere(selected).withInitial(null);
        return divideByCount(sum(x, summed), count(x, summed, selected), resultType(x.dtype(), options.dtype()));
    }

    /**
     * NumPy's {@code _var}: the mean with kept axes, the squared deviations, their sum divided by
     * {@code count - ddof} (never below 0), all over the {@code selected} elements.
     */
    private static NDArray variance(NDArray x, Options options, long ddof, NDArray selected) {
        DType accumulation = accumulationType(x.dtype(), options.dtype());
        DType result = resultType(x.dtype(), options.dtype()).realType();
        Options kept = options.withKeepdims(true).withDtype(accumulation).withWhere(selected).withInitial(null);
        NDArray mean = divideByCount(sum(x, kept), count(x, kept, selected), accumulation);
        NDArray deviation = Ufuncs.SUBTRACT.apply(x.dtype() == accumulation ? x : x.astype(accumulation), mean);
        // Complex deviations square to |z|^2, a real value, as NumPy's multiply by the conjugate.
        NDArray squares = deviation.dtype().isComplex()
                ? Ufuncs.ADD.apply(Ufuncs.SQUARE.apply(deviation.real()), Ufuncs.SQUARE.apply(deviation.imag()))
                : Ufuncs.MULTIPLY.apply(deviation, deviation);
        Options summed = options.withDtype(accumulation.realType()).withWhere(selected).withInitial(null);
        NDArray total = sum(squares, summed);
        NDArray degrees = Ufuncs.MAXIMUM.apply(Ufuncs.SUBTRACT.apply(count(x, summed, selected), ddof), 0L);
        return divideByCount(total, degrees, result);
    }

    /** total / count computed in float64 and cast back to the total's dtype, then to {@code result}. */
    private static NDArray divideByCount(NDArray total, Object count, DType result) {
        NDArray quotient = Ufuncs.TRUE_DIVIDE.apply(new Object[] {total, count}, new NDArray[] {total}, null, Casting.UNSAFE)[0];
        return quotient.dtype() == result ? quotient : quotient.astype(result);
    }

    /**
     * How many elements each result element reduces: a Java long (a weak scalar) when every
     * element counts, else the int64 sum of the selection with the result's shape.
     */
    private static Object count(NDArray x, Options options, NDArray selected) {
        if (selected == null) {
            return Shapes.size(Axes.of(options.axes(), x.ndim()).reducedShape(x.shape()));
        }
        return sum(selected, options.withDtype(DType.INT64).withWhere(null).withInitial(null));
    }

    /** The dtype sums run in: as requested, float64 for bool and integers, float32 for float16. */
    private static DType accumulationType(DType input, DType requested) {
        if (requested != null) {
            return requested;
        }
        if (input.isBool() || input.isInteger()) {
            return DType.FLOAT64;
        }
        return input == DType.FLOAT16 ? DType.FLOAT32 : input;
    }

    private static DType resultType(DType input, DType requested) {
        if (requested != null) {
            return requested;
        }
        return input.isBool() || input.isInteger() ? DType.FLOAT64 : input;
    }
}
