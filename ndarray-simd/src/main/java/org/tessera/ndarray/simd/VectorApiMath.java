package org.tessera.ndarray.simd;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import org.tessera.ndarray.kernel.SplitMix;
import org.tessera.ndarray.kernel.VectorMath;

/**
 * {@link VectorMath} on the Vector API: on x86 HotSpot compiles these lane-wise operations to the
 * SVML routines it ships (eight float64 lanes per AVX-512 instruction), which NumPy's own SIMD loops
 * match in speed. The tail shorter than one vector runs the scalar definition.
 *
 * <p>Memory is read and written through the {@code long[]} behind Tessera's heap arrays, the vectors
 * reinterpreted as doubles, which costs nothing: the Vector API's loads from a memory segment are
 * not compiled to the SVML stubs (0.055 s against 0.006 s for exp of 10^7). Native, read-only or
 * misaligned memory is declined, and the caller's own loop runs.
 */
public final class VectorApiMath implements VectorMath {
    private static final VectorSpecies<Double> SPECIES = DoubleVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Long> LONG_SPECIES = LongVector.SPECIES_PREFERRED;
    /** Four float64 lanes: the pairwise sum's eight partial sums as two vectors. */
    private static final VectorSpecies<Long> QUARTER = LongVector.SPECIES_256;
    /** The mantissa of a double, and the bits of 0.5 and -0.5: a mantissa ORed into 0.5's bits is 0.5 plus it times 2^-53. */
    private static final long LOW_52_BITS = (1L << 52) - 1;
    private static final long HALF_BITS = Double.doubleToRawLongBits(0.5);
    private static final long MINUS_HALF_BITS = Double.doubleToRawLongBits(-0.5);

    private static final boolean CONVERTS_LONGS = convertsLongs();

    @Override
    public String name() {
        return "vector-api-" + SPECIES.vectorBitSize();
    }

    @Override
    public java.util.Map<String, String> kernelWidths() {
        String width = SPECIES.vectorBitSize() + "-bit";
        return java.util.Map.of("arithmetic", width, "exp_log", width, "uniform", LONG_SPECIES.vectorBitSize() + "-bit",
                "pairwise_sum", QUARTER.vectorBitSize() + "-bit", "transpose", WordTranspose.bits() + "-bit", "unshuffle", ByteUnshuffle.bits() + "-bit");
    }

    @Override
    public int transposeWords(long[] source, int base, int columnStep, int rows, int columns, int step, long[] tile) {
        return WordTranspose.transpose(source, base, columnStep, rows, columns, step, tile);
    }

    @Override
    public long unshuffle(MemorySegment[] runs, long first, long count, MemorySegment output, long outputOffset) {
        return ByteUnshuffle.unshuffle(runs, first, count, output, outputOffset);
    }

    @Override
    public void apply(Function function, double[] input, double[] output, int count) {
        // One loop per operator: the lane-wise operation is compiled to its SVML stub only when the
        // operator is a constant at the call site.
        int vectorEnd = vectorEnd(count, SPECIES.length());
        switch (function) {
            case EXP -> {
                for (int i = 0; i < vectorEnd; i += SPECIES.length()) {
                    DoubleVector.fromArray(SPECIES, input, i).lanewise(VectorOperators.EXP).intoArray(output, i);
                }
            }
            case LOG -> {
                for (int i = 0; i < vectorEnd; i += SPECIES.length()) {
                    DoubleVector.fromArray(SPECIES, input, i).lanewise(VectorOperators.LOG).intoArray(output, i);
                }
            }
        }
        for (int i = vectorEnd; i < count; i++) {
            output[i] = function.applyAsDouble(input[i]);
        }
    }

