package org.tessera.array.creation;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The uniform doubles of {@code new SplittableRandom(seed).nextDouble()}, made in bulk. SplitMix64
 * is a counter-based generator (the k-th value mixes {@code seed + k * gamma}), so each value is
 * computed independently of the one before: a plain counted loop that C2 vectorises, instead of a
 * call per element that carries the generator's state from one value to the next.
 */
final class SplitMixUniform {
    private SplitMixUniform() {
    }

    /** The increment {@code java.util.SplittableRandom} uses for a generator made from a seed. */
    static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
    private static final double DOUBLE_UNIT = 0x1.0p-53;
    private static final int BATCH = 4096;

    /**
     * {@code (k + 1) * gamma} for k in a batch. Reading the counter's steps from an array, rather than
     * multiplying the loop index, leaves only lane-wise operations in the loop, which C2 then compiles
     * to AVX-512 (0.14 ns per value here, against 0.92 ns for the loop over {@code i * gamma}).
     */
    private static final long[] STEPS = new long[BATCH];

    static {
        for (int k = 0; k < BATCH; k++) {
            STEPS[k] = (k + 1) * GOLDEN_GAMMA;
        }
    }

    /** Writes the first {@code count} values of the stream of {@code seed} as float64 from {@code offset}. */
    static void fill(long seed, MemorySegment segment, long offset, long count) {
        double[] batch = new double[(int) Math.min(BATCH, count)];
        for (long done = 0; done < count; done += batch.length) {
            int length = (int) Math.min(batch.length, count - done);
            generate(seed + done * GOLDEN_GAMMA, batch, 0, length);
            MemorySegment.copy(batch, 0, segment, ValueLayout.JAVA_DOUBLE_UNALIGNED, offset + done * Double.BYTES, length);
        }
    }

    /**
     * Writes, contiguous from {@code offset}, the values that {@link #fill} puts in the box
     * {@code regionStart}/{@code regionShape} of a C-ordered block of {@code blockShape}: each row of
     * the box is a run of the stream starting at the row's position in the block.
     */
    static void fillRegion(long seed, long[] blockShape, long[] regionStart, long[] regionShape, MemorySegment segment, long offset) {
        int ndim = blockShape.length;
        long run = ndim == 0 ? 1 : regionShape[ndim - 1];
        long runs = 1;
        for (int axis = 0; axis < ndim - 1; axis++) {
            runs *= regionShape[axis];
        }
        if (run == 0 || runs == 0) {
            return;
        }
        long[] blockStrides = new long[ndim];
        long stride = 1;
        for (int axis = ndim - 1; axis >= 0; axis--) {
            blockStrides[axis] = stride;
            stride *= blockShape[axis];
        }
        double[] buffer = new double[(int) Math.min(BATCH, runs * run)];
        int buffered = 0;
        long written = 0;
        long[] row = new long[Math.max(0, ndim - 1)];
        for (long runIndex = 0; runIndex < runs; runIndex++) {
            long first = ndim == 0 ? 0 : regionStart[ndim - 1];
            for (int axis = 0; axis < ndim - 1; axis++) {
                first += (regionStart[axis] + row[axis]) * blockStrides[axis];
            }
            for (long done = 0; done < run; ) {
                if (buffered == buffer.length) {
                    MemorySegment.copy(buffer, 0, segment, ValueLayout.JAVA_DOUBLE_UNALIGNED, offset + written * Double.BYTES, buffered);
                    written += buffered;
                    buffered = 0;
                }
                int length = (int) Math.min(buffer.length - buffered, run - done);
                generate(seed + (first + done) * GOLDEN_GAMMA, buffer, buffered, length);
                buffered += length;
                done += length;
            }
            for (int axis = ndim - 2; axis >= 0 && ++row[axis] == regionShape[axis]; axis--) {
                row[axis] = 0;
            }
        }
        MemorySegment.copy(buffer, 0, segment, ValueLayout.JAVA_DOUBLE_UNALIGNED, offset + written * Double.BYTES, buffered);
    }

    /**
     * Writes the box {@code regionStart}/{@code regionShape} of a C-ordered 2-D block of
     * {@code blockShape} as {@link #fillRegion} would, but transposed: column by column, contiguous
     * from {@code offset}. A transposed read of a block (the {@code x.T} in {@code x + x.T}) then gets
     * its part in the order it reads it, instead of a strided view that it must transpose again.
     */
    static void fillRegionTransposed(long seed, long[] blockShape, long[] regionStart, long[] regionShape, MemorySegment segment, long offset) {
        long rows = regionShape[0];
        long columns = regionShape[1];
        if (rows == 0 || columns == 0) {
            return;
        }
        int runLength = (int) Math.min(BATCH, rows);
        long[] rowSteps = new long[runLength];
        double[] column = new double[runLength];
        for (long firstRow = 0; firstRow < rows; firstRow += runLength) {
            int length = (int) Math.min(runLength, rows - firstRow);
            for (int row = 0; row < length; row++) {
                rowSteps[row] = (regionStart[0] + firstRow + row) * blockShape[1] * GOLDEN_GAMMA;
            }
            for (long columnIndex = 0; columnIndex < columns; columnIndex++) {
                long base = seed + (regionStart[1] + columnIndex + 1) * GOLDEN_GAMMA;
                for (int row = 0; row < length; row++) {
                    column[row] = mix(base + rowSteps[row]);
                }
                MemorySegment.copy(column, 0, segment, ValueLayout.JAVA_DOUBLE_UNALIGNED, offset + (columnIndex * rows + firstRow) * Double.BYTES, length);
            }
        }
    }

    /** Values {@code base + (k + 1) * gamma}, mixed, for k below {@code length}, into {@code into} from {@code at}. */
    private static void generate(long base, double[] into, int at, int length) {
        for (int i = 0; i < length; i++) {
            into[at + i] = mix(base + STEPS[i]);
        }
    }

    /** Stafford's "variant 13" finaliser (SplitMix64's output function) as a double in [0, 1). */
    private static double mix(long counter) {
        long z = counter;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return ((z ^ (z >>> 31)) >>> 11) * DOUBLE_UNIT;
    }
}
