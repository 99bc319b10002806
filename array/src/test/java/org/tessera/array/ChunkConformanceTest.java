package org.tessera.array;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.tessera.array.chunks.ChunkNormalization;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.blockwise.Elementwise;
import org.tessera.array.creation.Creation;
import org.tessera.array.join.ChunkedJoining;
import org.tessera.array.linalg.ChunkedProducts;
import org.tessera.array.rechunk.Rechunk;
import org.tessera.array.reshape.Reshape;
import org.tessera.array.reduction.ChunkedStatistics;
import org.tessera.array.reduction.ChunkedStatistics.Request;
import org.tessera.ndarray.ufunc.Ufuncs;
import org.tessera.ndarray.conformance.Corpus;
import org.tessera.ndarray.conformance.CorpusCase;
import org.tessera.ndarray.conformance.Decoding;
import org.tessera.ndarray.conformance.ErrorCategories;
import org.tessera.ndarray.dtype.DType;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Replays the Dask chunk suites of the conformance corpus (names ending in {@code _chunks}, and
 * normalize_chunks) through the array module, every case, as ConformanceReplayTest does for the
 * NumPy suites. Suites not implemented yet are reported as such.
 */
class ChunkConformanceTest {
    @FunctionalInterface
    interface CaseRunner {
        /** Null when the case passes, else what differed. */
        String run(JsonNode args, JsonNode expect);

        /** The whole case: runners of suites that hold several ops read the op here. */
        default String run(CorpusCase testCase) {
            return run(testCase.args(), testCase.expect());
        }
    }

    /** A runner of a suite whose cases differ by op (concatenate_chunks holds concatenate and stack). */
    @FunctionalInterface
    interface OpRunner {
        String run(String op, JsonNode args, JsonNode expect);
    }

    static CaseRunner withOp(OpRunner runner) {
        return new CaseRunner() {
            @Override
            public String run(JsonNode args, JsonNode expect) {
                throw new IllegalStateException("this runner needs the case's op");
            }

            @Override
            public String run(CorpusCase testCase) {
                return runner.run(testCase.op(), testCase.args(), testCase.expect());
            }
        };
    }

    private static final Map<String, CaseRunner> IMPLEMENTED = Map.of(
            "normalize_chunks", ChunkConformanceTest::normalizeChunks,
            "elemwise_chunks", ChunkConformanceTest::elementwiseChunks,
            "reduction_chunks", ChunkConformanceTest::reductionChunks,
            "concatenate_chunks", withOp(ChunkConformanceTest::concatenateChunks),
            "reshape_chunks", ChunkConformanceTest::reshapeChunks,
            "rechunk_chunks", ChunkConformanceTest::rechunkChunks,
            "matmul_chunks", ChunkConformanceTest::matmulChunks,
            "slice_chunks", SliceChunkCases::run);

    /**
     * Golden cases we believe are wrong. They still run and are reported as failing; the suite
     * fails if one of them starts to pass (the corpus was fixed: remove it here) or fails otherwise.
     * argmax with axis=None and keepdims=True: NumPy 2.4 and Dask 2022.12 (run here: {@code
     * da.zeros((2, 12), chunks=(1, 12)).argmax(axis=None, keepdims=True)}) both give shape (1, 1)
     * with chunks ((1,), (1,)); these cases expect the keepdims=False shape ().
     * slice_chunks: Dask 2022.12 disagrees with NumPy 2.4 (checked with NumPy on zeros of the same
     * shape), and the values follow NumPy, as the getitem replay through chunked arrays requires.
     * p00056 and p00151 separate an integer from an integer array by a slice, where NumPy puts the
     * array's axis first and Dask keeps it in place (dask/dask#7313, open). p00023, p00113, p00116
     * and p00165 slice with a negative step from a start before the array (e.g. {@code [-14::-1]}
     * on 13 elements), which selects nothing in NumPy; Dask's normalize_slice keeps start -1 and
     * _slice_1d then reads it as the last element.
     */
    private static final Map<String, String> DISPUTED = Map.of(
            "reduction_chunks-p00089", "shape [1, 1], expected []",
            "reduction_chunks-p00109", "shape [1], expected []",
            "slice_chunks-p00023", "shape [1, 16, 3, 0], expected [1, 16, 3, 1]",
            "slice_chunks-p00056", "shape [1, 2], expected [2, 1]",
            "slice_chunks-p00113", "shape [0, 0, 1], expected [13, 0, 1]",
            "slice_chunks-p00116", "shape [6, 0], expected [6, 4]",
            "slice_chunks-p00151", "shape [6, 1], expected [1, 6]",
            "slice_chunks-p00165", "shape [1, 14, 0], expected [1, 14, 1]");

