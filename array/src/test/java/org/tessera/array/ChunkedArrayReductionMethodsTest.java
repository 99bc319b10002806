package org.tessera.array;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.array.MethodOracle.FLOATS;
import static org.tessera.array.MethodOracle.INTEGERS;
import static org.tessera.array.MethodOracle.WITH_NANS;
import static org.tessera.array.MethodOracle.assertMatches;
import static org.tessera.array.MethodOracle.chunked;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.reduction.ChunkedStatistics.Request;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.AxisException;
import org.tessera.ndarray.ufunc.Reductions.Options;
import org.tessera.ndarray.ufunc.Statistics;
import org.tessera.ndarray.ufunc.Ufuncs;

/** ChunkedArray's reduction and scan methods against the NDArray layer's statistics, over several chunkings. */
class ChunkedArrayReductionMethodsTest {
    private static final Map<String, NDArray> INPUTS = Map.of("float64", FLOATS, "float64 with NaN", WITH_NANS, "int64", INTEGERS);

    /** One reduction reached three ways (every axis, some axes, a Request) and its NDArray counterpart. */
    record Reduction(String name, Function<ChunkedArray, ChunkedArray> overAll, BiFunction<ChunkedArray, int[], ChunkedArray> overAxes,
                     BiFunction<ChunkedArray, Request, ChunkedArray> requested, BiFunction<NDArray, Options, NDArray> reference) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** var, std, nanvar and nanstd with their ddof. */
    record Moment(String name, DdofReduction chunked, DdofStatistic reference) {
        @Override
        public String toString() {
            return name;
        }
    }

    @FunctionalInterface
    interface DdofReduction {
        ChunkedArray apply(ChunkedArray x, long ddof, int... axes);
    }

    @FunctionalInterface
    interface DdofStatistic {
        NDArray apply(NDArray x, Options options, long ddof);
    }

    static Stream<Reduction> reductions() {
        return Stream.of(
                new Reduction("sum", ChunkedArray::sum, ChunkedArray::sum, ChunkedArray::sum, Statistics::sum),
                new Reduction("prod", ChunkedArray::prod, ChunkedArray::prod, ChunkedArray::prod, Statistics::prod),
                new Reduction("min", ChunkedArray::min, ChunkedArray::min, ChunkedArray::min, Statistics::min),
                new Reduction("max", ChunkedArray::max, ChunkedArray::max, ChunkedArray::max, Statistics::max),
                new Reduction("mean", ChunkedArray::mean, ChunkedArray::mean, ChunkedArray::mean, Statistics::mean),
                new Reduction("any", ChunkedArray::any, ChunkedArray::any, ChunkedArray::any, Statistics::any),
                new Reduction("all", ChunkedArray::all, ChunkedArray::all, ChunkedArray::all, Statistics::all),
                new Reduction("countNonzero", ChunkedArray::countNonzero, ChunkedArray::countNonzero, ChunkedArray::countNonzero,
                        Statistics::countNonzero),
                new Reduction("nansum", ChunkedArray::nansum, ChunkedArray::nansum, ChunkedArray::nansum, Statistics::nansum),
                new Reduction("nanmean", ChunkedArray::nanmean, ChunkedArray::nanmean, ChunkedArray::nanmean, Statistics::nanmean),
                new Reduction("nanmax", ChunkedArray::nanmax, ChunkedArray::nanmax, ChunkedArray::nanmax, Statistics::nanmax),
                new Reduction("nanmin", ChunkedArray::nanmin, ChunkedArray::nanmin, ChunkedArray::nanmin, Statistics::nanmin));
    }

    static Stream<Moment> moments() {
        return Stream.of(new Moment("var", ChunkedArray::var, Statistics::var), new Moment("std", ChunkedArray::std, Statistics::std),
                new Moment("nanvar", ChunkedArray::nanvar, Statistics::nanvar), new Moment("nanstd", ChunkedArray::nanstd, Statistics::nanstd));
    }

    static Stream<Named<ChunkSpec>> chunkings() {
        return MethodOracle.chunkings();
    }

