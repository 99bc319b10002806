package org.tessera.array;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.sorting.ChunkedSort;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.conformance.Comparison;
import org.tessera.ndarray.conformance.Corpus;
import org.tessera.ndarray.conformance.CorpusCase;
import org.tessera.ndarray.conformance.Decoding;
import org.tessera.ndarray.sort.SortKind;

/**
 * Every case of the NumPy sort and quantile suites (conformance/generate/sorting.py), replayed
 * through chunked arrays in the three chunkings of {@link ChunkedReplayTest} (blocks of 1, regular
 * blocks of 2, irregular blocks 1, 2, 1, ...), once with the sorted runs held in memory and once
 * with every run in a scratch file (the out-of-core path): the result must be NumPy's exactly, a
 * stable sort must keep the signs of equal zeros where NumPy's did, and an error must be the
 * category NumPy raised. unique's blocks have unknown lengths; its result is compared whole.
 */
class ChunkedSortReplayTest {
    private static final SynchronousScheduler SCHEDULER = new SynchronousScheduler();

    private static final Map<String, Function<long[], ChunkSpec>> CHUNKINGS = Map.of(
            "blocks of 1", shape -> ChunkSpec.size(1),
            "regular blocks of 2", shape -> ChunkSpec.size(2),
            "irregular blocks", ChunkedReplayTest::irregular);

    private static final Map<String, ChunkedSort.Options> RUNS = Map.of(
            "runs in memory", ChunkedSort.Options.inMemory(),
            "runs in files", ChunkedSort.Options.outOfCore(java.nio.file.Path.of(System.getProperty("java.io.tmpdir"))));

    @TestFactory
    Stream<DynamicTest> sortAndQuantileSuitesThroughChunkedArrays() {
        Map<String, List<CorpusCase>> suites = Corpus.load(Corpus.directory());
        return CHUNKINGS.entrySet().stream().flatMap(chunking -> RUNS.entrySet().stream().flatMap(runs -> Stream.of(
                DynamicTest.dynamicTest("sort, " + chunking.getKey() + ", " + runs.getKey(), () -> ChunkedReplay.replay(suites.get("sort"),
                        testCase -> sort(testCase, chunking.getValue(), runs.getValue()), "sort " + chunking.getKey() + ", " + runs.getKey())),
                DynamicTest.dynamicTest("quantile, " + chunking.getKey() + ", " + runs.getKey(), () -> ChunkedReplay.replay(suites.get("quantile"),
                        testCase -> quantile(testCase, chunking.getValue(), runs.getValue()), "quantile " + chunking.getKey() + ", " + runs.getKey())))));
    }

    private static ChunkedArray chunked(JsonNode node, Function<long[], ChunkSpec> chunking) {
        NDArray array = Decoding.array(node);
        return Creation.fromSource(RegionSource.of(array), chunking.apply(array.shape()));
    }

    private static Integer axis(JsonNode args) {
        JsonNode axis = args.get("axis");
        return axis == null || axis.isNull() ? null : axis.asInt();
    }

    private static String sort(CorpusCase testCase, Function<long[], ChunkSpec> chunking, ChunkedSort.Options options) {
        JsonNode args = testCase.args();
        ChunkedArray x = chunked(args.get("x"), chunking);
        Integer axis = axis(args);
        String kind = args.path("kind").asText("quicksort");
        ChunkedArray result = switch (testCase.op()) {
            case "sort" -> ChunkedSort.sort(x, axis, SortKind.fromName(kind), options);
            case "argsort" -> ChunkedSort.argsort(x, axis, SortKind.fromName(kind), options);
            case "unique" -> ChunkedSort.unique(x, options).computeChunkSizes(SCHEDULER);
            default -> throw new IllegalStateException("unknown op " + testCase.op() + " in " + testCase.id());
        };
        NDArray actual = result.compute(SCHEDULER);
        JsonNode expected = testCase.expect().get("array");
        String mismatch = Comparison.mismatch(expected, actual, 0);
        if (mismatch == null && testCase.op().equals("sort") && kind.equals("stable")) {
            return Comparison.zeroSignMismatch(expected, actual);
        }
        return mismatch;
    }

    private static String quantile(CorpusCase testCase, Function<long[], ChunkSpec> chunking, ChunkedSort.Options options) {
        JsonNode args = testCase.args();
        ChunkedArray x = chunked(args.get("x"), chunking);
        Integer axis = axis(args);
        boolean keepdims = args.path("keepdims").asBoolean(false);
        String method = args.path("method").asText("linear");
        JsonNode q = args.get("q");
        boolean weak = q != null && (q.isNumber() || q.isTextual());
        ChunkedArray result = switch (testCase.op()) {
            case "quantile" -> weak ? ChunkedSort.quantile(x, Decoding.real(q), axis, method, keepdims, options)
                    : ChunkedSort.quantile(x, Decoding.array(q), axis, method, keepdims, options);
            case "percentile" -> weak ? ChunkedSort.percentile(x, Decoding.real(q), axis, method, keepdims, options)
                    : ChunkedSort.percentile(x, Decoding.array(q), axis, method, keepdims, options);
            case "median" -> ChunkedSort.median(x, axis, keepdims, options);
            default -> throw new IllegalStateException("unknown op " + testCase.op() + " in " + testCase.id());
        };
        return Comparison.mismatch(testCase.expect().get("array"), result.compute(SCHEDULER), 0);
    }
}
