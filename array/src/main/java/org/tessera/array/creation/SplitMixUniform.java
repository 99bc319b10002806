package org.tessera.array.creation;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.tessera.ndarray.kernel.SplitMix;
import org.tessera.ndarray.kernel.VectorMath;
import org.tessera.ndarray.ufunc.RunCombiner;

/**
 * The uniform doubles of {@code new SplittableRandom(seed).nextDouble()}, made in bulk. SplitMix64
 * is a counter-based generator (the k-th value mixes {@code seed + k * gamma}), so each value is
 * computed independently of the one before: a run of values is one call to the {@link VectorMath}
 * provider, which writes them straight into the block, or else a plain counted loop that C2
 * vectorises into a buffer that is then copied in.
 */
final class SplitMixUniform {
    private SplitMixUniform() {
    }

    private static final long GOLDEN_GAMMA = SplitMix.GOLDEN_GAMMA;
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

    /**
     * Writes, from {@code offset} with {@code byteStrides} (the last one that of consecutive float64s),
     * the values of the box {@code regionStart}/{@code regionShape} of a C-ordered block of
     * {@code blockShape} whose elements are the stream of {@code seed} in order: each row of the box
     * is a run of the stream starting at the row's position in the block. With a {@code combiner},
     * the values are combined into what the memory holds instead (see {@link #generate}).
     */
    static void fillRegion(long seed, long[] blockShape, long[] regionStart, long[] regionShape, MemorySegment segment, long offset, long[] byteStrides,
            RunCombiner combiner) {
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
        long[] row = new long[Math.max(0, ndim - 1)];
        MemorySegment buffer = null;
        for (long runIndex = 0; runIndex < runs; runIndex++) {
            long first = ndim == 0 ? 0 : regionStart[ndim - 1];
            long runOffset = offset;
            for (int axis = 0; axis < ndim - 1; axis++) {
                first += (regionStart[axis] + row[axis]) * blockStrides[axis];
                runOffset += row[axis] * byteStrides[axis];
            }
            buffer = generate(seed + first * GOLDEN_GAMMA, STEPS, run, segment, runOffset, buffer, combiner);
            for (int axis = ndim - 2; axis >= 0 && ++row[axis] == regionShape[axis]; axis--) {
                row[axis] = 0;
            }
        }
    }

    /**
     * Writes the box {@code regionStart}/{@code regionShape} of a C-ordered 2-D block of
     * {@code blockShape} as {@link #fillRegion} would, but transposed: column by column, contiguous
     * from {@code offset}. A transposed read of a block (the {@code x.T} in {@code x + x.T}) then gets
     * its part in the order it reads it, instead of a strided view that it must transpose again.
     * With a {@code combiner}, the values are combined into what the memory holds.
     */
    static void fillRegionTransposed(long seed, long[] blockShape, long[] regionStart, long[] regionShape, MemorySegment segment, long offset,
            RunCombiner combiner) {
        long rows = regionShape[0];
        long columns = regionShape[1];
        if (rows == 0 || columns == 0) {
            return;
        }
        int runLength = (int) Math.min(BATCH, rows);
        long[] rowSteps = new long[runLength];
        MemorySegment buffer = null;
        for (long firstRow = 0; firstRow < rows; firstRow += runLength) {
            int length = (int) Math.min(runLength, rows - firstRow);
            for (int row = 0; row < length; row++) {
                rowSteps[row] = (regionStart[0] + firstRow + row) * blockShape[1] * GOLDEN_GAMMA;
            }
            for (long columnIndex = 0; columnIndex < columns; columnIndex++) {
                long base = seed + (regionStart[1] + columnIndex + 1) * GOLDEN_GAMMA;
                buffer = generate(base, rowSteps, length, segment, offset + (columnIndex * rows + firstRow) * Double.BYTES, buffer, combiner);
            }
        }
    }

    /**
     * The values {@code SplitMix.uniform(base + steps[k])} for k below {@code count}, where runs longer
     * than {@code steps} go on from {@code base + steps.length * gamma} (the steps being those of
     * consecutive counters then), as float64 into {@code segment} from {@code offset}. A batch the
     * provider declines to write there (the vector provider writes heap memory alone; BLAS operands
     * are made in native memory) is made in {@code buffer}, heap memory made only then (null until
     * it is needed) and returned for the next call, by the provider where it takes the buffer, and
     * copied: a buffer made for every region was most of what a gather asking one row at a time
     * allocated (378 of 1835 MB in W6). With a {@code combiner}, every batch is made in the buffer,
     * where it is still in cache when the combiner reads it with the memory it combines it into.
     */
    private static MemorySegment generate(long base, long[] steps, long count, MemorySegment segment, long offset, MemorySegment buffer,
            RunCombiner combiner) {
        VectorMath provider = VectorMath.selected();
        MemorySegment batch = buffer;
        for (long done = 0; done < count; done += steps.length) {
            int length = (int) Math.min(steps.length, count - done);
            long batchBase = base + done * GOLDEN_GAMMA;
            long batchOffset = offset + done * Double.BYTES;
            if (combiner == null && provider.splitMixUniform(batchBase, steps, length, segment, batchOffset)) {
                continue;
            }
            if (batch == null || batch.byteSize() < (long) length * Double.BYTES) {
                batch = MemorySegment.ofArray(new long[(int) Math.min(steps.length, count)]);
            }
            if (!provider.splitMixUniform(batchBase, steps, length, batch, 0)) {
                for (int i = 0; i < length; i++) {
                    batch.setAtIndex(ValueLayout.JAVA_DOUBLE, i, SplitMix.uniform(batchBase + steps[i]));
                }
            }
            if (combiner == null) {
                MemorySegment.copy(batch, 0, segment, batchOffset, (long) length * Double.BYTES);
            } else {
                combiner.combine(batch, 0, segment, batchOffset, length);
            }
        }
        return batch;
    }
}