    static boolean isChunkSuite(String suite) {
        return suite.endsWith("_chunks");
    }

    @TestFactory
    Stream<DynamicTest> everyChunkSuiteOfTheCorpus() {
        Map<String, List<CorpusCase>> suites = Corpus.load(Corpus.directory());
        return suites.entrySet().stream().filter(suite -> isChunkSuite(suite.getKey()))
                .map(suite -> DynamicTest.dynamicTest("conformance " + suite.getKey(), () -> replay(suite.getKey(), suite.getValue())));
    }

    private static void replay(String suite, List<CorpusCase> cases) {
        CaseRunner runner = IMPLEMENTED.get(suite);
        if (runner == null) {
            System.out.println("conformance " + suite + ": not implemented");
            return;
        }
        int passed = 0;
        List<String> failures = new ArrayList<>();
        List<String> disputed = new ArrayList<>();
        for (CorpusCase testCase : cases) {
            String mismatch = outcome(testCase, runner);
            String dispute = DISPUTED.get(testCase.id());
            if (dispute != null && dispute.equals(mismatch)) {
                disputed.add(testCase.id() + ": " + mismatch);
            } else if (dispute != null) {
                failures.add(testCase.id() + ": a disputed case now gives " + (mismatch == null ? "the expected result" : mismatch) + "; review DISPUTED");
            } else if (mismatch == null) {
                passed++;
            } else {
                failures.add(testCase.id() + ": " + mismatch);
            }
        }
        System.out.println("conformance " + suite + ": " + passed + " passed, " + (failures.size() + disputed.size()) + " failed"
                + (disputed.isEmpty() ? "" : " (" + disputed.size() + " of them disputed, see DISPUTED: " + String.join("; ", disputed) + ")"));
        if (!failures.isEmpty()) {
            fail(failures.size() + " of " + cases.size() + " cases of suite " + suite + " failed, the first:\n  "
                    + String.join("\n  ", failures.subList(0, Math.min(20, failures.size()))));
        }
    }

    private static String outcome(CorpusCase testCase, CaseRunner runner) {
        String expectedError = testCase.expectedError();
        try {
            String mismatch = runner.run(testCase);
            return expectedError != null ? "expected " + expectedError + " but it succeeded" : mismatch;
        } catch (RuntimeException thrown) {
            if (expectedError != null && ErrorCategories.matches(expectedError, thrown)) {
                return null;
            }
            return (expectedError == null ? "unexpected " : "expected " + expectedError + " but got ") + thrown;
        }
    }

    private static String normalizeChunks(JsonNode args, JsonNode expect) {
        long[] shape = Decoding.shape(args.get("shape"));
        JsonNode limit = args.get("limit");
        JsonNode previous = args.get("previous_chunks");
        Chunks chunks = ChunkNormalization.normalize(spec(args.get("chunks"), shape), shape, limit == null || limit.isNull() ? null : limit.asLong(),
                DType.fromName(args.get("dtype").asText()), previous == null || previous.isNull() ? null : previousChunks(previous));
        Chunks expected = chunks(expect.get("chunks"));
        return chunks.equals(expected) ? null : "chunks " + chunks + ", expected " + expected;
    }

    /** An array of zeros with the shape and chunks of a {@code {shape, chunks}} argument. */
    static ChunkedArray zeros(JsonNode description) {
        long[] shape = Decoding.shape(description.get("shape"));
        return Creation.full(shape, 0, DType.FLOAT64, spec(description.get("chunks"), shape));
    }

    static String sameShapeAndChunks(ChunkedArray result, JsonNode expect) {
        Chunks expected = chunks(expect.get("chunks"));
        long[] expectedShape = Decoding.shape(expect.get("shape"));
        if (!java.util.Arrays.equals(result.shape(), expectedShape)) {
            return "shape " + java.util.Arrays.toString(result.shape()) + ", expected " + java.util.Arrays.toString(expectedShape);
        }
        return result.chunks().equals(expected) ? null : "chunks " + result.chunks() + ", expected " + expected;
    }

    private static String elementwiseChunks(JsonNode args, JsonNode expect) {
        return sameShapeAndChunks(Elementwise.apply(Ufuncs.ADD, zeros(args.get("a")), zeros(args.get("b"))), expect);
    }

