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
