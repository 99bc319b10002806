package org.tessera.ndarray.ufunc;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.iteration.Operand;
import org.tessera.ndarray.iteration.StridedIteration;
import org.tessera.ndarray.kernel.Lanes;
import org.tessera.ndarray.layout.Shapes;

/**
 * Runs a resolved loop over broadcast operands by one of NumPy's three paths: contiguous (one
 * call of the loop's contiguous kernel over the whole arrays), strided (runs from the iterator
 * with their own strides) and buffered (each run cut into blocks that are loaded into lane buffers,
 * cast to the loop's dtypes, computed, cast to the outputs' dtypes and stored). The strided and
 * buffered paths share the block loop; only blocks of operands whose dtype differs from the loop's
 * pay for a conversion.
 */
final class Elementwise {
    private Elementwise() {}

    /** Elements per block of the buffered path: 8 KiB per float64 operand, so the lane buffers stay in L1 (exp of 10^7 into a given output: 12.3 ms with 8192, 11.0 ms with 1024). */
    static final int BLOCK = 1024;

    /** Fills {@code outputs} (already of {@code shape}) from {@code inputs}, where {@code where} (or everywhere if null) holds. */
    static void run(Loop loop, NDArray[] inputs, NDArray[] outputs, NDArray where, long[] shape) {
        if (where == null && runContiguous(loop, inputs, outputs)) {
            return;
        }
        int inputCount = inputs.length;
        int outputCount = outputs.length;
        Operand[] operands = new Operand[inputCount + outputCount + (where == null ? 0 : 1)];
        DType[] actual = new DType[operands.length];
        MemorySegment[] segments = new MemorySegment[operands.length];
        for (int i = 0; i < inputCount; i++) {
            operands[i] = inputs[i].operand(shape);
        }
        for (int k = 0; k < outputCount; k++) {
            operands[inputCount + k] = outputs[k].operand();
        }
        if (where != null) {
            operands[operands.length - 1] = where.operand(shape);
        }
        for (int i = 0; i < operands.length; i++) {
            actual[i] = operands[i].dtype();
            segments[i] = operands[i].segment();
        }
        BlockBuffers buffers = new BlockBuffers(loop, actual, (int) Math.min(BLOCK, Math.max(1, Shapes.size(shape))));
        // Inputs that overlap an output were copied by Ufunc, so any visiting order gives the same result.
        StridedIteration.forEachRunTiled(shape, operands, (offsets, strides, count) -> {
            for (long start = 0; start < count; start += BLOCK) {
                int blockCount = (int) Math.min(BLOCK, count - start);
                buffers.compute(segments, offsets, strides, start, blockCount, where != null);
            }
        });
    }

    private static boolean runContiguous(Loop loop, NDArray[] inputs, NDArray[] outputs) {
        if (loop.contiguous() == null || outputs.length != 1) {
            return false;
        }
        NDArray output = outputs[0];
        if (!output.isCContiguous() || output.dtype() != loop.outputs().get(0)) {
            return false;
        }
        MemorySegment[] segments = new MemorySegment[inputs.length + 1];
        long[] offsets = new long[inputs.length + 1];
        for (int i = 0; i < inputs.length; i++) {
            NDArray input = inputs[i];
            if (!input.isCContiguous() || input.dtype() != loop.inputs().get(i)
                    || !Arrays.equals(input.shape(), output.shape())) {
                return false;
            }
            segments[i] = input.segment();
            offsets[i] = input.byteOffset();
        }
        segments[inputs.length] = output.segment();
        offsets[inputs.length] = output.byteOffset();
        loop.contiguous().run(segments, offsets, output.size());
        return true;
    }

    /** The lane buffers of one call, reused for every block. */
    private static final class BlockBuffers {
        private final Loop loop;
        private final DType[] actual;
        private final Object[] loaded;
        private final Object[] inputLanes;
        private final Object[] outputLanes;
        private final Object[] storedLanes;
        private final long[] mask;

        BlockBuffers(Loop loop, DType[] actual, int size) {
            this.loop = loop;
            this.actual = actual;
            int inputCount = loop.inputs().size();
            int outputCount = loop.outputs().size();
            loaded = new Object[inputCount];
            inputLanes = new Object[inputCount];
            for (int i = 0; i < inputCount; i++) {
                loaded[i] = Lanes.buffer(actual[i], size);
                inputLanes[i] = actual[i] == loop.inputs().get(i) ? loaded[i] : Lanes.buffer(loop.inputs().get(i), size);
            }
            outputLanes = new Object[outputCount];
            storedLanes = new Object[outputCount];
            for (int k = 0; k < outputCount; k++) {
                DType target = actual[inputCount + k];
                outputLanes[k] = Lanes.buffer(loop.outputs().get(k), size);
                storedLanes[k] = target == loop.outputs().get(k) ? outputLanes[k] : Lanes.buffer(target, size);
            }
            mask = new long[size];
        }

        void compute(MemorySegment[] segments, long[] offsets, long[] strides, long start, int count, boolean masked) {
            int inputCount = inputLanes.length;
            for (int i = 0; i < inputCount; i++) {
                Lanes.load(actual[i], segments[i], offsets[i] + start * strides[i], strides[i], loaded[i], count);
                if (loaded[i] != inputLanes[i]) {
                    Lanes.convert(actual[i], loaded[i], loop.inputs().get(i), inputLanes[i], count);
                }
            }
            int maskOperand = segments.length - 1;
            if (masked) {
                Lanes.loadLongs(DType.BOOL, segments[maskOperand], offsets[maskOperand] + start * strides[maskOperand],
                        strides[maskOperand], mask, count);
            }
            for (int k = 0; k < outputLanes.length; k++) {
                loop.kernels().get(k).apply(inputLanes, outputLanes[k], count);
                int operand = inputCount + k;
                if (storedLanes[k] != outputLanes[k]) {
                    Lanes.convert(loop.outputs().get(k), outputLanes[k], actual[operand], storedLanes[k], count);
                }
                long offset = offsets[operand] + start * strides[operand];
                if (masked) {
                    storeSelected(actual[operand], storedLanes[k], segments[operand], offset, strides[operand], count);
                } else {
                    Lanes.store(actual[operand], storedLanes[k], 0, segments[operand], offset, strides[operand], count);
                }
            }
        }

        /** Stores only where the mask holds, one run of selected elements at a time. */
        private void storeSelected(DType dtype, Object lane, MemorySegment segment, long offset, long stride, int count) {
            int i = 0;
            while (i < count) {
                while (i < count && mask[i] == 0) {
                    i++;
                }
                int runStart = i;
                while (i < count && mask[i] != 0) {
                    i++;
                }
                if (i > runStart) {
                    Lanes.store(dtype, lane, runStart, segment, offset + runStart * stride, stride, i - runStart);
                }
            }
        }
    }
}