    @Override
    public boolean applyContiguous(Function function, MemorySegment input, long inputOffset, MemorySegment output, long outputOffset, long count) {
        int from = wordIndex(input, inputOffset, count);
        int to = wordIndex(output, outputOffset, count);
        if (from < 0 || to < 0) {
            return false;
        }
        long[] in = (long[]) input.heapBase().orElseThrow();
        long[] out = (long[]) output.heapBase().orElseThrow();
        int vectorEnd = vectorEnd((int) count, LONG_SPECIES.length());
        switch (function) {
            case EXP -> {
                for (int i = 0; i < vectorEnd; i += LONG_SPECIES.length()) {
                    LongVector.fromArray(LONG_SPECIES, in, from + i).reinterpretAsDoubles().lanewise(VectorOperators.EXP)
                            .reinterpretAsLongs().intoArray(out, to + i);
                }
            }
            case LOG -> {
                for (int i = 0; i < vectorEnd; i += LONG_SPECIES.length()) {
                    LongVector.fromArray(LONG_SPECIES, in, from + i).reinterpretAsDoubles().lanewise(VectorOperators.LOG)
                            .reinterpretAsLongs().intoArray(out, to + i);
                }
            }
        }
        for (int i = vectorEnd; i < count; i++) {
            out[to + i] = Double.doubleToRawLongBits(function.applyAsDouble(Double.longBitsToDouble(in[from + i])));
        }
        return true;
    }

    @Override
    public boolean applyContiguous(Arithmetic operator, MemorySegment x, long xOffset, MemorySegment y, long yOffset, MemorySegment output, long outputOffset,
            long count) {
        int xFrom = wordIndex(x, xOffset, count);
        int yFrom = wordIndex(y, yOffset, count);
        int to = wordIndex(output, outputOffset, count);
        if (xFrom < 0 || yFrom < 0 || to < 0) {
            return false;
        }
        long[] xs = (long[]) x.heapBase().orElseThrow();
        long[] ys = (long[]) y.heapBase().orElseThrow();
        long[] out = (long[]) output.heapBase().orElseThrow();
        int vectorEnd = vectorEnd((int) count, LONG_SPECIES.length());
        // One method per operator, each compiled on its own: with the four loops in this method, C2 ran
        // out of inlining budget once several operators were hot (var and std use subtract and multiply),
        // and the lane operations it did not inline ran the Vector API's Java fallback, which allocates
        // per vector: std(axis=0) of a stored 16000 x 16000 array took 3.3 s against 1.4 s scalar.
        // Each method ends with its own scalar tail: a tail through the operator's lambda was a call per
        // element at a site that sees all four, 6 % of (y + y.T).mean(0)'s samples where tiles of
        // 256 elements leave 8 to it.
        switch (operator) {
            case ADD -> add(xs, xFrom, ys, yFrom, out, to, vectorEnd, (int) count);
            case SUBTRACT -> subtract(xs, xFrom, ys, yFrom, out, to, vectorEnd, (int) count);
            case MULTIPLY -> multiply(xs, xFrom, ys, yFrom, out, to, vectorEnd, (int) count);
            case DIVIDE -> divide(xs, xFrom, ys, yFrom, out, to, vectorEnd, (int) count);
        }
        return true;
    }

    private static void add(long[] xs, int xFrom, long[] ys, int yFrom, long[] out, int to, int vectorEnd, int count) {
        for (int i = 0; i < vectorEnd; i += LONG_SPECIES.length()) {
            doubles(xs, xFrom + i).add(doubles(ys, yFrom + i)).reinterpretAsLongs().intoArray(out, to + i);
        }
        for (int i = vectorEnd; i < count; i++) {
            out[to + i] = Double.doubleToRawLongBits(Double.longBitsToDouble(xs[xFrom + i]) + Double.longBitsToDouble(ys[yFrom + i]));
        }
    }

    private static void subtract(long[] xs, int xFrom, long[] ys, int yFrom, long[] out, int to, int vectorEnd, int count) {
        for (int i = 0; i < vectorEnd; i += LONG_SPECIES.length()) {
            doubles(xs, xFrom + i).sub(doubles(ys, yFrom + i)).reinterpretAsLongs().intoArray(out, to + i);
        }
        for (int i = vectorEnd; i < count; i++) {
            out[to + i] = Double.doubleToRawLongBits(Double.longBitsToDouble(xs[xFrom + i]) - Double.longBitsToDouble(ys[yFrom + i]));
        }
    }

