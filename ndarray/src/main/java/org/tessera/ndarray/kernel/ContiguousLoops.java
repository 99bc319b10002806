package org.tessera.ndarray.kernel;

import java.lang.foreign.MemorySegment;

import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.parallel.Cores;

/**
 * The hottest loops straight over contiguous memory, with no per-element calls: float64 arithmetic
 * goes to the {@link VectorMath} provider first, since C2 compiles these loops over memory segments
 * to one element per cycle; the plain counted loops are the fallback and the integer kernels. Operand order is inputs then output; offsets in bytes.
 */
public final class ContiguousLoops {
    private ContiguousLoops() {}

    public static void addFloat64(MemorySegment[] segments, long[] offsets, long count) {
        if (vectorised(VectorMath.Arithmetic.ADD, segments, offsets, count)) {
            return;
        }
        MemorySegment x = segments[0], y = segments[1], out = segments[2];
        long xo = offsets[0], yo = offsets[1], oo = offsets[2];
        for (long i = 0; i < count; i++) {
            out.set(Elements.F64, oo + i * 8, x.get(Elements.F64, xo + i * 8) + y.get(Elements.F64, yo + i * 8));
        }
    }

    public static void subtractFloat64(MemorySegment[] segments, long[] offsets, long count) {
        if (vectorised(VectorMath.Arithmetic.SUBTRACT, segments, offsets, count)) {
            return;
        }
        MemorySegment x = segments[0], y = segments[1], out = segments[2];
        long xo = offsets[0], yo = offsets[1], oo = offsets[2];
        for (long i = 0; i < count; i++) {
            out.set(Elements.F64, oo + i * 8, x.get(Elements.F64, xo + i * 8) - y.get(Elements.F64, yo + i * 8));
        }
    }

    public static void multiplyFloat64(MemorySegment[] segments, long[] offsets, long count) {
        if (vectorised(VectorMath.Arithmetic.MULTIPLY, segments, offsets, count)) {
            return;
        }
        MemorySegment x = segments[0], y = segments[1], out = segments[2];
        long xo = offsets[0], yo = offsets[1], oo = offsets[2];
        for (long i = 0; i < count; i++) {
            out.set(Elements.F64, oo + i * 8, x.get(Elements.F64, xo + i * 8) * y.get(Elements.F64, yo + i * 8));
        }
    }

    public static void divideFloat64(MemorySegment[] segments, long[] offsets, long count) {
        if (vectorised(VectorMath.Arithmetic.DIVIDE, segments, offsets, count)) {
            return;
        }
        MemorySegment x = segments[0], y = segments[1], out = segments[2];
        long xo = offsets[0], yo = offsets[1], oo = offsets[2];
        for (long i = 0; i < count; i++) {
            out.set(Elements.F64, oo + i * 8, x.get(Elements.F64, xo + i * 8) / y.get(Elements.F64, yo + i * 8));
        }
    }

    /**
     * The fewest elements worth the provider: below it the scalar loop is as fast, and a program of
     * tiny blocks (W5's 100,000 blocks of ten) would otherwise run the Vector API's boxed form until
     * C2 compiles it, whose garbage grew W5's heap by a hundred megabytes.
     */
    private static final long VECTOR_MINIMUM = 64;

    /** The float64 arithmetic on the {@link VectorMath} provider; false where it declines or the run is short (the scalar loop then runs). */
    private static boolean vectorised(VectorMath.Arithmetic operator, MemorySegment[] segments, long[] offsets, long count) {
        return count >= VECTOR_MINIMUM
                && VectorMath.selected().applyContiguous(operator, segments[0], offsets[0], segments[1], offsets[1], segments[2], offsets[2], count);
    }

    /** A {@link VectorMath} function over contiguous float64: the provider straight on memory where it can, else element by element. */
    public static void applyFloat64(VectorMath.Function function, MemorySegment[] segments, long[] offsets, long count) {
        MemorySegment x = segments[0], out = segments[1];
        long xo = offsets[0], oo = offsets[1];
        if (VectorMath.selected().applyContiguous(function, x, xo, out, oo, count)) {
            return;
        }
        for (long i = 0; i < count; i++) {
            out.set(Elements.F64, oo + i * 8, function.applyAsDouble(x.get(Elements.F64, xo + i * 8)));
        }
    }

