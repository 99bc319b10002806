package org.tessera.array.reshape;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Dask's reshape rule (2022.12's {@code reshape_rechunk}): the chunks an array must have before a
 * reshape so that every block reshapes on its own, and the chunks of the result. Axes are matched
 * from the right; equal lengths keep their blocks; where several input axes merge into one output
 * axis, all but the leftmost of them become whole, so each block is a run of consecutive elements
 * in C order (unless every axis before the merged one is in blocks of 1, when blocks only move);
 * where one input axis splits into several output axes, its blocks are made multiples of the
 * product of the inner output axes, which are then whole.
 *
 * <p>Pure arithmetic on lengths, so the rule is tested against Dask's answers without a graph.
 *
 * @param input  the block lengths per input axis the array is rechunked to first
 * @param output the block lengths per output axis; block k (in C order of the grid) of the result
 *               is block k of the rechunked input, reshaped
 */
public record ReshapeChunks(long[][] input, long[][] output) {

    /**
     * The chunks for reshaping {@code inputShape} blocked as {@code inputChunks} to
     * {@code outputShape}; empty when the reshape neither merges nor splits axes evenly (Dask raises
     * NotImplementedError there, e.g. (4, 6) to (3, 8)).
     */
    public static Optional<ReshapeChunks> plan(long[] inputShape, long[] outputShape, long[][] inputChunks) {
        try {
            ReshapeChunks chunks = rightToLeft(inputShape, outputShape, inputChunks);
            return chunks != null && chunks.fits(inputShape, outputShape) ? Optional.of(chunks) : Optional.empty();
        } catch (IndexOutOfBoundsException notExpressible) {
            // The walk read past the first axis: Python would raise IndexError, Dask cannot do it.
            return Optional.empty();
        }
    }

    /**
     * The walk from the last axes to the first; null where Dask raises NotImplementedError.
     * Positions may become -1 while the other side still
     * has axes left; they then index from the end as Python's do (only length-1 axes are met there),
     * which keeps the answers identical to Dask's.
     */
    private static ReshapeChunks rightToLeft(long[] inShape, long[] outShape, long[][] inChunks) {
        long[][] resultIn = new long[inShape.length][];
        long[][] resultOut = new long[outShape.length][];
        int in = inShape.length - 1;
        int out = outShape.length - 1;
        while (in >= 0 || out >= 0) {
            long inLength = at(inShape, in);
            long outLength = at(outShape, out);
            if (inLength == outLength) {
                set(resultIn, in, at(inChunks, in));
                set(resultOut, out, at(inChunks, in));
                in--;
                out--;
            } else if (inLength == 1) {
                set(resultIn, in, new long[] {1});
                in--;
            } else if (outLength == 1) {
                set(resultOut, out, new long[] {1});
                out--;
            } else if (inLength < outLength) {
                int left = in - 1;
                while (left >= 0 && product(inShape, left, in + 1) < outLength) {
                    left--;
                }
                if (left < 0 || product(inShape, left, in + 1) != outLength) {
                    return null;
                }
                boolean innerAxesInOnes = true;
                for (int axis = 0; axis < in; axis++) {
                    innerAxesInOnes &= inChunks[axis].length == inShape[axis];
                }
                if (innerAxesInOnes) {
                    // Blocks of 1 before the merged axis: the blocks only need to be reordered.
                    for (int axis = 0; axis <= in; axis++) {
                        resultIn[axis] = inChunks[axis];
                    }
                    long repeats = 1;
                    for (int axis = left; axis < in; axis++) {
                        repeats *= inChunks[axis].length;
                    }
                    resultOut[out] = repeat(inChunks[in], repeats);
                } else {
                    for (int axis = left + 1; axis <= in; axis++) {
                        resultIn[axis] = new long[] {inShape[axis]};
                    }
                    long blockReduction = 1;
                    for (int axis = left + 1; axis <= in; axis++) {
                        blockReduction *= inChunks[axis].length;
                    }
                    resultIn[left] = expand(inChunks[left], blockReduction);
                    long rowLength = product(inShape, left + 1, in + 1);
                    resultOut[out] = Arrays.stream(resultIn[left]).map(length -> length * rowLength).toArray();
                }
                out--;
                in = left - 1;
            } else {
                int left = out - 1;
                while (left >= 0 && product(outShape, left, out + 1) < inLength) {
                    left--;
                }
                if (left < 0 || product(outShape, left, out + 1) != inLength) {
                    return null;
                }
                long innerLength = product(outShape, left + 1, out + 1);
                long[] contracted = contract(at(inChunks, in), innerLength);
                set(resultIn, in, contracted);
                for (int axis = left + 1; axis <= out; axis++) {
                    resultOut[axis] = new long[] {outShape[axis]};
                }
                resultOut[left] = Arrays.stream(contracted).map(length -> length / innerLength).toArray();
                out = left - 1;
                in--;
            }
        }
        return new ReshapeChunks(resultIn, resultOut);
    }