    private static void multiply(long[] xs, int xFrom, long[] ys, int yFrom, long[] out, int to, int vectorEnd, int count) {
        for (int i = 0; i < vectorEnd; i += LONG_SPECIES.length()) {
            doubles(xs, xFrom + i).mul(doubles(ys, yFrom + i)).reinterpretAsLongs().intoArray(out, to + i);
        }
        for (int i = vectorEnd; i < count; i++) {
            out[to + i] = Double.doubleToRawLongBits(Double.longBitsToDouble(xs[xFrom + i]) * Double.longBitsToDouble(ys[yFrom + i]));
        }
    }

    private static void divide(long[] xs, int xFrom, long[] ys, int yFrom, long[] out, int to, int vectorEnd, int count) {
        for (int i = 0; i < vectorEnd; i += LONG_SPECIES.length()) {
            doubles(xs, xFrom + i).div(doubles(ys, yFrom + i)).reinterpretAsLongs().intoArray(out, to + i);
        }
        for (int i = vectorEnd; i < count; i++) {
            out[to + i] = Double.doubleToRawLongBits(Double.longBitsToDouble(xs[xFrom + i]) / Double.longBitsToDouble(ys[yFrom + i]));
        }
    }

    @Override
    public boolean sumThree(MemorySegment x, long first, long second, long third, double divisor, MemorySegment output, long outputOffset, long count) {
        int a = wordIndex(x, first, count);
        int b = wordIndex(x, second, count);
        int c = wordIndex(x, third, count);
        int to = wordIndex(output, outputOffset, count);
        if (a < 0 || b < 0 || c < 0 || to < 0) {
            return false;
        }
        long[] xs = (long[]) x.heapBase().orElseThrow();
        long[] out = (long[]) output.heapBase().orElseThrow();
        int vectorEnd = vectorEnd((int) count, LONG_SPECIES.length());
        // Without a division the loop is one of adds only: x / 1 is x, NaN and signed zeros included.
        if (divisor == 1) {
            sumThree(xs, a, b, c, out, to, vectorEnd);
        } else {
            meanThree(xs, a, b, c, divisor, out, to, vectorEnd);
        }
        for (int i = vectorEnd; i < count; i++) {
            double sum = (Double.longBitsToDouble(xs[a + i]) + Double.longBitsToDouble(xs[b + i])) + Double.longBitsToDouble(xs[c + i]);
            out[to + i] = Double.doubleToRawLongBits(divisor == 1 ? sum : sum / divisor);
        }
        return true;
    }

    private static void sumThree(long[] xs, int a, int b, int c, long[] out, int to, int vectorEnd) {
        for (int i = 0; i < vectorEnd; i += LONG_SPECIES.length()) {
            doubles(xs, a + i).add(doubles(xs, b + i)).add(doubles(xs, c + i)).reinterpretAsLongs().intoArray(out, to + i);
        }
    }

    private static void meanThree(long[] xs, int a, int b, int c, double divisor, long[] out, int to, int vectorEnd) {
        for (int i = 0; i < vectorEnd; i += LONG_SPECIES.length()) {
            doubles(xs, a + i).add(doubles(xs, b + i)).add(doubles(xs, c + i)).div(divisor).reinterpretAsLongs().intoArray(out, to + i);
        }
    }

    @Override
    public boolean addSquaredDeviations(MemorySegment x, long xOffset, MemorySegment mean, long meanOffset, MemorySegment sums, long sumsOffset,
            long count) {
        int xFrom = wordIndex(x, xOffset, count);
        int meanFrom = wordIndex(mean, meanOffset, count);
        int to = wordIndex(sums, sumsOffset, count);
        if (xFrom < 0 || meanFrom < 0 || to < 0) {
            return false;
        }
        long[] xs = (long[]) x.heapBase().orElseThrow();
        long[] means = (long[]) mean.heapBase().orElseThrow();
        long[] out = (long[]) sums.heapBase().orElseThrow();
        int vectorEnd = vectorEnd((int) count, LONG_SPECIES.length());
        for (int i = 0; i < vectorEnd; i += LONG_SPECIES.length()) {
            DoubleVector deviation = doubles(xs, xFrom + i).sub(doubles(means, meanFrom + i));
            doubles(out, to + i).add(deviation.mul(deviation)).reinterpretAsLongs().intoArray(out, to + i);
        }
        for (int i = vectorEnd; i < count; i++) {
            double deviation = Double.longBitsToDouble(xs[xFrom + i]) - Double.longBitsToDouble(means[meanFrom + i]);
            out[to + i] = Double.doubleToRawLongBits(Double.longBitsToDouble(out[to + i]) + deviation * deviation);
        }
        return true;
    }

