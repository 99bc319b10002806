package org.tessera.ndarray.kernel;

import java.lang.foreign.MemorySegment;

/**
 * The hottest float64 loops straight over contiguous memory: plain counted loops that C2 unrolls
 * and vectorises, with no per-element calls. Operand order is inputs then output; offsets in bytes.
 */
public final class ContiguousLoops {
    private ContiguousLoops() {}

    public static void addFloat64(MemorySegment[] segments, long[] offsets, long count) {
        MemorySegment x = segments[0], y = segments[1], out = segments[2];
        long xo = offsets[0], yo = offsets[1], oo = offsets[2];
        for (long i = 0; i < count; i++) {
            out.set(Elements.F64, oo + i * 8, x.get(Elements.F64, xo + i * 8) + y.get(Elements.F64, yo + i * 8));
        }
    }

    public static void subtractFloat64(MemorySegment[] segments, long[] offsets, long count) {
        MemorySegment x = segments[0], y = segments[1], out = segments[2];
        long xo = offsets[0], yo = offsets[1], oo = offsets[2];
        for (long i = 0; i < count; i++) {
            out.set(Elements.F64, oo + i * 8, x.get(Elements.F64, xo + i * 8) - y.get(Elements.F64, yo + i * 8));
        }
    }

    public static void multiplyFloat64(MemorySegment[] segments, long[] offsets, long count) {
        MemorySegment x = segments[0], y = segments[1], out = segments[2];
        long xo = offsets[0], yo = offsets[1], oo = offsets[2];
        for (long i = 0; i < count; i++) {
            out.set(Elements.F64, oo + i * 8, x.get(Elements.F64, xo + i * 8) * y.get(Elements.F64, yo + i * 8));
        }
    }

    public static void divideFloat64(MemorySegment[] segments, long[] offsets, long count) {
        MemorySegment x = segments[0], y = segments[1], out = segments[2];
        long xo = offsets[0], yo = offsets[1], oo = offsets[2];
        for (long i = 0; i < count; i++) {
            out.set(Elements.F64, oo + i * 8, x.get(Elements.F64, xo + i * 8) / y.get(Elements.F64, yo + i * 8));
        }
    }

    /**
     * NumPy's pairwise sum of {@code count} float64 values: eight interleaved partial sums for runs of
     * up to 128 elements, halves summed recursively above that, so the error grows with log n.
     */
    public static double pairwiseSumFloat64(MemorySegment segment, long offset, long byteStride, long count) {
        if (count < 8) {
            double sum = -0.0;
            for (long i = 0; i < count; i++) {
                sum += segment.get(Elements.F64, offset + i * byteStride);
            }
            return sum;
        }
        if (count <= 128) {
            return byteStride == 8 ? blockSumContiguous(segment, offset, count) : blockSum(segment, offset, byteStride, count);
        }
        long half = count / 2;
        half -= half % 8;
        return pairwiseSumFloat64(segment, offset, byteStride, half)
                + pairwiseSumFloat64(segment, offset + half * byteStride, byteStride, count - half);
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

    private static double blockSum(MemorySegment segment, long offset, long byteStride, long count) {
        double[] partial = new double[8];
        for (int lane = 0; lane < 8; lane++) {
            partial[lane] = segment.get(Elements.F64, offset + lane * byteStride);
        }
        long i = 8;
        for (; i < count - count % 8; i += 8) {
            for (int lane = 0; lane < 8; lane++) {
                partial[lane] += segment.get(Elements.F64, offset + (i + lane) * byteStride);
            }
        }
        double sum = ((partial[0] + partial[1]) + (partial[2] + partial[3])) + ((partial[4] + partial[5]) + (partial[6] + partial[7]));
        for (; i < count; i++) {
            sum += segment.get(Elements.F64, offset + i * byteStride);
        }
        return sum;
    }

    /** The same pairwise summation over a lane buffer (float32 and float16 sums, widened). */
    public static double pairwiseSum(double[] values, int start, int count) {
        if (count < 8) {
            double sum = -0.0;
            for (int i = 0; i < count; i++) {
                sum += values[start + i];
            }
            return sum;
        }
        if (count <= 128) {
            double[] partial = new double[8];
            System.arraycopy(values, start, partial, 0, 8);
            int i = 8;
            for (; i < count - count % 8; i += 8) {
                for (int lane = 0; lane < 8; lane++) {
                    partial[lane] += values[start + i + lane];
                }
            }
            double sum = ((partial[0] + partial[1]) + (partial[2] + partial[3])) + ((partial[4] + partial[5]) + (partial[6] + partial[7]));
            for (; i < count; i++) {
                sum += values[start + i];
            }
            return sum;
        }
        int half = count / 2;
        half -= half % 8;
        return pairwiseSum(values, start, half) + pairwiseSum(values, start + half, count - half);
    }
}
