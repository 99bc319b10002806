package org.tessera.ndarray.filter;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.kernel.VectorMath;
import org.tessera.ndarray.layout.Shapes;

/**
 * {@code scipy.ndimage.uniform_filter} with a float64 output: every element becomes the mean of
 * the window of {@code size[k]} elements along each axis k around it (from {@code size[k] / 2}
 * before it), the input extended beyond its edges by an {@link EdgeMode}.
 *
 * <p>The window sum is separable, so it is taken axis after axis, first axis first, and divided by
 * the window's element count at the end: each output element is the sum over its window's lines
 * along the last axis of the sums along the earlier axes. A 2-D array is filtered row by row in one
 * pass: the rows of a window are added into a row buffer that stays in cache, its sums along the row
 * are written out, so the input is read once and the output written once (a 3 x 3 mean written as
 * ufuncs over slices makes six arrays as large as the input).
 */
public final class UniformFilter {
    private UniformFilter() {
    }

    /** The same window length along every axis. */
    public static NDArray apply(NDArray input, long size, EdgeMode mode) {
        long[] sizes = new long[input.ndim()];
        Arrays.fill(sizes, size);
        return apply(input, sizes, mode);
    }

    /** Window length {@code sizes[k]} along axis k. */
    public static NDArray apply(NDArray input, long[] sizes, EdgeMode mode) {
        if (input.dtype().isComplex()) {
            throw new IllegalArgumentException("uniform_filter: dtype " + input.dtype().numpyName() + " is not supported; the input must be real");
        }
        if (sizes.length != input.ndim()) {
            throw new IllegalArgumentException("uniform_filter: " + sizes.length + " window sizes " + Arrays.toString(sizes)
                    + " for an array of shape " + Shapes.format(input.shape()) + "; give one per axis");
        }
        for (int axis = 0; axis < sizes.length; axis++) {
            if (sizes[axis] < 1) {
                throw new IllegalArgumentException("uniform_filter: window size " + sizes[axis] + " along axis " + axis + " must be at least 1");
            }
        }
        NDArray source = input.dtype() == DType.FLOAT64 && input.isCContiguous() ? input : input.astype(DType.FLOAT64);
        if (source.size() == 0) {
            return NDArray.zeros(DType.FLOAT64, input.shape());
        }
        double area = 1;
        for (long size : sizes) {
            area *= size;
        }
        return input.ndim() == 2 ? rows(source, sizes, mode, area) : axisByAxis(source, sizes, mode, area);
    }

