package org.tessera.ndarray.ufunc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.iteration.Operand;
import org.tessera.ndarray.iteration.StridedIteration;
import org.tessera.ndarray.kernel.Lanes;
import org.tessera.ndarray.layout.Shapes;
import org.tessera.ndarray.parallel.Cores;

/**
 * Runs a resolved loop over broadcast operands by one of NumPy's three paths: contiguous (one
 * call of the loop's contiguous kernel over the whole arrays), strided (runs from the iterator
 * with their own strides) and buffered (each run cut into blocks that are loaded into lane buffers,
 * cast to the loop's dtypes, computed, cast to the outputs' dtypes and stored). The strided and
 * buffered paths share the block loop; only blocks of operands whose dtype differs from the loop's
 * pay for a conversion. 2-D operands where an input is transposed go through the contiguous
 * kernel tile by tile ({@link TransposedTiles}).
 */
final class Elementwise {
    private Elementwise() {}

    /** Elements per block of the buffered path: 8 KiB per float64 operand, so the lane buffers stay in L1 (exp of 10^7 into a given output: 12.3 ms with 8192, 11.0 ms with 1024). */
    static final int BLOCK = 1024;

    /** Fills {@code outputs} (already of {@code shape}) from {@code inputs}, where {@code where} (or everywhere if null) holds. */
    static void run(Loop loop, NDArray[] inputs, NDArray[] outputs, NDArray where, long[] shape) {
        if (where == null) {
            long size = Shapes.size(shape);
            if (runContiguous(loop, inputs, outputs, size) || runSingleRun(loop, inputs, outputs, size)
                    || TransposedTiles.run(loop, inputs, outputs, shape)) {
                return;
            }
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
        BlockBuffers buffers = new BlockBuffers(loop, actual, (int) Math.min(BLOCK, Math.max(1, Shapes.size(shape))), where != null);
        boolean direct = where == null && takesLoopDtypes(loop, actual);
        // Inputs that overlap an output were copied by Ufunc, so any visiting order gives the same result.
        StridedIteration.forEachRunTiled(shape, operands, (offsets, strides, count) -> {
            if (direct && unitStrides(actual, strides)) {
                // A run of consecutive elements in every operand (a row of a 2-D slice): NumPy's
                // contiguous inner loop, straight on memory with no lane buffers.
                loop.contiguous().run(segments, offsets, count);
                return;
            }
            for (long start = 0; start < count; start += BLOCK) {
                int blockCount = (int) Math.min(BLOCK, count - start);
                buffers.compute(segments, offsets, strides, start, blockCount, where != null);
            }
        });
    }

    /** Whether the loop has a contiguous kernel with one output, and every operand already has the loop's dtype. */
    private static boolean takesLoopDtypes(Loop loop, DType[] actual) {
        if (loop.contiguous() == null || loop.outputs().size() != 1 || actual.length != loop.inputs().size() + 1) {
            return false;
        }
        for (int i = 0; i < actual.length; i++) {
            if (actual[i] != (i < loop.inputs().size() ? loop.inputs().get(i) : loop.outputs().getFirst())) {
                return false;
            }
        }
        return true;
    }

    /** Whether every operand steps one element at a time along the run. */
    private static boolean unitStrides(DType[] actual, long[] strides) {
        for (int i = 0; i < actual.length; i++) {
            if (strides[i] != actual[i].byteSize()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The loop's contiguous kernel, when the output and every input have the loop's dtypes and the
     * inputs are C-contiguous over all elements or single elements (Java scalars mostly). An input
     * that broadcasts to the shape with as many elements is laid out like the output (it differs at
     * most by leading axes of length 1), so comparing sizes stands in for comparing shapes. A single
     * element is repeated into a buffer of one block and the kernel runs block by block: a + 1 then
     * costs what a + b does, with no lane buffers.
     */
    private static boolean runContiguous(Loop loop, NDArray[] inputs, NDArray[] outputs, long size) {
        if (loop.contiguous() == null || outputs.length != 1) {
            return false;
        }
        NDArray output = outputs[0];
        if (!output.isCContiguous() || output.dtype() != loop.outputs().get(0)) {
            return false;
        }
        boolean anyRepeated = false;
        for (int i = 0; i < inputs.length; i++) {
            NDArray input = inputs[i];
            if (input.dtype() != loop.inputs().get(i) || !isWhole(input, size) && input.size() != 1) {
                return false;
            }
            anyRepeated |= !isWhole(input, size);
        }
        // Whole operands alone go in one call per range; a repeated element's buffer holds one
        // block, so then the calls go block by block.
        long blockSize = anyRepeated ? Math.min(BLOCK, size) : size;
        MemorySegment[] segments = new MemorySegment[inputs.length + 1];
        long[] offsets = new long[inputs.length + 1];
        long[] steps = new long[inputs.length + 1];
        for (int i = 0; i < inputs.length; i++) {
            if (isWhole(inputs[i], size)) {
                segments[i] = inputs[i].segment();
                offsets[i] = inputs[i].byteOffset();
                steps[i] = inputs[i].dtype().byteSize();
            } else {
                segments[i] = repeated(inputs[i], (int) blockSize);
            }
        }
        segments[inputs.length] = output.segment();
        offsets[inputs.length] = output.byteOffset();
        steps[inputs.length] = output.dtype().byteSize();
        if (!Cores.splits(size)) {
            runRange(loop.contiguous(), segments, offsets, steps, blockSize, size);
            return true;
        }
        // Every element is computed alone, so ranges may run at once on the cores.
        Cores.forRanges(size, (from, to) -> {
            long[] at = new long[offsets.length];
            for (int i = 0; i < at.length; i++) {
                at[i] = offsets[i] + from * steps[i];
            }
            runRange(loop.contiguous(), segments, at, steps, blockSize < size ? blockSize : to - from, to - from);
        });
        return true;
    }

    /**
     * {@code count} elements from the byte offsets {@code at} (advanced as it goes), in calls of
     * {@code step} elements: operands step {@code steps} bytes an element, a repeated element 0.
     */
    private static void runRange(ContiguousKernel kernel, MemorySegment[] segments, long[] at, long[] steps, long step, long count) {
        for (long start = 0; start < count; start += step) {
            if (start > 0) {
                for (int i = 0; i < at.length; i++) {
                    at[i] += step * steps[i];
                }
            }
            kernel.run(segments, at, Math.min(step, count - start));
        }
    }

    /** Whether {@code input} holds its own element for every one of the {@code size} positions, in C order. */
    private static boolean isWhole(NDArray input, long size) {
        return input.size() == size && input.isCContiguous();
    }

    /**
     * Storage holding the one element of {@code single} {@code count} times over. Every item size
     * divides 16, so the bytes repeat with a period of one 8-byte word (items up to 8 bytes) or two
     * (complex128), and the buffer is filled word by word: on the few elements of a small array,
     * doubling copies cost more than the arithmetic that follows.
     */
    private static MemorySegment repeated(NDArray single, int count) {
        int itemSize = single.dtype().byteSize();
        MemorySegment element = single.segment();
        long offset = single.byteOffset();
        long[] words = new long[(int) (((long) count * itemSize + Long.BYTES - 1) / Long.BYTES)];
        if (itemSize == 2 * Long.BYTES) {
            long first = element.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
            long second = element.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + Long.BYTES);
            for (int i = 0; i < words.length; i += 2) {
                words[i] = first;
                words[i + 1] = second;
            }
        } else {
            long word = switch (itemSize) {
                case 1 -> element.get(ValueLayout.JAVA_BYTE, offset) & 0xffL;
                case 2 -> element.get(ValueLayout.JAVA_SHORT_UNALIGNED, offset) & 0xffffL;
                case 4 -> element.get(ValueLayout.JAVA_INT_UNALIGNED, offset) & 0xffffffffL;
                default -> element.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
            };
            for (int bits = itemSize * Byte.SIZE; bits < Long.SIZE; bits *= 2) {
                word |= word << bits;
            }
            Arrays.fill(words, word);
        }
        return MemorySegment.ofArray(words);
    }

    /**
     * The buffered path without the iterator, when every operand walks the whole shape as one run:
     * C-contiguous over all elements, or a single element (a Java scalar, a 0-d or size-1 array)
     * repeated with stride 0. Any dtypes: the lane buffers cast as on the general path. On small
     * arrays this skips what costs more than the arithmetic (broadcast views, operands, coalescing).
     */
    private static boolean runSingleRun(Loop loop, NDArray[] inputs, NDArray[] outputs, long size) {
        int inputCount = inputs.length;
        int operandCount = inputCount + outputs.length;
        long[] strides = new long[operandCount];
        for (int i = 0; i < operandCount; i++) {
            NDArray array = i < inputCount ? inputs[i] : outputs[i - inputCount];
            if (isWhole(array, size)) {
                strides[i] = array.dtype().byteSize();
            } else if (i < inputCount && array.size() == 1) {
                strides[i] = 0;
            } else {
                return false;
            }
        }
        if (size == 0) {
            return true;
        }
        DType[] actual = new DType[operandCount];
        MemorySegment[] segments = new MemorySegment[operandCount];
        long[] offsets = new long[operandCount];
        for (int i = 0; i < operandCount; i++) {
            NDArray array = i < inputCount ? inputs[i] : outputs[i - inputCount];
            actual[i] = array.dtype();
            segments[i] = array.segment();
            offsets[i] = array.byteOffset();
        }
        BlockBuffers buffers = new BlockBuffers(loop, actual, (int) Math.min(BLOCK, size), false);
        for (long start = 0; start < size; start += BLOCK) {
            buffers.compute(segments, offsets, strides, start, (int) Math.min(BLOCK, size - start), false);
        }
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

        BlockBuffers(Loop loop, DType[] actual, int size, boolean masked) {
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
            mask = masked ? new long[size] : null;
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