    @Override
    public boolean splitMixUniform(long base, long[] steps, int count, MemorySegment output, long outputOffset) {
        int to = wordIndex(output, outputOffset, count);
        if (to < 0 || count > steps.length) {
            return false;
        }
        long[] out = (long[]) output.heapBase().orElseThrow();
        int length = LONG_SPECIES.length();
        int vectorEnd = vectorEnd(count, length);
        for (int i = 0; i < vectorEnd; i += length) {
            LongVector z = LongVector.fromArray(LONG_SPECIES, steps, i).add(base);
            z = z.lanewise(VectorOperators.XOR, z.lanewise(VectorOperators.LSHR, 30)).mul(SplitMix.FIRST_MULTIPLIER);
            z = z.lanewise(VectorOperators.XOR, z.lanewise(VectorOperators.LSHR, 27)).mul(SplitMix.SECOND_MULTIPLIER);
            z = z.lanewise(VectorOperators.XOR, z.lanewise(VectorOperators.LSHR, 31));
            unitInterval(z).reinterpretAsLongs().intoArray(out, to + i);
        }
        for (int i = vectorEnd; i < count; i++) {
            out[to + i] = Double.doubleToRawLongBits(SplitMix.uniform(base + steps[i]));
        }
        return true;
    }

    /**
     * The top 53 bits of each lane as a double in [0, 1), exactly {@code (z >>> 11) * 2^-53}. The
     * long-to-double lane conversion has an instruction on AVX-512DQ alone ({@code vcvtqq2pd}), which
     * the JIT uses once it may use 512-bit vectors: there the conversion is one step (0.26 against
     * 0.36 ns a value for the whole generator on a Zen 4, 0.32 against 0.48 on a Xeon). Elsewhere the
     * Vector API computes it in Java, lane by lane with an array per vector, five to eight times
     * slower than the scalar loop, so the conversion is made of integer lane operations. Of the 53
     * bits, the low 52 (bits 11 to 62 of the lane) go into the mantissa of 0.5, which makes the
     * double {@code 0.5 + low * 2^-53}; that is the value when the top bit is set, and is 0.5 too
     * much when it is clear, so -0.5 (or +0.0) is added, chosen by the top bit with integer operations
     * alone (AVX2 has no 64-bit arithmetic shift). The sum is exact: where -0.5 is added, the two
     * terms lie within a factor of two of each other. Seven lane operations where splitting the bits
     * into two doubles and scaling each took ten: 0.79 against 1.03 ns a value at AVX2 on a Zen 4,
     * 2026-11-28.
     */
    private static DoubleVector unitInterval(LongVector z) {
        if (CONVERTS_LONGS) {
            return ((DoubleVector) z.lanewise(VectorOperators.LSHR, 11).convert(VectorOperators.L2D, 0)).mul(SplitMix.DOUBLE_UNIT);
        }
        DoubleVector upper = z.lanewise(VectorOperators.LSHR, 11).and(LOW_52_BITS).or(HALF_BITS).reinterpretAsDoubles();
        DoubleVector correction = z.lanewise(VectorOperators.LSHR, 63).sub(1L).and(MINUS_HALF_BITS).reinterpretAsDoubles();
        return upper.add(correction);
    }

