package org.tessera.ndarray.kernel;

import java.lang.foreign.MemorySegment;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;

/**
 * Bulk float64 kernels that a provider can compute several lanes per instruction: transcendental
 * functions over lane buffers, arithmetic over contiguous memory, and the uniform doubles of the
 * SplitMix64 generator. C2 does not vectorise plain loops over memory segments on this JDK (one
 * element per cycle for an add), so these are the loops worth a SIMD provider. The Vector API provider lives in the optional module {@code tessera-ndarray-simd} (the
 * incubator module needs {@code --add-modules jdk.incubator.vector} on the command line, which a
 * library cannot require of its users); it is found through {@link ServiceLoader}. When no provider
 * loads, the scalar {@link java.lang.Math} loop runs. {@code -Dtessera.simd=false} forces the scalar
 * loop, so both paths can be compared on the same machine.
 */
public interface VectorMath {

    /** The functions a provider computes over lanes, each with its scalar definition. */
    enum Function {
        EXP(Math::exp), LOG(Math::log);

        private final DoubleUnaryOperator scalar;

        Function(DoubleUnaryOperator scalar) {
            this.scalar = scalar;
        }

        public double applyAsDouble(double x) {
            return scalar.applyAsDouble(x);
        }
    }

    /** The arithmetic operators a provider computes over lanes, each with its scalar definition. */
    enum Arithmetic {
        ADD((x, y) -> x + y), SUBTRACT((x, y) -> x - y), MULTIPLY((x, y) -> x * y), DIVIDE((x, y) -> x / y);

        private final DoubleBinaryOperator scalar;

        Arithmetic(DoubleBinaryOperator scalar) {
            this.scalar = scalar;
        }

        public double applyAsDouble(double x, double y) {
            return scalar.applyAsDouble(x, y);
        }
    }

    /** A short name for benchmark output: {@code "scalar"} or the provider's. */
    String name();

    /**
     * The SIMD width each family of kernels runs at, by family (arithmetic, exp and log, the uniform
     * generator, the pairwise sum, the word transpose, the byte unshuffle): "scalar" or the vector's
     * bits. Benchmark results name it, since the figures move with it and a provider may use a
     * narrower vector where that is faster.
     */
    default java.util.Map<String, String> kernelWidths() {
        return java.util.Map.of("arithmetic", "scalar", "exp_log", "scalar", "uniform", "scalar", "pairwise_sum", "scalar", "transpose", "scalar", "unshuffle", "scalar");
    }

    /** {@code output[i] = function(input[i])} for {@code i < count}. */
    void apply(Function function, double[] input, double[] output, int count);

    /**
     * {@code function} over {@code count} contiguous float64 elements, straight from and into memory
     * without lane buffers, where the provider can; false (nothing done) where it cannot.
     */
    default boolean applyContiguous(Function function, MemorySegment input, long inputOffset, MemorySegment output, long outputOffset, long count) {
        return false;
    }

    /**
     * {@code output[i] = operator(x[i], y[i])} over {@code count} contiguous float64 elements, where
     * the provider can; false (nothing done) where it cannot. The output may be one of the inputs.
     */
    default boolean applyContiguous(Arithmetic operator, MemorySegment x, long xOffset, MemorySegment y, long yOffset, MemorySegment output, long outputOffset,
            long count) {
        return false;
    }

    /**
     * {@code output[i] = ((x[first + i] + x[second + i]) + x[third + i]) / divisor} over {@code count}
     * contiguous float64 elements, the three runs at byte offsets {@code first}, {@code second} and
     * {@code third} of one segment (three rows of a window, or one row at three shifts), added in
     * that order; a divisor of 1 divides nothing. Part of the arithmetic family. Where the provider
     * can; false (nothing done) where it cannot. The output must not overlap the runs.
     */
    default boolean sumThree(MemorySegment x, long first, long second, long third, double divisor, MemorySegment output, long outputOffset, long count) {
        return false;
    }

