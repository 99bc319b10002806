package org.tessera.ndarray.ufunc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.Casting;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.iteration.Operand;
import org.tessera.ndarray.iteration.StridedIteration;
import org.tessera.ndarray.kernel.ContiguousLoops;
import org.tessera.ndarray.layout.Shapes;
import org.tessera.ndarray.parallel.Cores;

/**
 * The methods of binary ufuncs: reduce, accumulate, reduceat and outer, with NumPy's dtype rule
 * (add and multiply of bool and small integers reduce in int64 or uint64 unless a dtype is given).
 * Reductions lay their input out as (kept, reduced) rows and fold each row with {@link RowFold}.
 */
public final class Reductions {
    private Reductions() {}

    /** The options of a reduce call; null fields mean NumPy's defaults. */
    public record Options(int[] axes, DType dtype, boolean keepdims, Object initial, NDArray where) {
        /** Over every axis, no options. */
        public static Options all() { return new Options(null, null, false, null, null); }

        public static Options axes(int... axes) { return new Options(axes, null, false, null, null); }

        public Options withDtype(DType requested) { return new Options(axes, requested, keepdims, initial, where); }

        public Options withKeepdims(boolean keep) { return new Options(axes, dtype, keep, initial, where); }

        public Options withInitial(Object value) { return new Options(axes, dtype, keepdims, value, where); }

        public Options withWhere(NDArray mask) { return new Options(axes, dtype, keepdims, initial, mask); }

        /** Every axis when {@code axes} is null. */
        public Options withAxes(int... newAxes) { return new Options(newAxes, dtype, keepdims, initial, where); }
    }

    /** {@code ufunc.reduce(x, axis, dtype, keepdims, initial, where)}. */
    public static NDArray reduce(Ufunc ufunc, NDArray x, Options options) {
        if (ufunc == Ufuncs.ADD && sumsWholeFloat64(x, options)) {
            return wholeSum(x, options.keepdims());
        }
        NDArray result = fold(ufunc, x, options);
        if (ufunc == Ufuncs.ADD && options.initial() == null && result.dtype().isInexact()) {
            positiveZeros(result);
        }
        return result;
    }

    /**
     * Whether {@code options} sum every element of {@code x}, a C-contiguous float64 array of more
     * than one element, in float64, with no initial value and no mask: the sum of each block in a
     * chunked sum or mean, 100,000 times over blocks of ten in W5.
     */
    private static boolean sumsWholeFloat64(NDArray x, Options options) {
        if (x.dtype() != DType.FLOAT64 || options.dtype() != null && options.dtype() != DType.FLOAT64 || options.initial() != null
                || options.where() != null || x.size() < 2 || !x.isCContiguous()) {
            return false;
        }
        if (options.axes() == null) {
            return true;
        }
        for (boolean reduced : Axes.of(options.axes(), x.ndim()).reduced()) {
            if (!reduced) {
                return false;
            }
        }
        return true;
    }

    /**
     * The pairwise sum of the whole of {@code x}, as {@link #fold} makes it (one row, the same
     * additions in the same order; +0.0 where it is -0.0, as {@link #positiveZeros} makes it),
     * without the loop lookup, identity, axes, row fold and result copies a general fold sets up:
     * for ten elements those cost several times the ten additions.
     */
    private static NDArray wholeSum(NDArray x, boolean keepdims) {
        double sum = ContiguousLoops.pairwiseSum(DType.FLOAT64, x.segment(), x.byteOffset(), Double.BYTES, x.size());
        long[] shape = new long[keepdims ? x.ndim() : 0];
        Arrays.fill(shape, 1);
        NDArray result = NDArray.zeros(DType.FLOAT64, shape);
        result.segment().set(ValueLayout.JAVA_DOUBLE_UNALIGNED, result.byteOffset(), sum == 0 ? 0.0 : sum);
        return result;
    }