    /**
     * The 2-D filter in one pass over the rows: a row buffer gets the sum of the window's rows,
     * then the output row the sum of the buffer's shifted elements, divided by the window's size;
     * only the few columns whose window crosses an edge are summed one by one. The common window
     * of three rows and of three columns goes through the SIMD provider's {@link VectorMath#sumThree}
     * (rows added, then shifts added and divided, in one call each per row), since C2 does not
     * vectorise these loops over memory segments; where the provider declines, the same additions
     * run here one element at a time. A 3 x 3 mean of a 2002 x 2002 block, the output's allocation
     * included ({@code FilterBenchmarks}, AMD EPYC with AVX2): 10.2 ms with the provider, 16.1 without.
     */
    private static NDArray rows(NDArray source, long[] sizes, EdgeMode mode, double area) {
        int rowCount = Math.toIntExact(source.shape(0));
        int columns = Math.toIntExact(source.shape(1));
        int windowRows = Math.toIntExact(sizes[0]);
        int windowColumns = Math.toIntExact(sizes[1]);
        int before = windowColumns / 2;
        // Output columns whose whole window lies inside the row.
        int inner = Math.max(0, columns - windowColumns + 1);
        NDArray output = NDArray.empty(DType.FLOAT64, rowCount, columns);
        MemorySegment in = source.segment();
        MemorySegment out = output.segment();
        long rowBytes = (long) columns * Double.BYTES;
        double constant = mode instanceof EdgeMode.Constant(double value) ? value : 0;
        // The row buffer is long[] memory, the kind the SIMD provider's lanes read and write.
        MemorySegment sums = MemorySegment.ofArray(new long[columns]);
        double[] outRow = new double[columns];
        VectorMath math = VectorMath.selected();
        for (int i = 0; i < rowCount; i++) {
            long first = mode.sourceIndex(i - windowRows / 2, rowCount);
            long last = mode.sourceIndex(i - windowRows / 2 + windowRows - 1, rowCount);
            if (windowRows == 3 && first >= 0 && last >= 0) {
                long middle = mode.sourceIndex(i, rowCount);
                sumThree(math, in, source.byteOffset() + first * rowBytes, source.byteOffset() + middle * rowBytes,
                        source.byteOffset() + last * rowBytes, 1, sums, 0, columns);
            } else {
                for (int k = 0; k < windowRows; k++) {
                    long sourceRow = mode.sourceIndex(i - windowRows / 2 + k, rowCount);
                    addRow(sums, columns, k == 0, sourceRow < 0 ? null : in, source.byteOffset() + sourceRow * rowBytes, constant);
                }
            }
            long outRowOffset = output.byteOffset() + (long) i * rowBytes;
            if (windowColumns == 3) {
                sumThree(math, sums, 0, Double.BYTES, 2 * Double.BYTES, area, out, outRowOffset + (long) before * Double.BYTES, inner);
            } else if (inner > 0) {
                sumShifts(sums, windowColumns, area, outRow, inner);
                MemorySegment.copy(outRow, 0, out, ValueLayout.JAVA_DOUBLE_UNALIGNED, outRowOffset + (long) before * Double.BYTES, inner);
            }
            // The columns whose window crosses an edge, one by one: those before the inner ones, then those after.
            int innerEnd = inner > 0 ? before + inner : 0;
            int edgeBefore = Math.min(before, columns);
            for (int j = 0; j < edgeBefore; j++) {
                out.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, outRowOffset + (long) j * Double.BYTES,
                        edgeWindowSum(sums, j - before, windowColumns, mode, constant * windowRows) / area);
            }
            for (int j = Math.max(edgeBefore, innerEnd); j < columns; j++) {
                out.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, outRowOffset + (long) j * Double.BYTES,
                        edgeWindowSum(sums, j - before, windowColumns, mode, constant * windowRows) / area);
            }
        }
        return output;
    }

    /**
     * Sets ({@code first}) or adds to the {@code columns} elements of {@code sums} the input row at
     * {@code offset} of {@code in}, or {@code constant} where {@code in} is null: rows added one
     * after another, as whole rows would be.
     */
    private static void addRow(MemorySegment sums, int columns, boolean first, MemorySegment in, long offset, double constant) {
        if (in != null && first) {
            MemorySegment.copy(in, offset, sums, 0, (long) columns * Double.BYTES);
            return;
        }
        for (int j = 0; j < columns; j++) {
            double value = in == null ? constant : in.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, offset + (long) j * Double.BYTES);
            sums.setAtIndex(ValueLayout.JAVA_DOUBLE, j, first ? value : sums.getAtIndex(ValueLayout.JAVA_DOUBLE, j) + value);
        }
    }

    /**
     * {@code ((x[a + j] + x[b + j]) + x[c + j]) / divisor} (byte offsets a, b, c) at {@code offset}
     * of {@code out} for j below {@code count}: three rows of a window, or a row at three shifts.
     * The SIMD provider's lanes where it takes the memory, else this loop, with the same additions.
     */
    private static void sumThree(VectorMath math, MemorySegment x, long a, long b, long c, double divisor, MemorySegment out, long offset, int count) {
        if (math.sumThree(x, a, b, c, divisor, out, offset, count)) {
            return;
        }
        for (int j = 0; j < count; j++) {
            long column = (long) j * Double.BYTES;
            double sum = (x.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, a + column) + x.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, b + column))
                    + x.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, c + column);
            out.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, offset + column, divisor == 1 ? sum : sum / divisor);
        }
    }

    /** {@code outRow[j]} = sums[j] + ... + sums[j + window - 1], added in that order, over {@code area}, for j below {@code inner}. */
    private static void sumShifts(MemorySegment sums, int window, double area, double[] outRow, int inner) {
        MemorySegment.copy(sums, ValueLayout.JAVA_DOUBLE, 0, outRow, 0, inner);
        for (int k = 1; k < window; k++) {
            for (int j = 0; j < inner; j++) {
                outRow[j] += sums.getAtIndex(ValueLayout.JAVA_DOUBLE, j + k);
            }
        }
        for (int j = 0; j < inner; j++) {
            outRow[j] /= area;
        }
    }

    /** The sum of {@code window} elements of the row {@code sums} from {@code first}, extended by {@code mode}. */
    private static double edgeWindowSum(MemorySegment sums, int first, int window, EdgeMode mode, double constant) {
        long length = sums.byteSize() / Double.BYTES;
        double total = 0;
        for (int k = 0; k < window; k++) {
            long column = mode.sourceIndex(first + k, length);
            double value = column < 0 ? constant : sums.getAtIndex(ValueLayout.JAVA_DOUBLE, column);
            total = k == 0 ? value : total + value;
        }
        return total;
    }

    /**
     * The sums of {@code window} consecutive elements of {@code line} extended by {@code mode}
     * ({@code constant} beyond the edges where it is a constant mode), into {@code result}.
     */
    private static void windowSums(double[] line, int length, int window, EdgeMode mode, double constant, double[] extended, double[] result) {
        int before = window / 2;
        for (int position = 0; position < length + window - 1; position++) {
            int index = position - before;
            if (index >= 0 && index < length) {
                extended[position] = line[index];
            } else {
                long source = mode.sourceIndex(index, length);
                extended[position] = source < 0 ? constant : line[(int) source];
            }
        }
        System.arraycopy(extended, 0, result, 0, length);
        for (int k = 1; k < window; k++) {
            for (int j = 0; j < length; j++) {
                result[j] += extended[j + k];
            }
        }
    }

    /** Any number of axes: one pass of window sums along each axis in turn, then the division. */
    private static NDArray axisByAxis(NDArray source, long[] sizes, EdgeMode mode, double area) {
        long[] shape = source.shape();
        NDArray current = source.copy();
        double constant = mode instanceof EdgeMode.Constant(double value) ? value : 0;
        double earlierArea = 1;
        for (int axis = 0; axis < shape.length; axis++) {
            int length = Math.toIntExact(shape[axis]);
            int window = Math.toIntExact(sizes[axis]);
            double[] line = new double[length];
            double[] extended = new double[length + window - 1];
            double[] result = new double[length];
            long stride = current.byteStride(axis);
            MemorySegment segment = current.segment();
            long lines = Shapes.size(shape) / length;
            long[] outer = new long[shape.length];
            for (long lineIndex = 0; lineIndex < lines; lineIndex++) {
                long start = current.byteOffset();
                for (int other = 0; other < shape.length; other++) {
                    start += outer[other] * current.byteStride(other);
                }
                for (int j = 0; j < length; j++) {
                    line[j] = segment.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, start + j * stride);
                }
                windowSums(line, length, window, mode, constant * earlierArea, extended, result);
                for (int j = 0; j < length; j++) {
                    segment.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, start + j * stride, result[j]);
                }
                for (int other = shape.length - 1; other >= 0; other--) {
                    if (other == axis) {
                        continue;
                    }
                    if (++outer[other] < shape[other]) {
                        break;
                    }
                    outer[other] = 0;
                }
            }
            earlierArea *= window;
        }
        long size = current.size();
        MemorySegment segment = current.segment();
        for (long element = 0; element < size; element++) {
            long offset = current.byteOffset() + element * Double.BYTES;
            segment.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, offset, segment.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, offset) / area);
        }
        return current;
    }
}