    @Nested
    class Reductions {
        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayReductionMethodsTest#reductions")
        void everyFormOfTheCallMatchesTheNDArrayLayer(Reduction reduction) {
            chunkings().forEach(chunking -> INPUTS.forEach((label, values) -> {
                ChunkedArray x = chunked(values, chunking.getPayload());
                String where = reduction.name() + " of " + label + " over " + chunking.getName();
                assertMatches(where, reduction.reference().apply(values, Options.all()), reduction.overAll().apply(x));
                for (int[] axes : List.of(new int[] {0}, new int[] {-1}, new int[] {1, 0}, new int[0])) {
                    assertMatches(where + ", axes " + Arrays.toString(axes), reduction.reference().apply(values, Options.axes(axes)),
                            reduction.overAxes().apply(x, axes));
                }
                assertMatches(where + ", keepdims", reduction.reference().apply(values, Options.axes(-1).withKeepdims(true)),
                        reduction.requested().apply(x, Request.axes(-1).keepdims(true)));
                assertMatches(where + ", splitEvery 2", reduction.reference().apply(values, Options.axes(0)),
                        reduction.requested().apply(x, Request.axes(0).splitEvery(2)));
            }));
        }

        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayReductionMethodsTest#moments")
        void varianceAndStandardDeviationTakeDdofAndAxes(Moment moment) {
            chunkings().forEach(chunking -> INPUTS.forEach((label, values) -> {
                ChunkedArray x = chunked(values, chunking.getPayload());
                String where = moment.name() + " of " + label + " over " + chunking.getName();
                assertMatches(where + ", ddof 0", moment.reference().apply(values, Options.all(), 0), moment.chunked().apply(x, 0, 0, 1));
                assertMatches(where + ", ddof 1, axis 0", moment.reference().apply(values, Options.axes(0), 1), moment.chunked().apply(x, 1, 0));
                assertMatches(where + ", ddof 2, axis -1", moment.reference().apply(values, Options.axes(-1), 2), moment.chunked().apply(x, 2, -1));
            }));
        }

        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayReductionMethodsTest#chunkings")
        void defaultsAndRequestsOfTheMoments(ChunkSpec spec) {
            ChunkedArray x = chunked(FLOATS, spec);
            ChunkedArray nans = chunked(WITH_NANS, spec);
            assertMatches("var()", Statistics.var(FLOATS, Options.all(), 0), x.var());
            assertMatches("var(1)", Statistics.var(FLOATS, Options.all(), 1), x.var(1));
            assertMatches("std()", Statistics.std(FLOATS, Options.all(), 0), x.std());
            assertMatches("std(1)", Statistics.std(FLOATS, Options.all(), 1), x.std(1));
            assertMatches("nanvar()", Statistics.nanvar(WITH_NANS, Options.all(), 0), nans.nanvar());
            assertMatches("nanstd(1)", Statistics.nanstd(WITH_NANS, Options.all(), 1), nans.nanstd(1));
            assertMatches("var(keepdims, 1)", Statistics.var(FLOATS, Options.axes(1).withKeepdims(true), 1), x.var(Request.axes(1).keepdims(true), 1));
            assertMatches("std(axis 0, 0)", Statistics.std(FLOATS, Options.axes(0), 0), x.std(Request.axes(0), 0));
            assertMatches("nanvar(axis 0, 1)", Statistics.nanvar(WITH_NANS, Options.axes(0), 1), nans.nanvar(Request.axes(0), 1));
            assertMatches("nanstd(all, 0)", Statistics.nanstd(WITH_NANS, Options.all(), 0), nans.nanstd(Request.all(), 0));
        }

        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayReductionMethodsTest#chunkings")
        void requestsSetTheDtypeAndKeepTheChunksOfTheOtherAxes(ChunkSpec spec) {
            ChunkedArray x = chunked(INTEGERS, spec);
            assertMatches("sum as float32", Statistics.sum(INTEGERS, Options.all().withDtype(DType.FLOAT32)), x.sum(Request.all().dtype(DType.FLOAT32)));
            assertMatches("prod as float64", Statistics.prod(INTEGERS, Options.axes(0).withDtype(DType.FLOAT64)), x.prod(Request.axes(0).dtype(DType.FLOAT64)));
            assertMatches("mean as float32", Statistics.mean(INTEGERS, Options.axes(1).withDtype(DType.FLOAT32)), x.mean(Request.axes(1).dtype(DType.FLOAT32)));
            assertEquals(Chunks.of(x.chunks().axis(0), new long[] {1}), x.sum(Request.axes(1).keepdims(true)).chunks());
            assertEquals(Chunks.of(x.chunks().axis(1)), x.max(0).chunks());
        }