    /**
     * NumPy starts a sum from the addition's identity, 0, so the sum of negative zeros alone is +0.0
     * where a fold from the first element keeps -0.0. For every other sum the two agree, so only
     * those results change, in place: the result is this call's own array.
     */
    private static void positiveZeros(NDArray result) {
        if (!result.isCContiguous()) {
            Ufuncs.ADD.apply(new Object[] {result, 0}, new NDArray[] {result}, null, Casting.SAME_KIND);
            return;
        }
        MemorySegment segment = result.segment();
        long offset = result.byteOffset();
        DType real = result.dtype().realType();
        long parts = result.size() * (result.dtype().byteSize() / real.byteSize());
        for (long part = 0; part < parts; part++) {
            switch (real.byteSize()) {
                case 8 -> {
                    long at = offset + part * 8;
                    if (segment.get(ValueLayout.JAVA_LONG_UNALIGNED, at) == Long.MIN_VALUE) {
                        segment.set(ValueLayout.JAVA_LONG_UNALIGNED, at, 0L);
                    }
                }
                case 4 -> {
                    long at = offset + part * 4;
                    if (segment.get(ValueLayout.JAVA_INT_UNALIGNED, at) == Integer.MIN_VALUE) {
                        segment.set(ValueLayout.JAVA_INT_UNALIGNED, at, 0);
                    }
                }
                default -> {
                    long at = offset + part * 2;
                    if (segment.get(ValueLayout.JAVA_SHORT_UNALIGNED, at) == Short.MIN_VALUE) {
                        segment.set(ValueLayout.JAVA_SHORT_UNALIGNED, at, (short) 0);
                    }
                }
            }
        }
    }

    private static NDArray fold(Ufunc ufunc, NDArray x, Options options) {
        Loop loop = reductionLoop(ufunc, x.dtype(), options.dtype());
        Axes axes = Axes.of(options.axes(), x.ndim());
        NDArray start = startValue(ufunc, loop.outputs().getFirst(), options.initial());
        long[] shape = x.shape();
        DType computed = loop.outputs().getFirst();
        if (start == null && Shapes.size(axes.reducedShape(shape)) == 0) {
            // NumPy refuses whenever a reduced axis is empty, even when the result has no elements.
            throw new IllegalArgumentException("zero-size array to reduction operation " + ufunc.name() + " which has no identity (input shape "
                    + Shapes.format(shape) + ", axis " + (options.axes() == null ? "None" : java.util.Arrays.toString(options.axes())) + ")");
        }
        if (options.where() == null && options.initial() == null && x.size() > 0 && Shapes.size(axes.reducedShape(shape)) == 1) {
            // Every reduced axis has length 1: each result is its one element, cast as the fold loads
            // it, where the fold would step through each element's axis alone.
            return x.astype(computed).reshape(axes.resultShape(shape, options.keepdims()));
        }
        if (options.where() == null && x.dtype() == computed && x.isCContiguous() && axes.reducesOnlyTrailingAxes()) {
            // The (kept, reduced) rows are consecutive runs of x's memory already: fold them in place,
            // the same rows in the same order as below, without the transposed and reshaped views.
            NDArray result = NDArray.zeros(computed, axes.resultShape(shape, options.keepdims()));
            long columns = Shapes.size(axes.reducedShape(shape));
            long itemSize = computed.byteSize();
            foldRows(ufunc, loop, shape, options, start, result, x.segment(), x.byteOffset(), columns * itemSize, itemSize, columns, null);
            return result;
        }
        long keptSize = Shapes.size(axes.keptShape(shape));
        if (options.where() == null && options.initial() == null && x.dtype() == computed && keptSize == 1 && x.size() > 0
                && hasCOrderStrides(x)) {
            // One result from a view laid out in C order with gaps (a block's interior): NumPy's
            // iterator hands the inner loop each run of consecutive elements, folded in turn into
            // the one accumulator, so no contiguous copy is made.
            NDArray result = NDArray.zeros(computed, axes.resultShape(shape, options.keepdims()));
            RowFold fold = new RowFold(ufunc, loop);
            MemorySegment segment = x.segment();
            StridedIteration.forEachRun(shape, new Operand[] {x.operand()},
                    (offsets, strides, count) -> fold.fold(segment, offsets[0], strides[0], count, null, 0, 0));
            fold.store(result.segment(), result.byteOffset());
            return result;
        }
        NDArray result = options.where() == null && axes.keepsInnermostAxis() && keptSize >= VERTICAL_MINIMUM
                ? reduceAcrossRows(ufunc, loop, x, axes, options, start)
                : reduceAlongRows(ufunc, loop, x, axes, options, start);
        return result.reshape(axes.resultShape(shape, options.keepdims()));
    }

