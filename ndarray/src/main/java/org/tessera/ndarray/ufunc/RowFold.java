package org.tessera.ndarray.ufunc;

import java.lang.foreign.MemorySegment;
import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;

import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.kernel.ContiguousLoops;
import org.tessera.ndarray.kernel.Lanes;

/**
 * Folds runs of elements with a binary loop: the engine of reduce, accumulate and reduceat. Runs
 * are loaded a block at a time into one lane buffer. Float additions are summed pairwise (a run
 * without mask in one pairwise pass, as NumPy's unbuffered inner loop; masked runs per block);
 * other real operations fold left to right through the kernel's scalar function; complex loops,
 * which have none, step their kernel one element at a time.
 */
final class RowFold {
    private final DType dtype;
    private final Kernel kernel;
    private final DoubleBinaryOperator doubleOperator;
    private final LongBinaryOperator longOperator;
    private final boolean pairwise;
    private final int width;
    // Lane buffers grow to the longest block met: a reduction of a 10-element block (the common case
    // inside a chunked array) must not allocate and zero full-size buffers on every call. Unmasked
    // float sums read memory directly and never need them.
    private Object lane;
    private long[] mask = NO_MASK;
    private static final long[] NO_MASK = new long[0];

    /** The accumulator: whether it holds a value yet, and the value as a one-element lane. */
    private boolean started;
    private final Object accumulator;

    RowFold(Ufunc ufunc, Loop loop) {
        this.dtype = loop.outputs().getFirst();
        this.kernel = loop.kernels().getFirst();
        this.doubleOperator = switch (kernel) {
            case Kernel.DoubleBinary(DoubleBinaryOperator function) -> function;
            case Kernel.DoubleArithmetic(Arithmetic operator) -> operator;
            default -> null;
        };
        this.longOperator = switch (kernel) {
            case Kernel.LongBinary(LongBinaryOperator function) -> function;
            case Kernel.LongArithmetic(Arithmetic operator) -> operator;
            case Kernel.LongCompare(Kernel.LongRelation relation) -> (a, b) -> relation.test(a, b) ? 1 : 0;
            default -> null;
        };
        this.pairwise = ufunc == Ufuncs.ADD && doubleOperator != null;
        this.width = dtype.isComplex() ? 2 : 1;
        this.accumulator = Lanes.buffer(dtype, 1);
    }

    /** Starts a new, empty fold. */
    void reset() {
        started = false;
    }

    /** Starts a new fold from the element at {@code offset} of {@code segment}. */
    void startFrom(MemorySegment segment, long offset) {
        started = false;
        fold(segment, offset, 0, 1, null, 0, 0);
    }

    boolean started() { return started; }

    /**
     * Folds {@code count} elements from {@code offset} stepping {@code stride} bytes into the
     * accumulator; with a mask segment only the elements whose mask byte is nonzero.
     */
    void fold(MemorySegment segment, long offset, long stride, long count, MemorySegment maskSegment, long maskOffset, long maskStride) {
        if (pairwise && maskSegment == null && count > 0) {
            add(ContiguousLoops.pairwiseSum(dtype, segment, offset, stride, count));
            return;
        }
        for (long start = 0; start < count; start += Elementwise.BLOCK) {
            int blockCount = (int) Math.min(Elementwise.BLOCK, count - start);
            ensureCapacity(blockCount);
            Lanes.load(dtype, segment, offset + start * stride, stride, lane, blockCount);
            if (maskSegment != null) {
                Lanes.loadLongs(DType.BOOL, maskSegment, maskOffset + start * maskStride, maskStride, mask, blockCount);
                blockCount = compactSelected(blockCount);
            }
            foldBlock(blockCount);
        }
    }

    private void ensureCapacity(int count) {
        if (lane == null || mask.length < count) {
            lane = Lanes.buffer(dtype, count);
            mask = new long[count];
        }
    }

    /** Moves the selected values to the front of the lane buffer; returns how many there are. */
    private int compactSelected(int count) {
        int kept = 0;
        for (int i = 0; i < count; i++) {
            if (mask[i] != 0) {
                System.arraycopy(lane, i * width, lane, kept++ * width, width);
            }
        }
        return kept;
    }

    private void foldBlock(int count) {
        if (count == 0) {
            return;
        }
        if (pairwise) {
            add(ContiguousLoops.pairwiseSum((double[]) lane, 0, count, dtype != DType.FLOAT64));
            return;
        }
        int i = 0;
        if (!started) {
            System.arraycopy(lane, 0, accumulator, 0, width);
            started = true;
            i = 1;
        }
        if (doubleOperator != null) {
            double[] values = (double[]) lane;
            double value = ((double[]) accumulator)[0];
            for (; i < count; i++) {
                value = doubleOperator.applyAsDouble(value, values[i]);
            }
            ((double[]) accumulator)[0] = value;
        } else if (longOperator != null) {
            long[] values = (long[]) lane;
            long value = ((long[]) accumulator)[0];
            for (; i < count; i++) {
                value = longOperator.applyAsLong(value, values[i]);
            }
            ((long[]) accumulator)[0] = value;
        } else {
            for (; i < count; i++) {
                step(i);
            }
        }
    }

    /** accumulator = kernel(accumulator, lane[i]) through the kernel's own block form. */
    private void step(int i) {
        Object element = Lanes.buffer(dtype, 1);
        System.arraycopy(lane, i * width, element, 0, width);
        kernel.apply(new Object[] {accumulator, element}, accumulator, 1);
    }

    /** Adds a pairwise partial sum, in float32 precision for float32 and float16 as NumPy does. */
    private void add(double sum) {
        double[] value = (double[]) accumulator;
        double total = started ? value[0] + sum : sum;
        value[0] = dtype == DType.FLOAT64 ? total : (float) total;
        started = true;
    }

    /**
     * Accumulate: each element is replaced, in the lane buffer and then in {@code target}, by the
     * fold of the elements up to it.
     */
    void scan(MemorySegment segment, long offset, long stride, long count, MemorySegment target, long targetOffset, long targetStride) {
        for (long start = 0; start < count; start += Elementwise.BLOCK) {
            int blockCount = (int) Math.min(Elementwise.BLOCK, count - start);
            ensureCapacity(blockCount);
            Lanes.load(dtype, segment, offset + start * stride, stride, lane, blockCount);
            for (int i = 0; i < blockCount; i++) {
                if (!started) {
                    System.arraycopy(lane, i * width, accumulator, 0, width);
                    started = true;
                } else if (longOperator != null) {
                    ((long[]) accumulator)[0] = longOperator.applyAsLong(((long[]) accumulator)[0], ((long[]) lane)[i]);
                } else if (doubleOperator != null) {
                    ((double[]) accumulator)[0] = doubleOperator.applyAsDouble(((double[]) accumulator)[0], ((double[]) lane)[i]);
                } else {
                    step(i);
                }
                if (accumulator instanceof double[] running) {
                    // NumPy's accumulate writes each running value to the output and reads it back:
                    // float32, float16 and complex64 totals are rounded at every step, not at the end.
                    Lanes.roundTo(dtype == DType.COMPLEX64 ? DType.FLOAT32 : dtype, running, width);
                }
                System.arraycopy(accumulator, 0, lane, i * width, width);
            }
            Lanes.store(dtype, lane, 0, target, targetOffset + start * targetStride, targetStride, blockCount);
        }
    }

    /** Stores the accumulator, rounded or wrapped to the dtype, at {@code offset}. */
    void store(MemorySegment target, long offset) {
        Lanes.store(dtype, accumulator, 0, target, offset, 0, 1);
    }
}