    /**
     * Whether long lanes convert to double lanes in one instruction: 512-bit vectors (HotSpot allows
     * them only at {@code UseAVX=3}) on a CPU with AVX-512DQ ({@code /proc/cpuinfo}'s flags; on other
     * systems the integer form serves).
     */
    private static boolean convertsLongs() {
        if (LONG_SPECIES.vectorBitSize() < 512) {
            return false;
        }
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(line -> line.startsWith("flags")).findFirst()
                    .map(line -> Arrays.asList(line.substring(line.indexOf(':') + 1).trim().split("\\s+")).contains("avx512dq"))
                    .orElse(false);
        } catch (IOException | RuntimeException unreadable) {
            return false;
        }
    }

    /**
     * Where the whole vectors end: before the last one when {@code count} is a multiple of
     * {@code length}, so that the scalar tail always runs. C2 compiles a branch its profile never
     * saw taken to a trap; the first count with a tail would then throw the compiled loop away, and
     * until it is compiled again the Vector API runs interpreted, a hundred times slower.
     */
    private static int vectorEnd(int count, int length) {
        return Math.max(0, count - 1) / length * length;
    }

    /**
     * Eight partial sums are two vectors of 4 lanes. Where the JIT may use 512-bit vectors, 256-bit
     * ones still serve: one 8-lane vector summed the same way took 0.061 s for 10^8 values against
     * the scalar loop's 0.055 (reading its eight lanes out costs more than the adds save), two 4-lane
     * vectors 0.049, NumPy's time.
     */
    @Override
    public boolean sumsPairwise(MemorySegment segment, long offset, long count) {
        return LONG_SPECIES.vectorBitSize() >= QUARTER.vectorBitSize() && wordIndex(segment, offset, count) >= 0;
    }

    @Override
    public double pairwiseSum(MemorySegment segment, long offset, long count) {
        return pairwise((long[]) segment.heapBase().orElseThrow(), wordIndex(segment, offset, count), (int) count);
    }

    /** The same halves as the scalar pairwise sum, so the same additions in the same order. */
    private static double pairwise(long[] words, int from, int count) {
        if (count < 8) {
            return tail(words, from, 0, count, -0.0);
        }
        if (count <= 128) {
            return blockSum(words, from, count);
        }
        int half = count / 2;
        half -= half % 8;
        return pairwise(words, from, half) + pairwise(words, from + half, count - half);
    }

    /**
     * Partial sum j adds elements j, j + 8, j + 16, ... as NumPy's eight accumulators do: lanes 0-3
     * of one 4-lane vector hold partial sums 0-3, those of another 4-7.
     */
    private static double blockSum(long[] words, int from, int count) {
        int end = count - count % 8;
        DoubleVector low = quarter(words, from);
        DoubleVector high = quarter(words, from + 4);
        for (int i = 8; i < end; i += 8) {
            low = low.add(quarter(words, from + i));
            high = high.add(quarter(words, from + i + 4));
        }
        double sum = ((low.lane(0) + low.lane(1)) + (low.lane(2) + low.lane(3))) + ((high.lane(0) + high.lane(1)) + (high.lane(2) + high.lane(3)));
        return tail(words, from, end, count, sum);
    }

    private static DoubleVector quarter(long[] words, int at) {
        return LongVector.fromArray(QUARTER, words, at).reinterpretAsDoubles();
    }

    private static double tail(long[] words, int from, int end, int count, double sum) {
        for (int i = end; i < count; i++) {
            sum += Double.longBitsToDouble(words[from + i]);
        }
        return sum;
    }

    private static DoubleVector doubles(long[] words, int at) {
        return LongVector.fromArray(LONG_SPECIES, words, at).reinterpretAsDoubles();
    }

    /**
     * The index in the backing {@code long[]} of the float64 at {@code offset} of a writable heap
     * segment, when {@code count} of them from there lie inside it and start on a word; else -1.
     */
    private static int wordIndex(MemorySegment segment, long offset, long count) {
        if (!(segment.heapBase().orElse(null) instanceof long[]) || offset < 0 || count < 0 || count > (segment.byteSize() - offset) / Long.BYTES) {
            return -1;
        }
        long byteIndex = segment.address() + offset;
        return byteIndex % Long.BYTES != 0 || byteIndex / Long.BYTES + count > Integer.MAX_VALUE ? -1 : (int) (byteIndex / Long.BYTES);
    }
}