    /**
     * Whether every axis longer than one steps forwards, each by more bytes than the whole extent of
     * the axes after it: the order NumPy's iterator keeps for a reduction, so its runs are C order.
     */
    private static boolean hasCOrderStrides(NDArray x) {
        long inner = x.dtype().byteSize();
        for (int axis = x.ndim() - 1; axis >= 0; axis--) {
            long length = x.shape(axis);
            if (length == 1) {
                continue;
            }
            long stride = x.byteStride(axis);
            if (stride < inner) {
                return false;
            }
            inner = stride * length;
        }
        return true;
    }

    /** Kept elements from which folding whole slices at once beats folding each row alone. */
    static final long VERTICAL_MINIMUM = 64;

    /**
     * Folds each reduced element's row separately: rows of a (kept, reduced) layout, pairwise for
     * float sums. Suits reductions over the innermost axis and masked reductions.
     */
    private static NDArray reduceAlongRows(Ufunc ufunc, Loop loop, NDArray x, Axes axes, Options options, NDArray start) {
        DType computed = loop.outputs().getFirst();
        NDArray rows = axes.asRows(x, computed);
        NDArray maskRows = options.where() == null ? null
                : axes.asRows(options.where().broadcastTo(x.shape()), DType.BOOL);
        NDArray result = NDArray.zeros(computed, axes.keptShape(x.shape()));
        foldRows(ufunc, loop, x.shape(), options, start, result, rows.segment(), rows.byteOffset(), rows.byteStride(0),
                rows.byteStride(1), rows.shape(1), maskRows);
        return result;
    }

    /**
     * Folds {@code result.size()} rows of {@code columns} elements, the first at {@code offset} of
     * {@code segment}, into the consecutive elements of the C-contiguous {@code result}.
     */
    private static void foldRows(Ufunc ufunc, Loop loop, long[] shape, Options options, NDArray start, NDArray result,
                                 MemorySegment segment, long offset, long rowStride, long columnStride, long columns,
                                 NDArray maskRows) {
        RowFold fold = new RowFold(ufunc, loop);
        long rowCount = result.size();
        long itemSize = result.dtype().byteSize();
        for (long row = 0; row < rowCount; row++) {
            long rowOffset = offset + row * rowStride;
            fold.reset();
            if (options.initial() != null) {
                fold.startFrom(start.segment(), start.byteOffset());
            }
            if (maskRows == null) {
                fold.fold(segment, rowOffset, columnStride, columns, null, 0, 0);
            } else {
                fold.fold(segment, rowOffset, columnStride, columns, maskRows.segment(),
                        maskRows.byteOffset() + row * maskRows.byteStride(0), maskRows.byteStride(1));
            }
            if (!fold.started()) {
                if (start == null) {
                    throw new IllegalArgumentException("zero-size array to reduction operation " + ufunc.name()
                            + " which has no identity (input shape " + Shapes.format(shape) + ")");
                }
                fold.startFrom(start.segment(), start.byteOffset());
            }
            fold.store(result.segment(), result.byteOffset() + row * itemSize);
        }
    }

    /**
     * Folds whole slices into the result, one reduced position at a time, as NumPy's outer
     * reduction loop: the inner loop runs over the kept elements with the elementwise kernel, so
     * no transposed copy of the input is made and a sum over axis 0 streams through memory.
     */
    private static NDArray reduceAcrossRows(Ufunc ufunc, Loop loop, NDArray x, Axes axes, Options options, NDArray start) {
        long[] kept = axes.keptShape(x.shape());
        long[] reducedShape = axes.reducedShape(x.shape());
        long reducedCount = Shapes.size(reducedShape);
        NDArray result = NDArray.zeros(loop.outputs().getFirst(), kept);
        NDArray slices = x.transpose(axes.reducedThenKept());
        long position = 0;
        if (options.initial() != null) {
            result.assign(start);
        } else if (reducedCount > 0) {
            result.assign(slice(slices, reducedShape, position++));
        } else if (start != null) {
            result.assign(start);
        } else {
            throw new IllegalArgumentException("zero-size array to reduction operation " + ufunc.name()
                    + " which has no identity (input shape " + Shapes.format(x.shape()) + ")");
        }
        if (position < reducedCount && result.size() > 0 && foldsSlicesInPlace(loop, result, slices, reducedShape.length)) {
            foldSlices(loop.contiguous(), result, slices, reducedShape, position);
            return result;
        }
        NDArray[] outputs = {result};
        for (; position < reducedCount; position++) {
            Elementwise.run(loop, new NDArray[] {result, slice(slices, reducedShape, position)}, outputs, null, kept);
        }
        return result;
    }

