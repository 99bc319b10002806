package org.tessera.ndarray.iteration;

import java.util.Arrays;

/**
 * Walks several operands of one shape together and hands the longest possible inner 1-D runs to
 * an {@link InnerLoop}, in C order. Axes of length 1 are dropped and neighbouring axes are merged
 * whenever every operand steps through them as through one axis (NumPy's dimension coalescing),
 * so a contiguous or uniformly strided operand set becomes a single call.
 *
 * <p>Example: two C-contiguous (1000, 1000) float64 operands give one run of 1,000,000 elements;
 * a transposed operand among them gives 1000 runs of 1000.
 */
public final class StridedIteration {
    private StridedIteration() {}

    /** Runs {@code loop} over every element of {@code shape} for all operands. */
    public static void forEachRun(long[] shape, Operand[] operands, InnerLoop loop) {
        for (long length : shape) {
            if (length == 0) {
                return;
            }
        }
        int operandCount = operands.length;
        long[][] coalesced = coalesce(shape, operands);
        long[] lengths = coalesced[0];
        int ndim = lengths.length;
        // coalesced[1 + i] holds the strides of operand i on the merged axes.
        long[] offsets = new long[operandCount];
        long[] innerStrides = new long[operandCount];
        for (int i = 0; i < operandCount; i++) {
            offsets[i] = operands[i].byteOffset();
            innerStrides[i] = ndim == 0 ? 0 : coalesced[1 + i][ndim - 1];
        }
        if (ndim <= 1) {
            loop.run(offsets, innerStrides, ndim == 0 ? 1 : lengths[0]);
            return;
        }
        long innerCount = lengths[ndim - 1];
        long[] counter = new long[ndim - 1];
        long[] runOffsets = offsets.clone();
        long[] passedOffsets = new long[operandCount];
        while (true) {
            System.arraycopy(runOffsets, 0, passedOffsets, 0, operandCount);
            loop.run(passedOffsets, innerStrides, innerCount);
            int axis = ndim - 2;
            while (axis >= 0) {
                counter[axis]++;
                for (int i = 0; i < operandCount; i++) {
                    runOffsets[i] += coalesced[1 + i][axis];
                }
                if (counter[axis] < lengths[axis]) {
                    break;
                }
                for (int i = 0; i < operandCount; i++) {
                    runOffsets[i] -= coalesced[1 + i][axis] * lengths[axis];
                }
                counter[axis] = 0;
                axis--;
            }
            if (axis < 0) {
                return;
            }
        }
    }

    /**
     * Rows and columns of one tile of {@link #forEachRunTiled}. A transposed operand's run of 512
     * elements touches 512 cache lines (32 KiB), reused by the next seven rows; shorter runs cost more
     * in per-run overhead than they gain in locality (measured on N3: 64 gave 0.74 s, 512 gave 0.30 s).
     */
    static final int TILE = 512;

    /**
     * Visits every element exactly once, like {@link #forEachRun}, but not necessarily in C order:
     * when an operand steps through the last two axes in the opposite order of the others (a
     * transposed operand), the last two axes are walked in square tiles so that every operand's
     * cache lines are reused while they are still in cache. For loops whose result does not depend
     * on the visiting order (elementwise kernels over non-overlapping outputs, copies).
     */
    public static void forEachRunTiled(long[] shape, Operand[] operands, InnerLoop loop) {
        for (long length : shape) {
            if (length == 0) {
                return;
            }
        }
        long[][] coalesced = coalesce(shape, operands);
        long[] lengths = coalesced[0];
        int ndim = lengths.length;
        if (ndim < 2 || lengths[ndim - 1] <= TILE || !crossesInnerAxes(coalesced, operands.length)) {
            forEachRun(shape, operands, loop);
            return;
        }
        int operandCount = operands.length;
        long[] innerStrides = new long[operandCount];
        long[] rowStrides = new long[operandCount];
        long[] outerOffsets = new long[operandCount];
        for (int i = 0; i < operandCount; i++) {
            innerStrides[i] = coalesced[1 + i][ndim - 1];
            rowStrides[i] = coalesced[1 + i][ndim - 2];
            outerOffsets[i] = operands[i].byteOffset();
        }
        long rows = lengths[ndim - 2];
        long columns = lengths[ndim - 1];
        long[] counter = new long[ndim - 2];
        long[] runOffsets = new long[operandCount];
        while (true) {
            for (long rowStart = 0; rowStart < rows; rowStart += TILE) {
                long rowEnd = Math.min(rows, rowStart + TILE);
                for (long columnStart = 0; columnStart < columns; columnStart += TILE) {
                    long count = Math.min(TILE, columns - columnStart);
                    for (long row = rowStart; row < rowEnd; row++) {
                        for (int i = 0; i < operandCount; i++) {
                            runOffsets[i] = outerOffsets[i] + row * rowStrides[i] + columnStart * innerStrides[i];
                        }
                        loop.run(runOffsets, innerStrides, count);
                    }
                }
            }
            int axis = ndim - 3;
            while (axis >= 0) {
                counter[axis]++;
                for (int i = 0; i < operandCount; i++) {
                    outerOffsets[i] += coalesced[1 + i][axis];
                }
                if (counter[axis] < lengths[axis]) {
                    break;
                }
                for (int i = 0; i < operandCount; i++) {
                    outerOffsets[i] -= coalesced[1 + i][axis] * lengths[axis];
                }
                counter[axis] = 0;
                axis--;
            }
            if (axis < 0) {
                return;
            }
        }
    }

    /** Whether some operand steps through the second-to-last axis in smaller steps than through the last. */
    private static boolean crossesInnerAxes(long[][] coalesced, int operandCount) {
        int ndim = coalesced[0].length;
        for (int i = 0; i < operandCount; i++) {
            long inner = Math.abs(coalesced[1 + i][ndim - 1]);
            long row = Math.abs(coalesced[1 + i][ndim - 2]);
            if (row != 0 && row < inner) {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns {lengths, strides of operand 0, strides of operand 1, ...} after dropping axes of
     * length 1 and merging axis pairs that every operand steps through contiguously.
     */
    static long[][] coalesce(long[] shape, Operand[] operands) {
        int operandCount = operands.length;
        long[] lengths = new long[shape.length];
        long[][] strides = new long[operandCount][shape.length];
        int ndim = 0;
        for (int axis = 0; axis < shape.length; axis++) {
            if (shape[axis] == 1) {
                continue;
            }
            boolean mergeable = ndim > 0;
            for (int i = 0; i < operandCount && mergeable; i++) {
                mergeable = strides[i][ndim - 1] == shape[axis] * operands[i].byteStride(axis);
            }
            if (mergeable) {
                lengths[ndim - 1] *= shape[axis];
                for (int i = 0; i < operandCount; i++) {
                    strides[i][ndim - 1] = operands[i].byteStride(axis);
                }
            } else {
                lengths[ndim] = shape[axis];
                for (int i = 0; i < operandCount; i++) {
                    strides[i][ndim] = operands[i].byteStride(axis);
                }
                ndim++;
            }
        }
        long[][] result = new long[1 + operandCount][];
        result[0] = Arrays.copyOf(lengths, ndim);
        for (int i = 0; i < operandCount; i++) {
            result[1 + i] = Arrays.copyOf(strides[i], ndim);
        }
        return result;
    }
}