        @Test
        void aBoolArrayReducesAsNumPyDoes() {
            NDArray positive = Ufuncs.GREATER.apply(FLOATS, 3);
            ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 4)).greater(3);
            assertMatches("any(1)", Statistics.any(positive, Options.axes(1)), x.any(1));
            assertMatches("all(0)", Statistics.all(positive, Options.axes(0)), x.all(0));
            assertMatches("sum of bool is int64", Statistics.sum(positive, Options.all()), x.sum());
            assertMatches("countNonzero(0)", Statistics.countNonzero(positive, Options.axes(0)), x.countNonzero(0));
        }
    }

    @Nested
    class ArgReductionsAndScans {
        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayReductionMethodsTest#chunkings")
        void argReductionsGiveTheFirstPosition(ChunkSpec spec) {
            // Values 0..4 repeat, so every maximum and minimum has ties that must resolve to the first.
            NDArray ties = Ufuncs.REMAINDER.apply(INTEGERS, 5);
            for (NDArray values : List.of(ties, FLOATS, WITH_NANS)) {
                ChunkedArray x = chunked(values, spec);
                assertMatches("argmax()", Statistics.argmax(values, null, false), x.argmax());
                assertMatches("argmax(0)", Statistics.argmax(values, 0, false), x.argmax(0));
                assertMatches("argmax(-1)", Statistics.argmax(values, -1, false), x.argmax(-1));
                assertMatches("argmin()", Statistics.argmin(values, null, false), x.argmin());
                assertMatches("argmin(1)", Statistics.argmin(values, 1, false), x.argmin(1));
                assertMatches("argmin(-2)", Statistics.argmin(values, -2, false), x.argmin(-2));
            }
        }

        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayReductionMethodsTest#chunkings")
        void cumulativeScansMatchAndKeepTheChunks(ChunkSpec spec) {
            ChunkedArray x = chunked(FLOATS, spec);
            NDArray small = Ufuncs.ADD.apply(Ufuncs.REMAINDER.apply(INTEGERS, 3), 1);
            ChunkedArray y = chunked(small, spec);
            assertMatches("cumsum(0)", Statistics.cumsum(FLOATS, 0, null), x.cumsum(0));
            assertMatches("cumsum(-1)", Statistics.cumsum(FLOATS, -1, null), x.cumsum(-1));
            assertMatches("cumsum()", Statistics.cumsum(FLOATS, null, null), x.cumsum());
            assertMatches("cumprod(1)", Statistics.cumprod(small, 1, null), y.cumprod(1));
            assertMatches("cumprod(-2)", Statistics.cumprod(FLOATS, -2, null), x.cumprod(-2));
            assertMatches("cumprod()", Statistics.cumprod(small, null, null), y.cumprod());
            assertEquals(x.chunks(), x.cumsum(0).chunks());
        }
    }

    @Nested
    class FluentExpressions {
        @ParameterizedTest
        @MethodSource("org.tessera.array.ChunkedArrayReductionMethodsTest#squareChunkings")
        void theMeanOfXPlusItsTransposeMatchesNumPy(ChunkSpec spec) {
            NDArray square = Ufuncs.SUBTRACT.apply(Ufuncs.MULTIPLY.apply(org.tessera.ndarray.api.NDArrays.arange(100).reshape(10, 10), 0.25), 7.0);
            ChunkedArray x = chunked(square, spec);
            NDArray expected = Statistics.mean(Ufuncs.ADD.apply(square, square.transpose()), Options.axes(0));
            assertMatches("(x + x.T).mean(axis=0)", expected, x.add(x.T()).mean(0));
            assertMatches("((x - x.mean()) ** 2).sum(axis=-1)",
                    Statistics.sum(Ufuncs.POWER.apply(Ufuncs.SUBTRACT.apply(square, Statistics.mean(square, Options.all())), 2), Options.axes(-1)),
                    x.subtract(x.mean()).power(2).sum(-1));
        }
    }

    static Stream<Named<ChunkSpec>> squareChunkings() {
        return Stream.of(Named.of("regular (3, 3)", ChunkSpec.of(3, 3)),
                Named.of("irregular ((4, 6), (1, 2, 7))", ChunkSpec.explicit(new long[] {4, 6}, new long[] {1, 2, 7})),
                Named.of("blocks of 1", ChunkSpec.size(1)));
    }

    @Nested
    class BadAxes {
        private final ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 4));

        @Test
        void axesOutOfRangeNameTheAxisAndTheDimension() {
            record BadCall(String message, Executable call) {
            }
            List<BadCall> calls = List.of(
                    new BadCall("axis 2 is out of bounds for array of dimension 2", () -> x.sum(2)),
                    new BadCall("axis -3 is out of bounds for array of dimension 2", () -> x.mean(0, -3)),
                    new BadCall("axis 5 is out of bounds for array of dimension 2", () -> x.max(Request.axes(5))),
                    new BadCall("axis 3 is out of bounds for array of dimension 2", () -> x.var(1, 3)),
                    new BadCall("axis -4 is out of bounds for array of dimension 2", () -> x.nanstd(0, -4)),
                    new BadCall("axis 7 is out of bounds for array of dimension 2", () -> x.argmax(7)),
                    new BadCall("axis -9 is out of bounds for array of dimension 2", () -> x.argmin(-9)),
                    new BadCall("axis 2 is out of bounds for array of dimension 2", () -> x.cumsum(2)),
                    new BadCall("axis -3 is out of bounds for array of dimension 2", () -> x.cumprod(-3)));
            for (BadCall bad : calls) {
                assertEquals(bad.message(), assertThrows(AxisException.class, bad.call()).getMessage());
            }
            AxisException error = assertThrows(AxisException.class, () -> x.countNonzero(4));
            assertEquals(4, error.axis());
            assertEquals(2, error.ndim());
        }

        @Test
        void repeatedAxesAreNamed() {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> x.sum(1, -1));
            assertTrue(error.getMessage().contains("duplicate value in axis [1, -1]"), error.getMessage());
        }
    }
}