    /**
     * Whether each slice can be folded into the result by the loop's contiguous kernel called on
     * memory, the general elementwise call per slice bypassed: the loop takes the slices' and the
     * result's dtypes as they are, the result and every slice are C-contiguous, and the slices are
     * too short for the elementwise call to share one among the cores. The per-slice call made a
     * strip of a deferred chain (32 slices of 2000 in W1) spend as long setting up as adding, and
     * ran in the JIT's first tiers for the first half-second of a run.
     */
    private static boolean foldsSlicesInPlace(Loop loop, NDArray result, NDArray slices, int reducedAxes) {
        if (loop.contiguous() == null || loop.outputs().size() != 1 || loop.inputs().size() != 2) {
            return false;
        }
        DType dtype = result.dtype();
        if (loop.inputs().get(0) != dtype || loop.inputs().get(1) != slices.dtype() || loop.outputs().getFirst() != dtype
                || !result.isCContiguous() || Cores.splits(result.size())) {
            return false;
        }
        long stride = slices.dtype().byteSize();
        for (int axis = slices.ndim() - 1; axis >= reducedAxes; axis--) {
            if (slices.shape(axis) != 1 && slices.byteStride(axis) != stride) {
                return false;
            }
            stride *= slices.shape(axis);
        }
        return true;
    }

    /** Folds the slices from C-order {@code position} of the leading reduced axes into {@code result}, one kernel call each. */
    private static void foldSlices(ContiguousKernel kernel, NDArray result, NDArray slices, long[] reducedShape, long position) {
        MemorySegment[] segments = {result.segment(), slices.segment(), result.segment()};
        long[] offsets = new long[3];
        long[] index = new long[reducedShape.length];
        long remaining = position;
        for (int axis = reducedShape.length - 1; axis >= 0; axis--) {
            index[axis] = remaining % reducedShape[axis];
            remaining /= reducedShape[axis];
        }
        long count = result.size();
        for (long slice = position, end = Shapes.size(reducedShape); slice < end; slice++) {
            long offset = slices.byteOffset();
            for (int axis = 0; axis < index.length; axis++) {
                offset += index[axis] * slices.byteStride(axis);
            }
            offsets[0] = result.byteOffset();
            offsets[1] = offset;
            offsets[2] = result.byteOffset();
            kernel.run(segments, offsets, count);
            for (int axis = index.length - 1; axis >= 0 && ++index[axis] == reducedShape[axis]; axis--) {
                index[axis] = 0;
            }
        }
    }

    /** The kept-shaped slice at C-order {@code position} of the leading reduced axes. */
    private static NDArray slice(NDArray slices, long[] reducedShape, long position) {
        NDArray slice = slices;
        long remaining = position;
        long[] index = new long[reducedShape.length];
        for (int axis = reducedShape.length - 1; axis >= 0; axis--) {
            index[axis] = remaining % reducedShape[axis];
            remaining /= reducedShape[axis];
        }
        for (long along : index) {
            slice = slice.take(0, along);
        }
        return slice;
    }

