package org.tessera.ndarray.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.filter.EdgeMode;
import org.tessera.ndarray.filter.UniformFilter;
import org.tessera.ndarray.kernel.SplitMix;
import org.tessera.ndarray.kernel.VectorMath;
import org.tessera.ndarray.ufunc.NumpyPairwise;
import org.tessera.ndarray.ufunc.Ufuncs;

/** The Vector API provider against the scalar definition: the Lucene pattern of a tested fallback. */
class VectorApiMathTest {

    /** Random values over each function's whole domain, plus the edges where implementations differ. */
    private static double[] inputs(VectorMath.Function function) {
        SplittableRandom random = new SplittableRandom(7);
        double[] values = new double[100_003];
        for (int i = 0; i < values.length; i++) {
            values[i] = switch (function) {
                case EXP -> (random.nextDouble() - 0.5) * 1500;
                case LOG -> Math.scalb(random.nextDouble(), random.nextInt(-1074, 1024));
            };
        }
        double[] edges = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0, -0.0, 1.0, -1.0,
                709.782712893384, 709.7827128933841, -745.1332191019411, -745.1332191019412, Double.MIN_VALUE,
                Double.MAX_VALUE, Double.MIN_NORMAL, 1e-300, -708.4};
        System.arraycopy(edges, 0, values, 0, edges.length);
        return values;
    }

    @Test
    void everyFunctionIsWithinOneUlpOfMathAndAgreesOnSpecialValues() {
        VectorMath vector = new VectorApiMath();
        for (VectorMath.Function function : VectorMath.Function.values()) {
            double[] input = inputs(function);
            double[] fast = new double[input.length];
            double[] scalar = new double[input.length];
            vector.apply(function, input, fast, input.length);
            VectorMath.scalar().apply(function, input, scalar, input.length);
            for (int i = 0; i < input.length; i++) {
                String where = function + "(" + input[i] + ")";
                if (Double.isNaN(scalar[i]) || Double.isInfinite(scalar[i]) || scalar[i] == 0) {
                    assertEquals(scalar[i], fast[i], where);
                } else {
                    assertTrue(Math.abs(fast[i] - scalar[i]) <= Math.ulp(scalar[i]), where + ": " + fast[i] + " vs " + scalar[i]);
                }
            }
        }
    }

    @Test
    void theUfuncsUseTheProviderWhenTheIncubatorModuleIsPresent() {
        assertTrue(VectorMath.selected() instanceof VectorApiMath, "selected: " + VectorMath.selected().name());
        NDArray x = NDArrays.linspace(-3, 3, 1001);
        NDArray result = Ufuncs.EXP.apply(x);
        for (long i = 0; i < x.size(); i++) {
            assertEquals(Math.exp(x.getDouble(i)), result.getDouble(i), Math.ulp(Math.exp(x.getDouble(i))));
        }
        assertEquals(0.0, Ufuncs.LOG.apply(NDArrays.linspace(1, 1, 17)).getDouble(16));
    }

    /** The contiguous path indexes the backing long[] from the segment's offset: views at other offsets, and read-only inputs, must agree with Math. */
    @Test
    void contiguousViewsAtAnyOffsetAndReadOnlyInputsGiveMathsValues() {
        NDArray x = NDArrays.linspace(-20, 20, 1003);
        for (long start : new long[] {0, 1, 5, 17}) {
            NDArray view = NDArrays.get(x, org.tessera.ndarray.index.Index.range(start, 1003L - start % 3, 1L));
            for (NDArray input : new NDArray[] {view, view.readOnly()}) {
                NDArray exp = Ufuncs.EXP.apply(input);
                NDArray log = Ufuncs.LOG.apply(Ufuncs.ABSOLUTE.apply(input));
                for (long i = 0; i < input.size(); i++) {
                    double value = input.getDouble(i);
                    assertEquals(Math.exp(value), exp.getDouble(i), Math.ulp(Math.exp(value)), "exp at " + i + " of a view from " + start);
                    assertEquals(Math.log(Math.abs(value)), log.getDouble(i), Math.ulp(Math.log(Math.abs(value))), "log at " + i);
                }
            }
        }
        NDArray out = NDArray.zeros(org.tessera.ndarray.dtype.DType.FLOAT64, 1003);
        NDArray target = NDArrays.get(out, org.tessera.ndarray.index.Index.range(3L, 1003L, 1L));
        Ufuncs.EXP.apply(new Object[] {NDArrays.get(x, org.tessera.ndarray.index.Index.range(0L, 1000L, 1L))}, new NDArray[] {target}, null,
                org.tessera.ndarray.dtype.Casting.SAME_KIND);
        assertEquals(0.0, out.getDouble(2), "nothing written before the output view");
        assertEquals(Math.exp(x.getDouble(999)), out.getDouble(1002), Math.ulp(Math.exp(x.getDouble(999))));
    }

    /** Every operator, at counts around the vector length and at word offsets into the backing array, is the scalar definition bit for bit. */
    @Test
    void arithmeticOverContiguousMemoryIsTheScalarOperatorExactly() {
        VectorMath vector = new VectorApiMath();
        SplittableRandom random = new SplittableRandom(11);
        long[] xs = new long[300];
        long[] ys = new long[300];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = Double.doubleToRawLongBits((random.nextDouble() - 0.5) * 1e3);
            ys[i] = Double.doubleToRawLongBits(i % 17 == 0 ? 0.0 : random.nextDouble() - 0.5);
        }
        MemorySegment x = MemorySegment.ofArray(xs);
        MemorySegment y = MemorySegment.ofArray(ys);
        for (VectorMath.Arithmetic operator : VectorMath.Arithmetic.values()) {
            for (int count : new int[] {0, 1, 7, 8, 9, 16, 63, 64, 65, 250}) {
                for (int shift : new int[] {0, 1, 3}) {
                    long[] outs = new long[300];
                    MemorySegment out = MemorySegment.ofArray(outs);
                    assertTrue(vector.applyContiguous(operator, x, shift * 8L, y, 16, out, 8 * (shift + 2L), count));
                    for (int i = 0; i < 300; i++) {
                        double expected = i >= shift + 2 && i < shift + 2 + count
                                ? operator.applyAsDouble(Double.longBitsToDouble(xs[i - 2]), Double.longBitsToDouble(ys[i - shift]))
                                : 0.0;
                        assertEquals(Double.doubleToRawLongBits(expected), outs[i], operator + " of " + count + " from " + shift + ", at " + i);
                    }
                }
            }
        }
    }

    /** Three runs of one array added in order and divided, at counts around the vector length and at any word offsets, are the scalar loop bit for bit. */
    @Test
    void threeRunsAreAddedAndDividedAsTheScalarLoopDoes() {
        VectorMath vector = new VectorApiMath();
        SplittableRandom random = new SplittableRandom(17);
        long[] xs = new long[400];
        for (int i = 0; i < xs.length; i++) {
            // Magnitudes over many binades: another order of the additions would change the bits.
            xs[i] = Double.doubleToRawLongBits(Math.scalb(random.nextDouble() - 0.4, random.nextInt(-30, 30)));
        }
        xs[5] = Double.doubleToRawLongBits(Double.NaN);
        xs[40] = Double.doubleToRawLongBits(Double.POSITIVE_INFINITY);
        xs[41] = Double.doubleToRawLongBits(-0.0);
        MemorySegment x = MemorySegment.ofArray(xs);
        for (double divisor : new double[] {1, 9, 3, -0.5}) {
            for (int count : new int[] {0, 1, 3, 4, 5, 8, 9, 63, 64, 65, 250}) {
                for (int[] runs : new int[][] {{0, 1, 2}, {3, 100, 37}, {140, 7, 0}}) {
                    long[] outs = new long[300];
                    assertTrue(vector.sumThree(x, runs[0] * 8L, runs[1] * 8L, runs[2] * 8L, divisor, MemorySegment.ofArray(outs), 16, count));
                    for (int i = 0; i < outs.length; i++) {
                        double expected = 0.0;
                        if (i >= 2 && i < 2 + count) {
                            int at = i - 2;
                            double sum = (Double.longBitsToDouble(xs[runs[0] + at]) + Double.longBitsToDouble(xs[runs[1] + at]))
                                    + Double.longBitsToDouble(xs[runs[2] + at]);
                            expected = sum / divisor;
                        }
                        assertEquals(Double.doubleToRawLongBits(expected), outs[i], count + " from " + java.util.Arrays.toString(runs) + " over " + divisor + ", at " + i);
                    }
                }
            }
        }
    }

    /** Squared deviations are added into the sums as the scalar steps round them: subtract, multiply, add, no fused multiply-add. */
    @Test
    void squaredDeviationsAreAddedAsTheScalarStepsRoundThem() {
        VectorMath vector = new VectorApiMath();
        SplittableRandom random = new SplittableRandom(23);
        long[] xs = new long[300];
        long[] means = new long[300];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = Double.doubleToRawLongBits(Math.scalb(random.nextDouble() - 0.3, random.nextInt(-20, 20)));
            means[i] = Double.doubleToRawLongBits(Math.scalb(random.nextDouble(), random.nextInt(-20, 20)));
        }
        xs[6] = Double.doubleToRawLongBits(Double.NaN);
        xs[70] = Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY);
        means[71] = Double.doubleToRawLongBits(-0.0);
        xs[71] = Double.doubleToRawLongBits(-0.0);
        for (int count : new int[] {0, 1, 3, 4, 5, 8, 9, 63, 64, 65, 250}) {
            for (int[] from : new int[][] {{0, 0}, {3, 40}, {41, 1}}) {
                long[] sums = new long[280];
                for (int i = 0; i < sums.length; i++) {
                    sums[i] = Double.doubleToRawLongBits(Math.scalb(random.nextDouble(), random.nextInt(-20, 20)));
                }
                long[] before = sums.clone();
                assertTrue(vector.addSquaredDeviations(MemorySegment.ofArray(xs), from[0] * 8L, MemorySegment.ofArray(means), from[1] * 8L,
                        MemorySegment.ofArray(sums), 16, count));
                for (int i = 0; i < sums.length; i++) {
                    long expected = before[i];
                    if (i >= 2 && i < 2 + count) {
                        double deviation = Double.longBitsToDouble(xs[from[0] + i - 2]) - Double.longBitsToDouble(means[from[1] + i - 2]);
                        expected = Double.doubleToRawLongBits(Double.longBitsToDouble(before[i]) + deviation * deviation);
                    }
                    assertEquals(expected, sums[i], count + " from " + java.util.Arrays.toString(from) + ", at " + i);
                }
            }
        }
        long[] words = new long[64];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeMemory = arena.allocate(512, 8);
            assertFalse(vector.addSquaredDeviations(nativeMemory, 0, MemorySegment.ofArray(words), 0, MemorySegment.ofArray(new long[16]), 0, 16));
        }
        assertFalse(vector.addSquaredDeviations(MemorySegment.ofArray(words), 4, MemorySegment.ofArray(words), 0, MemorySegment.ofArray(new long[16]), 0, 8),
                "a misaligned run");
        assertFalse(vector.addSquaredDeviations(MemorySegment.ofArray(words), 0, MemorySegment.ofArray(words), 0, MemorySegment.ofArray(new long[16]), 0, 17),
                "17 sums do not fit 16");
    }

    /** With the provider selected, the 2-D filter's row pass gives the axis-by-axis pass's values (which the provider does not touch) bit for bit. */
    @Test
    void theUniformFiltersRowPassIsTheSameWithTheProvider() {
        assertTrue(VectorMath.selected() instanceof VectorApiMath, "selected: " + VectorMath.selected().name());
        SplittableRandom random = new SplittableRandom(19);
        NDArray x = NDArray.zeros(org.tessera.ndarray.dtype.DType.FLOAT64, 37, 203);
        for (long i = 0; i < 37; i++) {
            for (long j = 0; j < 203; j++) {
                x.setDouble(Math.scalb(random.nextDouble() - 0.4, random.nextInt(-30, 30)), i, j);
            }
        }
        x.setDouble(Double.NaN, 3, 100);
        x.setDouble(Double.NEGATIVE_INFINITY, 20, 7);
        for (EdgeMode mode : java.util.List.of(EdgeMode.REFLECT, EdgeMode.NEAREST, EdgeMode.WRAP, EdgeMode.constant(1.5))) {
            for (NDArray input : new NDArray[] {x, NDArrays.get(x, org.tessera.ndarray.index.Index.range(1L, 36L, 1L)).copy()}) {
                long rows = input.shape(0);
                NDArray byRows = UniformFilter.apply(input, 3, mode);
                NDArray byAxes = UniformFilter.apply(input.reshape(1, rows, 203), new long[] {1, 3, 3}, mode).reshape(rows, 203);
                for (long i = 0; i < rows; i++) {
                    for (long j = 0; j < 203; j++) {
                        assertEquals(Double.doubleToRawLongBits(byAxes.getDouble(i, j)), Double.doubleToRawLongBits(byRows.getDouble(i, j)),
                                mode + " at (" + i + ", " + j + ") of " + rows + " rows");
                    }
                }
            }
        }
    }

    @Test
    void thePairwiseSumIsNumpysBitForBit() {
        VectorMath vector = new VectorApiMath();
        SplittableRandom random = new SplittableRandom(13);
        double[] values = new double[20_011];
        long[] words = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            // Magnitudes over many binades, so that any change in the order of the additions changes the bits.
            values[i] = Math.scalb(random.nextDouble() - 0.3, random.nextInt(-20, 20));
            words[i] = Double.doubleToRawLongBits(values[i]);
        }
        MemorySegment segment = MemorySegment.ofArray(words);
        for (int count : new int[] {0, 1, 7, 8, 9, 127, 128, 129, 136, 255, 256, 1000, 4099, 20_000}) {
            for (int shift : new int[] {0, 3, 11}) {
                assertTrue(vector.sumsPairwise(segment, shift * 8L, count), "sums " + count + " from " + shift);
                assertEquals(Double.doubleToRawLongBits(NumpyPairwise.sum(values, shift, count)), Double.doubleToRawLongBits(vector.pairwiseSum(segment, shift * 8L, count)),
                        "pairwise sum of " + count + " from " + shift);
            }
        }
        assertFalse(vector.sumsPairwise(MemorySegment.ofArray(new double[8]), 0, 8), "a double[] is not the long[] the lanes read");
        assertFalse(vector.sumsPairwise(segment, 4, 8), "a misaligned start");
        assertEquals("256-bit", vector.kernelWidths().get("pairwise_sum"), "the pairwise sum's vectors, at any level");
        assertEquals(vector.name().substring("vector-api-".length()) + "-bit", vector.kernelWidths().get("arithmetic"));
    }

    /** Native, read-only, misaligned or too short memory is declined with nothing written, so the caller's own loop runs. */
    @Test
    void memoryTheVectorsCannotIndexIsDeclined() {
        VectorMath vector = new VectorApiMath();
        long[] words = new long[64];
        MemorySegment heap = MemorySegment.ofArray(words);
        MemorySegment slice = heap.asSlice(8, 80);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeMemory = arena.allocate(512, 8);
            assertFalse(vector.applyContiguous(VectorMath.Arithmetic.ADD, nativeMemory, 0, heap, 0, heap, 0, 16));
            assertFalse(vector.sumThree(nativeMemory, 0, 8, 16, 1, heap, 0, 16), "native runs");
        }
        assertFalse(vector.applyContiguous(VectorMath.Arithmetic.ADD, heap, 0, heap.asReadOnly(), 0, heap, 0, 16));
        assertFalse(vector.applyContiguous(VectorMath.Arithmetic.ADD, heap, 4, heap, 0, heap, 0, 16));
        assertFalse(vector.applyContiguous(VectorMath.Arithmetic.ADD, heap, 0, heap, 0, slice, 0, 11), "11 elements do not fit a slice of 10");
        assertFalse(vector.sumThree(heap, 0, 8, 4, 1, slice, 0, 8), "a misaligned run");
        assertFalse(vector.sumThree(heap, 0, 8, 16, 1, slice, 0, 11), "11 elements do not fit a slice of 10");
        assertFalse(vector.sumThree(heap, 0, 8, 16 * 8, 1, heap, 0, 49), "a run past the end");
        assertFalse(vector.splitMixUniform(0, new long[16], 16, slice, 0));
        assertFalse(vector.splitMixUniform(0, new long[8], 9, heap, 0), "more values than steps");
        assertTrue(vector.splitMixUniform(0, new long[16], 10, slice, 0));
        assertEquals(0L, words[0], "nothing before the slice");
        assertEquals(0L, words[11], "nothing after the slice");
    }

    /** The vector generator gives SplittableRandom's own doubles, bit for bit, for steps of consecutive counters and for strided ones. */
    @Test
    void splitMixUniformIsSplittableRandomsStream() {
        VectorMath vector = new VectorApiMath();
        long seed = 0x1234_5678_9abcL;
        long[] consecutive = new long[37];
        long[] everyThird = new long[37];
        for (int k = 0; k < consecutive.length; k++) {
            consecutive[k] = (k + 1) * SplitMix.GOLDEN_GAMMA;
            everyThird[k] = 3L * k * SplitMix.GOLDEN_GAMMA;
        }
        long[] words = new long[40];
        assertTrue(vector.splitMixUniform(seed, consecutive, 37, MemorySegment.ofArray(words), 16));
        SplittableRandom random = new SplittableRandom(seed);
        for (int k = 0; k < 37; k++) {
            assertEquals(random.nextDouble(), Double.longBitsToDouble(words[k + 2]), "value " + k);
        }
        assertTrue(vector.splitMixUniform(seed + SplitMix.GOLDEN_GAMMA, everyThird, 37, MemorySegment.ofArray(words), 0));
        double[] stream = new double[3 * 37];
        SplittableRandom again = new SplittableRandom(seed);
        for (int k = 0; k < stream.length; k++) {
            stream[k] = again.nextDouble();
        }
        for (int k = 0; k < 37; k++) {
            assertEquals(stream[3 * k], Double.longBitsToDouble(words[k]), "every third value, " + k);
            assertEquals(SplitMix.uniform(seed + SplitMix.GOLDEN_GAMMA + everyThird[k]), Double.longBitsToDouble(words[k]));
        }
    }

    /**
     * The conversion of the mixed bits to a double is exact for every lane: a hundred thousand
     * counters spread over the whole range, and the counters whose mixed bits are smallest and
     * largest among them, give the scalar definition's value bit for bit.
     */
    @Test
    void splitMixUniformConvertsEveryLaneExactly() {
        VectorMath vector = new VectorApiMath();
        int count = 100_003;
        long[] steps = new long[count];
        SplittableRandom counters = new SplittableRandom(7);
        for (int k = 0; k < count; k++) {
            steps[k] = k % 3 == 0 ? k : counters.nextLong();
        }
        long[] words = new long[count];
        assertTrue(vector.splitMixUniform(-5, steps, count, MemorySegment.ofArray(words), 0));
        double smallest = 1;
        double largest = 0;
        for (int k = 0; k < count; k++) {
            double expected = SplitMix.uniform(-5 + steps[k]);
            assertEquals(Double.doubleToRawLongBits(expected), words[k], "lane " + k + " of counter " + (-5 + steps[k]));
            smallest = Math.min(smallest, expected);
            largest = Math.max(largest, expected);
        }
        assertTrue(smallest < 1e-4 && largest > 1 - 1e-4, "the counters reach both ends of [0, 1): " + smallest + ", " + largest);
        // The finaliser maps 0 to 0: an empty mantissa, from which the correction takes the whole 0.5 away, to +0.0.
        long[] zero = new long[count];
        assertTrue(vector.splitMixUniform(0, new long[count], count, MemorySegment.ofArray(zero), 0));
        assertEquals(Double.doubleToRawLongBits(0.0), zero[0], "the counter 0");
    }

    /** The ufuncs' contiguous float64 kernels go through the provider: views at odd offsets, a scalar operand and a read-only input give the element-wise values. */
    @Test
    void theArithmeticUfuncsGiveElementwiseValuesThroughTheProvider() {
        NDArray x = NDArrays.linspace(-5, 5, 1001);
        NDArray y = Ufuncs.ADD.apply(NDArrays.linspace(1, 3, 1001), 0.5);
        for (long start : new long[] {0, 3}) {
            NDArray left = NDArrays.get(x, org.tessera.ndarray.index.Index.range(start, 1001L, 1L));
            NDArray right = NDArrays.get(y, org.tessera.ndarray.index.Index.range(0L, 1001L - start, 1L)).readOnly();
            NDArray sum = Ufuncs.ADD.apply(left, right);
            NDArray difference = Ufuncs.SUBTRACT.apply(left, 2.0);
            NDArray product = Ufuncs.MULTIPLY.apply(left, right);
            NDArray quotient = Ufuncs.TRUE_DIVIDE.apply(left, right);
            for (long i = 0; i < left.size(); i++) {
                double a = left.getDouble(i);
                double b = right.getDouble(i);
                assertEquals(a + b, sum.getDouble(i), "add at " + i + " from " + start);
                assertEquals(a - 2.0, difference.getDouble(i), "subtract at " + i);
                assertEquals(a * b, product.getDouble(i), "multiply at " + i);
                assertEquals(a / b, quotient.getDouble(i), "divide at " + i);
            }
        }
    }
}
