package org.tessera.array;


import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.join.ChunkedJoining;
import org.tessera.array.linalg.ChunkedProducts;
import org.tessera.array.reshape.Reshape;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.conformance.Comparison;
import org.tessera.ndarray.conformance.Corpus;
import org.tessera.ndarray.conformance.CorpusCase;
import org.tessera.ndarray.conformance.Decoding;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Order;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Every case of the NumPy concatenate (and stack), reshape (orders C and F) and matmul suites,
 * replayed through chunked arrays in four chunkings: blocks of 1, regular blocks of 2, irregular
 * blocks 1, 2, 1, 2, ..., and one block. The result must be NumPy's golden array (within
 * FORMAT.md's tolerance for matmul) and raise where NumPy raised; this checks the values that the
 * Dask chunk suites only describe by chunks.
 */
class ChunkedShapeReplayTest {
    private static final SynchronousScheduler SCHEDULER = new SynchronousScheduler();

    private static final Map<String, Function<long[], ChunkSpec>> CHUNKINGS = Map.of(
            "blocks of 1", shape -> ChunkSpec.size(1),
            "regular blocks of 2", shape -> ChunkSpec.size(2),
            "irregular blocks", ChunkedReplayTest::irregular,
            "one block", shape -> ChunkSpec.whole());

    @TestFactory
    Stream<DynamicTest> joinReshapeAndMatmulSuitesThroughChunkedArrays() {
        Map<String, List<CorpusCase>> suites = Corpus.load(Corpus.directory());
        return CHUNKINGS.entrySet().stream().flatMap(chunking -> Stream.of(
                DynamicTest.dynamicTest("concatenate, " + chunking.getKey(),
                        () -> replay(suites.get("concatenate"), testCase -> concatenate(testCase, chunking.getValue()), "concatenate " + chunking.getKey())),
                DynamicTest.dynamicTest("reshape, " + chunking.getKey(),
                        () -> replay(suites.get("reshape"), testCase -> reshape(testCase, chunking.getValue()), "reshape " + chunking.getKey())),
                DynamicTest.dynamicTest("matmul, " + chunking.getKey(),
                        () -> replay(suites.get("matmul"), testCase -> matmul(testCase, chunking.getValue()), "matmul " + chunking.getKey()))));
    }

    private static void replay(List<CorpusCase> cases, Function<CorpusCase, String> runner, String label) {
        ChunkedReplay.replay(cases, runner, label);
    }

    private static ChunkedArray chunked(JsonNode node, Function<long[], ChunkSpec> chunking) {
        NDArray array = Decoding.array(node);
        return Creation.fromSource(RegionSource.of(array), chunking.apply(array.shape()));
    }

    private static String concatenate(CorpusCase testCase, Function<long[], ChunkSpec> chunking) {
        List<ChunkedArray> arrays = new ArrayList<>();
        testCase.args().get("arrays").forEach(node -> arrays.add(chunked(node, chunking)));
        int axis = testCase.args().get("axis").asInt();
        ChunkedArray result = switch (testCase.op()) {
            case "concatenate" -> ChunkedJoining.concatenate(arrays, axis);
            case "stack" -> ChunkedJoining.stack(arrays, axis);
            default -> throw new IllegalStateException("unknown op " + testCase.op() + " in " + testCase.id());
        };
        return Comparison.mismatch(testCase.expect().get("array"), result.compute(SCHEDULER), 0);
    }

    private static String reshape(CorpusCase testCase, Function<long[], ChunkSpec> chunking) {
        ChunkedArray x = chunked(testCase.args().get("x"), chunking);
        Order order = Order.fromName(testCase.args().path("order").asText("C"));
        ChunkedArray result = Reshape.reshape(x, order, Decoding.shape(testCase.args().get("shape")));
        return Comparison.mismatch(testCase.expect().get("array"), result.compute(SCHEDULER), 0);
    }

    private static String matmul(CorpusCase testCase, Function<long[], ChunkSpec> chunking) {
        ChunkedArray result = ChunkedProducts.matmul(chunked(testCase.args().get("a"), chunking), chunked(testCase.args().get("b"), chunking));
        NDArray actual = result.compute(SCHEDULER);
        return Comparison.mismatch(testCase.expect().get("array"), actual, actual.dtype().realType() == DType.FLOAT32 ? 1e-5 : 1e-12);
    }
}