    /** {@code ufunc.accumulate(x, axis, dtype)}: the running fold along {@code axis}. */
    public static NDArray accumulate(Ufunc ufunc, NDArray x, int axis, DType dtype) {
        Loop loop = reductionLoop(ufunc, x.dtype(), dtype);
        DType computed = loop.outputs().getFirst();
        int normalized = Shapes.normalizeAxis(axis, Math.max(x.ndim(), 1));
        NDArray input = x.ndim() == 0 ? x.reshape(1) : x;
        NDArray byRuns = scanRuns(loop, input, normalized, null, false);
        if (byRuns != null) {
            return byRuns;
        }
        Axes axes = Axes.of(new int[] {normalized}, input.ndim());
        NDArray rows = axes.asRows(input, computed);
        NDArray result = NDArray.zeros(computed, rows.shape());
        RowFold fold = new RowFold(ufunc, loop);
        long columns = rows.shape(1);
        for (long row = 0; row < rows.shape(0); row++) {
            fold.reset();
            fold.scan(rows.segment(), rows.byteOffset() + row * rows.byteStride(0), rows.byteStride(1), columns,
                    result.segment(), row * columns * computed.byteSize(), computed.byteSize());
        }
        return backFromRows(result, input.shape(), axes).reshape(x.ndim() == 0 ? new long[0] : input.shape());
    }

    /** The shortest run after the scanned axis worth a kernel call of its own. */
    private static final long SHORTEST_RUN = 16;

    /**
     * The scan of a C-contiguous float64 or int64 operand along an axis followed by runs of at least
     * {@link #SHORTEST_RUN} elements, run by run: the first run is copied (or, continuing from
     * {@code carry}, combined with the carry's), and each next one is the previous result combined
     * with the input's run through the loop's contiguous kernel. These are the fold's operations,
     * element by element in the same order, but over whole runs, where the fold steps through each
     * column alone (with the scanned axis first, across rows of memory). Every slice of the scan, or
     * where {@code lastOnly} the last alone, each run folded onto one; null when the operand (or the
     * carry) does not qualify.
     */
    private static NDArray scanRuns(Loop loop, NDArray input, int axis, NDArray carry, boolean lastOnly) {
        DType computed = loop.outputs().getFirst();
        if (loop.contiguous() == null || input.dtype() != computed || computed != DType.FLOAT64 && computed != DType.INT64 || !input.isCContiguous()
                || carry != null && (carry.dtype() != computed || !carry.isCContiguous())) {
            return null;
        }
        long outer = 1;
        for (int before = 0; before < axis; before++) {
            outer *= input.shape(before);
        }
        long run = 1;
        for (int after = axis + 1; after < input.ndim(); after++) {
            run *= input.shape(after);
        }
        long length = input.shape(axis);
        if (run < SHORTEST_RUN || outer * length == 0) {
            return null;
        }
        long[] shape = input.shape();
        if (lastOnly) {
            shape[axis] = 1;
        }
        NDArray result = NDArray.empty(computed, shape);
        long runBytes = run * computed.byteSize();
        long resultLength = lastOnly ? 1 : length;
        MemorySegment[] segments = {result.segment(), input.segment(), result.segment()};
        for (long block = 0; block < outer; block++) {
            long start = block * length * runBytes;
            long resultStart = result.byteOffset() + block * resultLength * runBytes;
            if (carry == null) {
                MemorySegment.copy(input.segment(), input.byteOffset() + start, result.segment(), resultStart, runBytes);
            } else {
                MemorySegment.copy(carry.segment(), carry.byteOffset() + block * runBytes, result.segment(), resultStart, runBytes);
            }
            foldRuns(loop.contiguous(), segments, resultStart, input.byteOffset() + start, carry == null ? 1 : 0, length, run, runBytes, lastOnly);
        }
        return result;
    }

    /**
     * Runs {@code first} to {@code length} of one block of {@link #scanRuns}, each combined with the
     * result's previous run (or, where {@code lastOnly}, its one run) into its place. A method of its
     * own: the loop is what grows hot within a call, and C2 compiles it on the stack (OSR) alone, a
     * small method, where with the allocation and the copies around it the compilation of
     * {@code scanRuns} took 0.4 s on the stack and 0.6 s again after it (R5's first run, two cores).
     */
    private static void foldRuns(ContiguousKernel kernel, MemorySegment[] segments, long resultStart, long inputStart, long first, long length, long run,
                                 long runBytes, boolean lastOnly) {
        long[] offsets = new long[3];
        for (long position = first; position < length; position++) {
            long previous = lastOnly || position == 0 ? 0 : position - 1;
            long at = lastOnly ? 0 : position;
            offsets[0] = resultStart + previous * runBytes;
            offsets[1] = inputStart + position * runBytes;
            offsets[2] = resultStart + at * runBytes;
            kernel.run(segments, offsets, run);
        }
    }

