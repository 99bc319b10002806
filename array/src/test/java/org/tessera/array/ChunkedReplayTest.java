package org.tessera.array;


import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.tessera.array.blockwise.Elementwise;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.reduction.ChunkedStatistics;
import org.tessera.array.reduction.ChunkedStatistics.Request;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.conformance.Comparison;
import org.tessera.ndarray.conformance.Corpus;
import org.tessera.ndarray.conformance.CorpusCase;
import org.tessera.ndarray.conformance.Decoding;
import org.tessera.ndarray.dtype.DType;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Every case of the NumPy ufunc and reduce suites, replayed through chunked arrays in three
 * chunkings (blocks of 1, regular blocks of 2, irregular blocks 1, 2, 1, 2, ...): the chunked
 * result must be NumPy's golden result, within FORMAT.md's tolerances, and raise where NumPy raised.
 */
class ChunkedReplayTest {
    private static final Set<String> TRANSCENDENTAL = Set.of("power", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
            "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "hypot", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
            "arctanh", "cbrt");
    private static final SynchronousScheduler SCHEDULER = new SynchronousScheduler();

    /** The three chunkings, as functions of the shape. */
    private static final Map<String, Function<long[], ChunkSpec>> CHUNKINGS = Map.of(
            "blocks of 1", shape -> ChunkSpec.size(1),
            "regular blocks of 2", shape -> ChunkSpec.size(2),
            "irregular blocks", ChunkedReplayTest::irregular);

    static ChunkSpec irregular(long[] shape) {
        long[][] lengths = new long[shape.length][];
        for (int axis = 0; axis < shape.length; axis++) {
            List<Long> blocks = new ArrayList<>();
            long left = shape[axis];
            long next = 1;
            while (left > 0) {
                long length = Math.min(left, next);
                blocks.add(length);
                left -= length;
                next = next == 1 ? 2 : 1;
            }
            lengths[axis] = blocks.isEmpty() ? new long[] {0} : blocks.stream().mapToLong(Long::longValue).toArray();
        }
        return ChunkSpec.explicit(lengths);
    }

    @TestFactory
    Stream<DynamicTest> ufuncAndReduceSuitesThroughChunkedArrays() {
        Map<String, List<CorpusCase>> suites = Corpus.load(Corpus.directory());
        return CHUNKINGS.entrySet().stream().flatMap(chunking -> Stream.concat(
                UFUNC_SUITES.stream().map(suite -> DynamicTest.dynamicTest(suite + ", " + chunking.getKey(),
                        () -> replay(suites.get(suite), testCase -> ufunc(testCase, chunking.getValue()), suite + " " + chunking.getKey()))),
                REDUCE_SUITES.stream().map(suite -> DynamicTest.dynamicTest(suite + ", " + chunking.getKey(),
                        () -> replay(suites.get(suite), testCase -> reduce(testCase, chunking.getValue()), suite + " " + chunking.getKey())))));
    }

    /** The suites of ufunc cases and of reduce cases (the corner suites of conformance/generate/corners.py among them). */
    private static final List<String> UFUNC_SUITES = List.of("ufunc", "ufunc_bool");
    private static final List<String> REDUCE_SUITES = List.of("reduce", "reduce_empty");

    private static void replay(List<CorpusCase> cases, Function<CorpusCase, String> runner, String label) {
        ChunkedReplay.replay(cases, runner, label);
    }

    private static Object chunked(JsonNode node, Function<long[], ChunkSpec> chunking) {
        if (node.has("weak")) {
            return Decoding.dtypeOrWeakScalar(node);
        }
        NDArray array = Decoding.array(node);
        return Creation.fromSource(RegionSource.of(array), chunking.apply(array.shape()));
    }

    private static String ufunc(CorpusCase testCase, Function<long[], ChunkSpec> chunking) {
        String name = testCase.args().get("name").asText();
        JsonNode inputNodes = testCase.args().get("inputs");
        Object[] inputs = new Object[inputNodes.size()];
        for (int position = 0; position < inputs.length; position++) {
            inputs[position] = chunked(inputNodes.get(position), chunking);
        }
        List<ChunkedArray> outputs = Elementwise.applyAll(NDArrays.ufunc(name), inputs);
        JsonNode expected = testCase.expect().get("outputs");
        for (int output = 0; output < outputs.size(); output++) {
            NDArray actual = outputs.get(output).compute(SCHEDULER);
            String mismatch = TRANSCENDENTAL.contains(name) ? Comparison.mismatchInUlps(expected.get(output), actual, 4)
                    : Comparison.mismatch(expected.get(output), actual, 0);
            if (mismatch != null) {
                return "output " + output + ": " + mismatch;
            }
        }
        return null;
    }

    private static String reduce(CorpusCase testCase, Function<long[], ChunkSpec> chunking) {
        JsonNode args = testCase.args();
        ChunkedArray x = (ChunkedArray) chunked(args.get("x"), chunking);
        JsonNode axisNode = args.get("axis");
        Integer axis = axisNode == null || axisNode.isNull() || axisNode.isArray() ? null : axisNode.asInt();
        int[] axes = axisNode == null || axisNode.isNull() ? null : axisNode.isArray() ? Decoding.ints(axisNode) : new int[] {axisNode.asInt()};
        boolean keepdims = args.path("keepdims").asBoolean(false);
        DType dtype = args.hasNonNull("dtype") ? DType.fromName(args.get("dtype").asText()) : null;
        long ddof = args.path("ddof").asLong(0);
        Request request = new Request(axes, keepdims, dtype, 4);
        ChunkedArray result = switch (args.get("method").asText()) {
            case "sum" -> ChunkedStatistics.sum(x, request);
            case "prod" -> ChunkedStatistics.prod(x, request);
            case "max" -> ChunkedStatistics.max(x, request);
            case "min" -> ChunkedStatistics.min(x, request);
            case "mean" -> ChunkedStatistics.mean(x, request);
            case "var" -> ChunkedStatistics.var(x, request, ddof);
            case "std" -> ChunkedStatistics.std(x, request, ddof);
            case "argmax" -> ChunkedStatistics.argmax(x, axis, keepdims);
            case "argmin" -> ChunkedStatistics.argmin(x, axis, keepdims);
            case "any" -> ChunkedStatistics.any(x, request);
            case "all" -> ChunkedStatistics.all(x, request);
            case "count_nonzero" -> ChunkedStatistics.countNonzero(x, request);
            case "nansum" -> ChunkedStatistics.nansum(x, request);
            case "nanmean" -> ChunkedStatistics.nanmean(x, request);
            case "nanmax" -> ChunkedStatistics.nanmax(x, request);
            case "nanmin" -> ChunkedStatistics.nanmin(x, request);
            case "cumsum" -> ChunkedStatistics.cumsum(x, axis, dtype);
            case "cumprod" -> ChunkedStatistics.cumprod(x, axis, dtype);
            default -> throw new IllegalStateException("unknown reduce method in " + testCase.id());
        };
        NDArray actual = result.compute(SCHEDULER);
        DType resultType = actual.dtype();
        return Comparison.mismatch(testCase.expect().get("array"), actual, resultType == DType.FLOAT32 || resultType == DType.COMPLEX64 ? 1e-5
                : resultType == DType.FLOAT16 ? 1e-3 : 1e-12);
    }
}