    /**
     * {@code sums[i] += (x[i] - mean[i]) * (x[i] - mean[i])} over {@code count} contiguous float64
     * elements, each step rounded as the three loops apart round it (no fused multiply-add): a row's
     * squared deviations added into a variance's running sums. Part of the arithmetic family. Where
     * the provider can; false (nothing done) where it cannot. The sums must not overlap the inputs.
     */
    default boolean addSquaredDeviations(MemorySegment x, long xOffset, MemorySegment mean, long meanOffset, MemorySegment sums, long sumsOffset,
            long count) {
        return false;
    }

    /**
     * {@code output[i] = SplitMix.uniform(base + steps[i])} for {@code i < count}, as contiguous
     * float64 from {@code outputOffset}, where the provider can; false (nothing done) where it cannot.
     */
    default boolean splitMixUniform(long base, long[] steps, int count, MemorySegment output, long outputOffset) {
        return false;
    }

    /**
     * The byte unshuffle of Blosc's and HDF5's shuffle filter: {@code runs.length} runs hold byte
     * {@code b} of every element in run {@code b}, and element {@code i} is byte {@code i} of each
     * run in turn. Writes elements {@code [first, first + n)} from byte {@code outputOffset} of
     * {@code output}, each {@code runs.length} bytes, and returns {@code n}: at most {@code count},
     * a whole number of the provider's vectors, 0 where it cannot (other element sizes). The caller
     * unshuffles the rest. The output must not overlap the runs.
     */
    default long unshuffle(MemorySegment[] runs, long first, long count, MemorySegment output, long outputOffset) {
        return 0;
    }

    /**
     * The transpose of 8-byte words into a tile: element {@code (row, column)} of the source, at
     * {@code source[base + row + column * columnStep]}, goes to {@code tile[row * step + column]},
     * for the rows and columns of the corner that whole blocks of {@code side x side} cover
     * ({@code rows - rows % side} by {@code columns - columns % side}); returns {@code side}, or 0
     * where the provider transposes nothing. The caller transposes the rest.
     */
    default int transposeWords(long[] source, int base, int columnStep, int rows, int columns, int step, long[] tile) {
        return 0;
    }

    /** Whether {@link #pairwiseSum} sums these {@code count} float64 values from byte {@code offset} of {@code segment}. */
    default boolean sumsPairwise(MemorySegment segment, long offset, long count) {
        return false;
    }

    /**
     * NumPy's pairwise sum of {@code count} contiguous float64 values, bit for bit: runs of up to 128
     * in eight interleaved partial sums, halves above that; only where {@link #sumsPairwise} says so.
     */
    default double pairwiseSum(MemorySegment segment, long offset, long count) {
        throw new UnsupportedOperationException(name() + " has no pairwise sum");
    }

    /** The provider in use: the first that loads, else {@link #scalar()}. */
    static VectorMath selected() {
        return Selection.SELECTED;
    }

    /** The plain {@link java.lang.Math} loop, always available. */
    static VectorMath scalar() {
        return Selection.SCALAR;
    }

    /** Chooses once per JVM; a provider that fails to link (no incubator module) counts as absent. */
    final class Selection {
        private Selection() {}

        static final String PROPERTY = "tessera.simd";

        static final VectorMath SCALAR = new VectorMath() {
            @Override
            public String name() {
                return "scalar";
            }

            @Override
            public void apply(Function function, double[] input, double[] output, int count) {
                for (int i = 0; i < count; i++) {
                    output[i] = function.applyAsDouble(input[i]);
                }
            }
        };

        static final VectorMath SELECTED = choose();

        private static VectorMath choose() {
            if ("false".equals(System.getProperty(PROPERTY, "true").toLowerCase(Locale.ROOT))) {
                return SCALAR;
            }
            try {
                return ServiceLoader.load(VectorMath.class).findFirst().orElse(SCALAR);
            } catch (LinkageError | java.util.ServiceConfigurationError absent) {
                return SCALAR;
            }
        }
    }
}