    /**
     * The last slice along {@code axis} of {@code ufunc.accumulate(x, axis)} continued from
     * {@code carry} (the running total before x's first slice, a slice of x's shape with the axis of
     * length 1; null to begin with x's first slice), with the axis kept at length 1. The same
     * operations, element by element in the same order, as the whole scan's, so the values are its
     * last slice's bit for bit; where x qualifies for {@link #scanRuns} they fold into the
     * one slice instead of writing every slice of the scan (a running total read only at its end,
     * as {@code x.cumsum(0)[-1]} reads it).
     */
    public static NDArray accumulateLast(Ufunc ufunc, NDArray x, int axis, NDArray carry) {
        int normalized = Shapes.normalizeAxis(axis, Math.max(x.ndim(), 1));
        long[] lastShape = x.ndim() == 0 ? new long[] {1} : x.shape();
        lastShape[normalized] = 1;
        if (carry != null && !Arrays.equals(carry.shape(), lastShape)) {
            throw new ShapeMismatchException("the running total of shape " + Shapes.format(carry.shape()) + " does not continue a scan along axis "
                    + axis + " of shape " + Shapes.format(x.shape()) + ": it must have shape " + Shapes.format(lastShape));
        }
        Loop loop = reductionLoop(ufunc, x.dtype(), null);
        NDArray input = x.ndim() == 0 ? x.reshape(1) : x;
        NDArray byRuns = scanRuns(loop, input, normalized, carry, true);
        return (byRuns != null ? byRuns : scanLastByFold(ufunc, loop, input, normalized, carry)).reshape(lastShape);
    }

    /**
     * {@link #accumulateLast} for any dtype and layout: each kept position's line scanned by the
     * fold that {@link #accumulate} scans it with, begun from the carry's element as a scan of the
     * carry joined to the line would begin, every step written to one element, so the last stays.
     */
    private static NDArray scanLastByFold(Ufunc ufunc, Loop loop, NDArray x, int axis, NDArray carry) {
        if (carry == null && x.shape(axis) == 0) {
            throw new IllegalArgumentException("no slice to fold: shape " + Shapes.format(x.shape()) + " is empty along axis " + axis);
        }
        DType computed = loop.outputs().getFirst();
        Axes axes = Axes.of(new int[] {axis}, x.ndim());
        NDArray rows = axes.asRows(x, computed);
        NDArray carried = carry == null ? null : axes.asRows(carry, computed);
        NDArray result = NDArray.empty(computed, rows.shape(0));
        RowFold fold = new RowFold(ufunc, loop);
        long itemSize = computed.byteSize();
        for (long row = 0; row < rows.shape(0); row++) {
            long target = result.byteOffset() + row * itemSize;
            fold.reset();
            if (carried != null) {
                fold.scan(carried.segment(), carried.byteOffset() + row * carried.byteStride(0), 0, 1, result.segment(), target, 0);
            }
            fold.scan(rows.segment(), rows.byteOffset() + row * rows.byteStride(0), rows.byteStride(1), rows.shape(1), result.segment(), target, 0);
        }
        return result;
    }