    // Wrapping integer loops in the operands' own width: no widening to the long lane and back,
    // which made int32 a + b three passes over memory instead of one.

    public static void addInt32(MemorySegment[] segments, long[] offsets, long count) {
        MemorySegment x = segments[0], y = segments[1], out = segments[2];
        long xo = offsets[0], yo = offsets[1], oo = offsets[2];
        for (long i = 0; i < count; i++) {
            out.set(Elements.I32, oo + i * 4, x.get(Elements.I32, xo + i * 4) + y.get(Elements.I32, yo + i * 4));
        }
    }

    public static void subtractInt32(MemorySegment[] segments, long[] offsets, long count) {
        MemorySegment x = segments[0], y = segments[1], out = segments[2];
        long xo = offsets[0], yo = offsets[1], oo = offsets[2];
        for (long i = 0; i < count; i++) {
            out.set(Elements.I32, oo + i * 4, x.get(Elements.I32, xo + i * 4) - y.get(Elements.I32, yo + i * 4));
        }
    }

    public static void multiplyInt32(MemorySegment[] segments, long[] offsets, long count) {
        MemorySegment x = segments[0], y = segments[1], out = segments[2];
        long xo = offsets[0], yo = offsets[1], oo = offsets[2];
        for (long i = 0; i < count; i++) {
            out.set(Elements.I32, oo + i * 4, x.get(Elements.I32, xo + i * 4) * y.get(Elements.I32, yo + i * 4));
        }
    }

    public static void addInt64(MemorySegment[] segments, long[] offsets, long count) {
        MemorySegment x = segments[0], y = segments[1], out = segments[2];
        long xo = offsets[0], yo = offsets[1], oo = offsets[2];
        for (long i = 0; i < count; i++) {
            out.set(Elements.I64, oo + i * 8, x.get(Elements.I64, xo + i * 8) + y.get(Elements.I64, yo + i * 8));
        }
    }

    public static void subtractInt64(MemorySegment[] segments, long[] offsets, long count) {
        MemorySegment x = segments[0], y = segments[1], out = segments[2];
        long xo = offsets[0], yo = offsets[1], oo = offsets[2];
        for (long i = 0; i < count; i++) {
            out.set(Elements.I64, oo + i * 8, x.get(Elements.I64, xo + i * 8) - y.get(Elements.I64, yo + i * 8));
        }
    }

    public static void multiplyInt64(MemorySegment[] segments, long[] offsets, long count) {
        MemorySegment x = segments[0], y = segments[1], out = segments[2];
        long xo = offsets[0], yo = offsets[1], oo = offsets[2];
        for (long i = 0; i < count; i++) {
            out.set(Elements.I64, oo + i * 8, x.get(Elements.I64, xo + i * 8) * y.get(Elements.I64, yo + i * 8));
        }
    }

    /**
     * NumPy's pairwise sum of {@code count} float elements: eight interleaved partial sums for runs
     * of up to 128 elements, halves summed recursively above that, so the error grows with log n.
     * float32 and float16 add in float32 precision, as NumPy's float and half loops do; float64
     * runs of stride 8 are summed straight from memory.
     */
    public static double pairwiseSum(DType dtype, MemorySegment segment, long offset, long byteStride, long count) {
        if (count >= Cores.SPLIT_ELEMENTS && Cores.splits(count)) {
            return pairwiseSumOnCores(dtype, segment, offset, byteStride, count);
        }
        if (dtype == DType.FLOAT64 && byteStride == 8 && count > 128) {
            VectorMath vectors = VectorMath.selected();
            return vectors.sumsPairwise(segment, offset, count) ? vectors.pairwiseSum(segment, offset, count)
                    : pairwiseSumContiguousFloat64(segment, offset, count);
        }
        // A short run is one bulk copy and a sum over a Java array (the same additions in the same
        // order): before the JIT compiles the loop, each memory access costs more than the addition,
        // and a sum over 100,000 blocks of ten runs mostly before that.
        return pairwiseSum(dtype, segment, offset, byteStride, count, new double[(int) Math.min(count, 128)]);
    }

    /** The sequential sum's own first split, its halves summed at once: the same additions. */
    private static double pairwiseSumOnCores(DType dtype, MemorySegment segment, long offset, long byteStride, long count) {
        long half = count / 2 - count / 2 % 8;
        return Cores.sum(() -> pairwiseSum(dtype, segment, offset, byteStride, half),
                () -> pairwiseSum(dtype, segment, offset + half * byteStride, byteStride, count - half));
    }

