package org.tessera.ndarray.ufunc;

import java.lang.foreign.MemorySegment;
import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;

import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.kernel.ContiguousLoops;
import org.tessera.ndarray.kernel.Lanes;

/**
 * Folds runs of elements with a binary loop's scalar function: the engine of reduce, accumulate
 * and reduceat. Runs are loaded a block at a time into one lane buffer; float additions are summed
 * pairwise within each block (a float64 run without mask in one pairwise pass, as NumPy's
 * unbuffered inner loop), every other operation strictly left to right.
 */
final class RowFold {
    private final DType dtype;
    private final DoubleBinaryOperator doubleOperator;
    private final LongBinaryOperator longOperator;
    private final boolean pairwise;
    // Lane buffers grow to the longest block seen: a reduction of a 10-element block (the common
    // case inside a chunked array) must not allocate and zero three full-size buffers.
    private double[] doubles = new double[0];
    private long[] longs = new long[0];
    private long[] mask = new long[0];

    /** The accumulator: whether it holds a value yet, and the value in its lane. */
    private boolean started;
    private double doubleValue;
    private long longValue;

    RowFold(Ufunc ufunc, Loop loop) {
        this.dtype = loop.outputs().getFirst();
        Kernel kernel = loop.kernels().getFirst();
        this.doubleOperator = switch (kernel) {
            case Kernel.DoubleBinary(DoubleBinaryOperator function) -> function;
            default -> null;
        };
        this.longOperator = switch (kernel) {
            case Kernel.LongBinary(LongBinaryOperator function) -> function;
            case Kernel.LongCompare(Kernel.LongRelation relation) -> (a, b) -> relation.test(a, b) ? 1 : 0;
            default -> null;
        };
        if (doubleOperator == null && longOperator == null) {
            throw new IllegalArgumentException("reduction is only supported for binary ufuncs with one output, not " + ufunc.name());
        }
        this.pairwise = ufunc == Ufuncs.ADD && doubleOperator != null;
    }

    DType dtype() { return dtype; }

    /** Starts a new fold, empty or from the element at {@code offset} of {@code segment}. */
    void reset() {
        started = false;
    }

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
        if (pairwise && dtype == DType.FLOAT64 && maskSegment == null && count > 0) {
            add(ContiguousLoops.pairwiseSumFloat64(segment, offset, stride, count));
            return;
        }
        for (long start = 0; start < count; start += Elementwise.BLOCK) {
            int blockCount = (int) Math.min(Elementwise.BLOCK, count - start);
            ensureCapacity(blockCount);
            Object lane = Lanes.isLongLane(dtype) ? longs : doubles;
            Lanes.load(dtype, segment, offset + start * stride, stride, lane, blockCount);
            if (maskSegment != null) {
                Lanes.loadLongs(DType.BOOL, maskSegment, maskOffset + start * maskStride, maskStride, mask, blockCount);
                blockCount = compactSelected(lane, blockCount);
            }
            foldBlock(blockCount);
        }
    }

    private void ensureCapacity(int count) {
        if (doubles.length < count) {
            doubles = new double[count];
            longs = new long[count];
            mask = new long[count];
        }
    }

    /** Moves the selected values to the front of the lane buffer; returns how many there are. */
    private int compactSelected(Object lane, int count) {
        int kept = 0;
        for (int i = 0; i < count; i++) {
            if (mask[i] != 0) {
                System.arraycopy(lane, i, lane, kept++, 1);
            }
        }
        return kept;
    }

    private void foldBlock(int count) {
        if (count == 0) {
            return;
        }
        if (pairwise) {
            add(ContiguousLoops.pairwiseSum(doubles, 0, count));
            return;
        }
        int i = 0;
        if (!started) {
            doubleValue = doubles[0];
            longValue = longs[0];
            started = true;
            i = 1;
        }
        if (doubleOperator != null) {
            double value = doubleValue;
            for (; i < count; i++) {
                value = doubleOperator.applyAsDouble(value, doubles[i]);
            }
            doubleValue = value;
        } else {
            long value = longValue;
            for (; i < count; i++) {
                value = longOperator.applyAsLong(value, longs[i]);
            }
            longValue = value;
        }
    }

    private void add(double sum) {
        doubleValue = started ? doubleValue + sum : sum;
        started = true;
    }

    /**
     * Accumulate: each element is replaced, in place in the lane buffer and then in {@code target},
     * by the fold of the elements up to it.
     */
    void scan(MemorySegment segment, long offset, long stride, long count, MemorySegment target, long targetOffset, long targetStride) {
        boolean longLane = Lanes.isLongLane(dtype);
        for (long start = 0; start < count; start += Elementwise.BLOCK) {
            int blockCount = (int) Math.min(Elementwise.BLOCK, count - start);
            ensureCapacity(blockCount);
            Object lane = longLane ? longs : doubles;
            Lanes.load(dtype, segment, offset + start * stride, stride, lane, blockCount);
            for (int i = 0; i < blockCount; i++) {
                if (!started) {
                    doubleValue = doubles[i];
                    longValue = longs[i];
                    started = true;
                } else if (longLane) {
                    longValue = longOperator.applyAsLong(longValue, longs[i]);
                } else {
                    doubleValue = doubleOperator.applyAsDouble(doubleValue, doubles[i]);
                }
                doubles[i] = doubleValue;
                longs[i] = longValue;
            }
            Lanes.store(dtype, lane, 0, target, targetOffset + start * targetStride, targetStride, blockCount);
        }
    }

    /** Stores the accumulator, rounded or wrapped to the dtype, at {@code offset}. */
    void store(MemorySegment target, long offset) {
        if (Lanes.isLongLane(dtype)) {
            Lanes.storeLongs(dtype, new long[] {longValue}, 0, target, offset, 0, 1);
        } else {
            Lanes.storeDoubles(dtype, new double[] {doubleValue}, 0, target, offset, 0, 1);
        }
    }
}