    /**
     * {@code ufunc.reduceat(x, indices, axis)}: result {@code i} along the axis folds
     * {@code x[indices[i]:indices[i+1]]}, or is {@code x[indices[i]]} where the next index is not
     * larger; the last slice runs to the end.
     */
    public static NDArray reduceat(Ufunc ufunc, NDArray x, long[] indices, int axis, DType dtype) {
        Loop loop = reductionLoop(ufunc, x.dtype(), dtype);
        DType computed = loop.outputs().getFirst();
        int normalized = Shapes.normalizeAxis(axis, x.ndim());
        long length = x.shape(normalized);
        for (long index : indices) {
            if (index < 0 || index >= length) {
                throw new IndexOutOfBoundsException("index " + index + " out-of-bounds in " + ufunc.name()
                        + ".reduceat [0, " + length + ") along axis " + axis + " of shape " + Shapes.format(x.shape()));
            }
        }
        Axes axes = Axes.of(new int[] {normalized}, x.ndim());
        NDArray rows = axes.asRows(x, computed);
        long[] resultRowsShape = {rows.shape(0), indices.length};
        NDArray result = NDArray.zeros(computed, resultRowsShape);
        RowFold fold = new RowFold(ufunc, loop);
        long itemSize = computed.byteSize();
        long stride = rows.byteStride(1);
        for (long row = 0; row < rows.shape(0); row++) {
            long rowOffset = rows.byteOffset() + row * rows.byteStride(0);
            for (int i = 0; i < indices.length; i++) {
                long from = indices[i];
                long to = i + 1 < indices.length ? indices[i + 1] : length;
                fold.reset();
                fold.fold(rows.segment(), rowOffset + from * stride, stride, from < to ? to - from : 1, null, 0, 0);
                fold.store(result.segment(), (row * indices.length + i) * itemSize);
            }
        }
        long[] shape = x.shape();
        shape[normalized] = indices.length;
        return backFromRows(result, shape, axes);
    }

    /** {@code ufunc.outer(a, b)}: every element of {@code a} with every element of {@code b}. */
    public static NDArray outer(Ufunc ufunc, NDArray a, NDArray b) {
        long[] expanded = new long[a.ndim() + b.ndim()];
        System.arraycopy(a.shape(), 0, expanded, 0, a.ndim());
        java.util.Arrays.fill(expanded, a.ndim(), expanded.length, 1);
        return ufunc.apply(a.reshape(expanded), b);
    }

    /** A C-ordered array of {@code shape} from (kept, reduced) rows of the same elements. */
    private static NDArray backFromRows(NDArray rows, long[] shape, Axes axes) {
        int[] permutation = axes.keptThenReduced();
        long[] movedShape = new long[shape.length];
        for (int i = 0; i < shape.length; i++) {
            movedShape[i] = shape[permutation[i]];
        }
        int[] inverse = new int[permutation.length];
        for (int i = 0; i < permutation.length; i++) {
            inverse[permutation[i]] = i;
        }
        return rows.reshape(movedShape).transpose(inverse).copy();
    }

    /** The loop a reduction runs: the requested dtype's, else NumPy's default for the input. */
    static Loop reductionLoop(Ufunc ufunc, DType input, DType requested) {
        if (ufunc.nin() != 2 || ufunc.nout() != 1) {
            throw new IllegalArgumentException("reduce only supported for binary functions, not " + ufunc.name());
        }
        DType wanted = requested != null ? requested : defaultReductionType(ufunc, input);
        Loop loop = TypeResolution.findLoop(ufunc, wanted, wanted);
        if (loop.outputs().getFirst() != loop.inputs().getFirst()) {
            throw new IllegalArgumentException("reduction of " + ufunc.name() + " over " + input
                    + " needs a loop whose output type matches its inputs; " + loop.signature() + " does not");
        }
        return loop;
    }

    private static DType defaultReductionType(Ufunc ufunc, DType input) {
        boolean widens = (ufunc == Ufuncs.ADD || ufunc == Ufuncs.MULTIPLY) && input.byteSize() < 8;
        if (widens && input.isBool()) {
            return DType.INT64;
        }
        if (widens && input.isInteger()) {
            return input.isUnsigned() ? DType.UINT64 : DType.INT64;
        }
        return input;
    }

    /** The initial value, else the identity, as a 0-d array of {@code dtype}; null when neither exists. */
    private static NDArray startValue(Ufunc ufunc, DType dtype, Object initial) {
        if (initial == null) {
            return ufunc.identityOf(dtype);
        }
        return startArray(initial, dtype);
    }

    /** A 0-d array of {@code dtype} holding {@code value}; reductions only read it. */
    static NDArray startArray(Object value, DType dtype) {
        if (value == null) {
            return null;
        }
        NDArray scalar = switch (value) {
            case Boolean flag -> NDArray.scalar(flag);
            case Double real -> NDArray.scalar(real);
            case Number integer -> NDArray.scalar(integer.longValue());
            default -> throw new IllegalArgumentException("initial value " + value + " is not a number");
        };
        return scalar.astype(dtype);
    }

}