    private static double pairwiseSum(DType dtype, MemorySegment segment, long offset, long byteStride, long count, double[] scratch) {
        if (count <= 128) {
            Lanes.loadDoubles(dtype, segment, offset, byteStride, scratch, (int) count);
            return blockSum(scratch, 0, (int) count, dtype != DType.FLOAT64);
        }
        long half = count / 2;
        half -= half % 8;
        return pairwiseSum(dtype, segment, offset, byteStride, half, scratch)
                + pairwiseSum(dtype, segment, offset + half * byteStride, byteStride, count - half, scratch);
    }

    private static double pairwiseSumContiguousFloat64(MemorySegment segment, long offset, long count) {
        if (count < 8) {
            double sum = -0.0;
            for (long i = 0; i < count; i++) {
                sum += segment.get(Elements.F64, offset + i * 8);
            }
            return sum;
        }
        if (count <= 128) {
            return blockSumContiguous(segment, offset, count);
        }
        long half = count / 2;
        half -= half % 8;
        return pairwiseSumContiguousFloat64(segment, offset, half) + pairwiseSumContiguousFloat64(segment, offset + half * 8, count - half);
    }

    /** Eight interleaved partial sums over 8..128 elements; the constant stride lets C2 keep them in registers. */
    private static double blockSumContiguous(MemorySegment segment, long offset, long count) {
        long end = offset + (count - count % 8) * 8;
        double r0 = segment.get(Elements.F64, offset);
        double r1 = segment.get(Elements.F64, offset + 8);
        double r2 = segment.get(Elements.F64, offset + 16);
        double r3 = segment.get(Elements.F64, offset + 24);
        double r4 = segment.get(Elements.F64, offset + 32);
        double r5 = segment.get(Elements.F64, offset + 40);
        double r6 = segment.get(Elements.F64, offset + 48);
        double r7 = segment.get(Elements.F64, offset + 56);
        for (long at = offset + 64; at < end; at += 64) {
            r0 += segment.get(Elements.F64, at);
            r1 += segment.get(Elements.F64, at + 8);
            r2 += segment.get(Elements.F64, at + 16);
            r3 += segment.get(Elements.F64, at + 24);
            r4 += segment.get(Elements.F64, at + 32);
            r5 += segment.get(Elements.F64, at + 40);
            r6 += segment.get(Elements.F64, at + 48);
            r7 += segment.get(Elements.F64, at + 56);
        }
        double sum = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
        for (long at = end; at < offset + count * 8; at += 8) {
            sum += segment.get(Elements.F64, at);
        }
        return sum;
    }

    /** The same pairwise summation over a lane buffer; {@code single} rounds every addition to float32. */
    public static double pairwiseSum(double[] values, int start, int count, boolean single) {
        if (count <= 128) {
            return blockSum(values, start, count, single);
        }
        int half = count / 2;
        half -= half % 8;
        return pairwiseSum(values, start, half, single) + pairwiseSum(values, start + half, count - half, single);
    }

    /** Up to 128 values: a plain sum below 8, else eight interleaved partial sums and the rest. */
    private static double blockSum(double[] values, int start, int count, boolean single) {
        if (count < 8) {
            double sum = -0.0;
            for (int i = 0; i < count; i++) {
                sum = add(sum, values[start + i], single);
            }
            return sum;
        }
        double[] partial = new double[8];
        System.arraycopy(values, start, partial, 0, 8);
        int i = 8;
        for (; i < count - count % 8; i += 8) {
            for (int lane = 0; lane < 8; lane++) {
                partial[lane] = add(partial[lane], values[start + i + lane], single);
            }
        }
        double sum = add(add(add(partial[0], partial[1], single), add(partial[2], partial[3], single), single),
                add(add(partial[4], partial[5], single), add(partial[6], partial[7], single), single), single);
        for (; i < count; i++) {
            sum = add(sum, values[start + i], single);
        }
        return sum;
    }

    /** a + b in double, or in float32 (the double sum of two floats rounds to the float sum exactly). */
    private static double add(double a, double b, boolean single) {
        return single ? (float) (a + b) : a + b;
    }
}