    private static String reductionChunks(JsonNode args, JsonNode expect) {
        ChunkedArray x = zeros(args);
        JsonNode axisNode = args.get("axis");
        boolean keepdims = args.has("keepdims") && args.get("keepdims").asBoolean();
        int[] axes = axisNode == null || axisNode.isNull() ? null : axisNode.isArray() ? Decoding.ints(axisNode) : new int[] {axisNode.asInt()};
        Integer axis = axisNode == null || axisNode.isNull() ? null : axisNode.asInt();
        Request request = new Request(axes, keepdims, null, 4);
        ChunkedArray result = switch (args.get("method").asText()) {
            case "sum" -> ChunkedStatistics.sum(x, request);
            case "mean" -> ChunkedStatistics.mean(x, request);
            case "max" -> ChunkedStatistics.max(x, request);
            case "argmax" -> ChunkedStatistics.argmax(x, axis, keepdims);
            case "cumsum" -> ChunkedStatistics.cumsum(x, axis, null);
            default -> throw new IllegalStateException("unknown method " + args.get("method"));
        };
        return sameShapeAndChunks(result, expect);
    }

    private static String concatenateChunks(String op, JsonNode args, JsonNode expect) {
        List<ChunkedArray> arrays = new ArrayList<>();
        args.get("arrays").forEach(description -> arrays.add(zeros(description)));
        int axis = args.get("axis").asInt();
        ChunkedArray result = switch (op) {
            case "concatenate" -> ChunkedJoining.concatenate(arrays, axis);
            case "stack" -> ChunkedJoining.stack(arrays, axis);
            default -> throw new IllegalStateException("unknown op " + op + " in suite concatenate_chunks");
        };
        return sameShapeAndChunks(result, expect);
    }

    private static String reshapeChunks(JsonNode args, JsonNode expect) {
        return sameShapeAndChunks(Reshape.reshape(zeros(args), Decoding.shape(args.get("newshape"))), expect);
    }

    private static String rechunkChunks(JsonNode args, JsonNode expect) {
        ChunkedArray x = zeros(args);
        Chunks result = Rechunk.rechunk(x, spec(args.get("new"), x.shape())).chunks();
        Chunks expected = chunks(expect.get("chunks"));
        return result.equals(expected) ? null : "chunks " + result + ", expected " + expected;
    }

    private static String matmulChunks(JsonNode args, JsonNode expect) {
        return sameShapeAndChunks(ChunkedProducts.matmul(zeros(args.get("a")), zeros(args.get("b"))), expect);
    }

    /** A chunks argument as FORMAT.md writes it, read the way Dask reads the Python value. */
    static ChunkSpec spec(JsonNode node, long[] shape) {
        if (node.isArray() && shape.length == 1 && node.size() > 1 && allScalars(node)) {
            // Dask reads a flat list of numbers for a 1-D array as that axis's block lengths.
            return new ChunkSpec.PerAxis(List.of(explicit(node)));
        }
        if (node.isArray()) {
            List<ChunkSpec> axes = new ArrayList<>();
            node.forEach(item -> axes.add(item.isArray() ? explicit(item) : scalar(item)));
            return new ChunkSpec.PerAxis(axes);
        }
        if (node.isObject()) {
            Map<Integer, ChunkSpec> axes = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext();) {
                Map.Entry<String, JsonNode> field = fields.next();
                axes.put(Integer.parseInt(field.getKey()), field.getValue().isArray() ? explicit(field.getValue()) : scalar(field.getValue()));
            }
            return new ChunkSpec.ByAxis(axes);
        }
        return scalar(node);
    }

    private static boolean allScalars(JsonNode node) {
        for (JsonNode item : node) {
            if (!item.isNumber() && !item.isTextual()) {
                return false;
            }
        }
        return true;
    }

    private static ChunkSpec scalar(JsonNode node) {
        if (node.isNull() || (node.isNumber() && node.asLong() == -1)) {
            return ChunkSpec.whole();
        }
        if (node.isTextual()) {
            return node.asText().equals("auto") ? ChunkSpec.auto() : ChunkSpec.bytes(node.asText());
        }
        return ChunkSpec.size(node.asLong());
    }

    private static ChunkSpec explicit(JsonNode node) {
        long[] lengths = new long[node.size()];
        for (int block = 0; block < lengths.length; block++) {
            lengths[block] = node.get(block).isNull() ? Chunks.UNKNOWN : node.get(block).asLong();
        }
        return new ChunkSpec.Explicit(lengths);
    }

    static Chunks chunks(JsonNode node) {
        long[][] lengths = new long[node.size()][];
        for (int axis = 0; axis < lengths.length; axis++) {
            lengths[axis] = ((ChunkSpec.Explicit) explicit(node.get(axis))).lengths();
        }
        return Chunks.of(lengths);
    }

    private static long[][] previousChunks(JsonNode node) {
        long[][] previous = new long[node.size()][];
        for (int axis = 0; axis < previous.length; axis++) {
            JsonNode axisNode = node.get(axis);
            previous[axis] = axisNode.isArray() ? ((ChunkSpec.Explicit) explicit(axisNode)).lengths() : new long[] {axisNode.asLong()};
        }
        return previous;
    }
}