    /** Whether the walk gave chunks that cover both shapes with as many blocks, pairwise of equal size. */
    private boolean fits(long[] inputShape, long[] outputShape) {
        for (int axis = 0; axis < input.length; axis++) {
            if (input[axis] == null || input[axis].length == 0 || Arrays.stream(input[axis]).sum() != inputShape[axis]) {
                return false;
            }
        }
        for (int axis = 0; axis < output.length; axis++) {
            if (output[axis] == null || output[axis].length == 0 || Arrays.stream(output[axis]).sum() != outputShape[axis]) {
                return false;
            }
        }
        List<Long> inputSizes = blockSizes(input);
        return inputSizes.equals(blockSizes(output));
    }

    /** The element count of every block, in C order of the grid. */
    private static List<Long> blockSizes(long[][] chunks) {
        List<Long> sizes = new ArrayList<>(List.of(1L));
        for (long[] axis : chunks) {
            List<Long> next = new ArrayList<>(sizes.size() * axis.length);
            for (long size : sizes) {
                for (long length : axis) {
                    next.add(size * length);
                }
            }
            sizes = next;
        }
        return sizes;
    }

    /**
     * Blocks split so that there are about {@code factor} times as many: each into parts of
     * {@code length / factor} (at least 1), the rest kept in its last part (Dask's expand_tuple).
     */
    static long[] expand(long[] lengths, long factor) {
        if (factor == 1) {
            return lengths;
        }
        List<Long> parts = new ArrayList<>();
        for (long length : lengths) {
            long left = length;
            double part = Math.max((double) length / factor, 1);
            while (left >= 2 * part) {
                parts.add((long) part);
                left -= (long) part;
            }
            if (left != 0) {
                parts.add(left);
            }
        }
        return parts.stream().mapToLong(Long::longValue).toArray();
    }

    /** Blocks merged with their neighbours so that every length is a multiple of {@code factor} (Dask's contract_tuple). */
    static long[] contract(long[] lengths, long factor) {
        List<Long> parts = new ArrayList<>();
        long residual = 0;
        for (long length : lengths) {
            long carried = length + residual;
            long whole = carried / factor * factor;
            residual = carried % factor;
            if (whole != 0) {
                parts.add(whole);
            }
        }
        return parts.stream().mapToLong(Long::longValue).toArray();
    }

    private static long[] repeat(long[] lengths, long times) {
        long[] repeated = new long[Math.toIntExact(lengths.length * times)];
        for (int copy = 0; copy < times; copy++) {
            System.arraycopy(lengths, 0, repeated, copy * lengths.length, lengths.length);
        }
        return repeated;
    }

    /** The product of {@code shape[from, to)}, reading a negative {@code from} from the end as Python slices do. */
    private static long product(long[] shape, int from, int to) {
        int start = from < 0 ? Math.max(0, from + shape.length) : from;
        long product = 1;
        for (int axis = start; axis < to; axis++) {
            product *= shape[axis];
        }
        return product;
    }

    private static long at(long[] values, int position) {
        return values[position < 0 ? position + values.length : position];
    }

    private static long[] at(long[][] values, int position) {
        return values[position < 0 ? position + values.length : position];
    }

    private static void set(long[][] values, int position, long[] value) {
        values[position < 0 ? position + values.length : position] = value;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ReshapeChunks chunks && Arrays.deepEquals(input, chunks.input) && Arrays.deepEquals(output, chunks.output);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(input) * 31 + Arrays.deepHashCode(output);
    }

    @Override
    public String toString() {
        return "ReshapeChunks[input=" + Arrays.deepToString(input) + ", output=" + Arrays.deepToString(output) + "]";
    }
}
