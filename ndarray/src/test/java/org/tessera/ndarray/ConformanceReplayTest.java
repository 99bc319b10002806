package org.tessera.ndarray;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.conformance.Comparison;
import org.tessera.ndarray.conformance.Corpus;
import org.tessera.ndarray.conformance.CorpusCase;
import org.tessera.ndarray.conformance.Decoding;
import org.tessera.ndarray.conformance.ErrorCategories;
import org.tessera.ndarray.dtype.Casting;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Order;
import org.tessera.ndarray.layout.Shapes;

/**
 * Replays every case of the NumPy conformance corpus that the NDArray layer implements and prints
 * {@code conformance SUITE: N passed, N failed} per suite. Suites that belong to later layers are
 * reported as {@code not implemented}; no case of an implemented suite is ever skipped.
 */
class ConformanceReplayTest {

    /** Runs one case: null when it matches, else a description of the difference. */
    @FunctionalInterface
    interface CaseRunner {
        String run(CorpusCase testCase);
    }

    private static final Map<String, CaseRunner> IMPLEMENTED = Map.ofEntries(
            Map.entry("result_type", ConformanceReplayTest::resultType),
            Map.entry("broadcast", ConformanceReplayTest::broadcastShapes),
            Map.entry("getitem", ConformanceReplayTest::getitem),
            Map.entry("getitem_bool_scalar", ConformanceReplayTest::getitem),
            Map.entry("setitem", ConformanceReplayTest::setitem),
            Map.entry("setitem_bool_scalar", ConformanceReplayTest::setitem),
            Map.entry("setitem_broadcast", ConformanceReplayTest::setitem),
            Map.entry("reshape", ConformanceReplayTest::reshape),
            Map.entry("transpose", ConformanceReplayTest::transpose),
            Map.entry("concatenate", ConformanceReplayTest::concatenate),
            Map.entry("astype", ConformanceReplayTest::astype),
            Map.entry("ufunc", UfuncReplay::ufunc),
            Map.entry("ufunc_bool", UfuncReplay::ufunc),
            Map.entry("reduce", UfuncReplay::reduce),
            Map.entry("reduce_empty", UfuncReplay::reduce),
            Map.entry("accumulate", UfuncReplay::accumulate),
            Map.entry("reduceat", UfuncReplay::reduceat),
            Map.entry("matmul", ConformanceReplayTest::matmul),
            Map.entry("fft", FftReplay::fft),
            Map.entry("sort", SortReplay::sort),
            Map.entry("quantile", SortReplay::quantile));

    @TestFactory
    Stream<DynamicTest> everySuiteOfTheCorpus() {
        Map<String, List<CorpusCase>> suites = Corpus.load(Corpus.directory());
        if (suites.isEmpty()) {
            fail("the conformance corpus at " + Corpus.directory().toAbsolutePath() + " has no suites");
        }
        return suites.entrySet().stream().map(suite -> DynamicTest.dynamicTest("conformance " + suite.getKey(),
                () -> replay(suite.getKey(), suite.getValue())));
    }

    private static void replay(String suite, List<CorpusCase> cases) {
        CaseRunner runner = IMPLEMENTED.get(suite);
        if (runner == null && suite.endsWith("_chunks")) {
            System.out.println("conformance " + suite + ": a Dask chunk suite, replayed by the array module (ChunkConformanceTest)");
            return;
        }
        if (runner == null) {
            System.out.println("conformance " + suite + ": not implemented");
            return;
        }
        int passed = 0;
        List<String> failures = new ArrayList<>();
        for (CorpusCase testCase : cases) {
            String mismatch = outcome(testCase, runner);
            if (mismatch == null) {
                passed++;
            } else {
                failures.add(testCase.id() + ": " + mismatch);
            }
        }
        System.out.println("conformance " + suite + ": " + passed + " passed, " + failures.size() + " failed");
        if (!failures.isEmpty()) {
            fail(failures.size() + " of " + cases.size() + " cases of suite " + suite + " failed, the first:\n  "
                    + String.join("\n  ", failures.subList(0, Math.min(20, failures.size()))));
        }
    }

    private static String outcome(CorpusCase testCase, CaseRunner runner) {
        String expectedError = testCase.expectedError();
        try {
            if (expectedError != null) {
                runner.run(testCase);
                return "expected " + expectedError + " but got a result";
            }
            return runner.run(testCase);
        } catch (RuntimeException thrown) {
            if (expectedError != null && ErrorCategories.matches(expectedError, thrown)) {
                return null;
            }
            return (expectedError == null ? "unexpected " : "expected " + expectedError + " but got ") + thrown;
        }
    }

    private static String resultType(CorpusCase testCase) {
        DType actual = NDArrays.resultType(Decoding.dtypeOrWeakScalar(testCase.args().get("a")),
                Decoding.dtypeOrWeakScalar(testCase.args().get("b")));
        String expected = testCase.expect().path("dtype").asText();
        return actual.numpyName().equals(expected) ? null : "dtype " + actual + ", expected " + expected;
    }

    private static String broadcastShapes(CorpusCase testCase) {
        JsonNode shapes = testCase.args().get("shapes");
        long[][] decoded = new long[shapes.size()][];
        for (int i = 0; i < decoded.length; i++) {
            decoded[i] = Decoding.shape(shapes.get(i));
        }
        long[] actual = NDArrays.broadcastShapes(decoded);
        long[] expected = Decoding.shape(testCase.expect().path("shape"));
        return Arrays.equals(actual, expected) ? null : "shape " + Shapes.format(actual) + ", expected " + Shapes.format(expected);
    }

    private static String getitem(CorpusCase testCase) {
        NDArray x = Decoding.array(testCase.args().get("x"));
        NDArray result = NDArrays.get(x, Decoding.index(testCase.args().get("index")));
        return arrayAndView(testCase, x, result);
    }

    private static String setitem(CorpusCase testCase) {
        NDArray x = Decoding.array(testCase.args().get("x"));
        NDArrays.set(x, Decoding.array(testCase.args().get("value")), Decoding.index(testCase.args().get("index")));
        return Comparison.mismatch(testCase.expect().get("array"), x, 0);
    }

    private static String reshape(CorpusCase testCase) {
        NDArray x = Decoding.array(testCase.args().get("x"));
        Order order = Order.fromName(testCase.args().path("order").asText("C"));
        NDArray result = x.reshape(order, Decoding.shape(testCase.args().get("shape")));
        return arrayAndView(testCase, x, result);
    }

    private static String transpose(CorpusCase testCase) {
        NDArray x = Decoding.array(testCase.args().get("x"));
        JsonNode axes = testCase.args().get("axes");
        NDArray result = axes == null || axes.isNull() ? x.transpose() : x.transpose(Decoding.ints(axes));
        return arrayAndView(testCase, x, result);
    }

    private static String concatenate(CorpusCase testCase) {
        List<NDArray> arrays = new ArrayList<>();
        for (JsonNode node : testCase.args().get("arrays")) {
            arrays.add(Decoding.array(node));
        }
        int axis = testCase.args().get("axis").asInt();
        NDArray result = switch (testCase.op()) {
            case "concatenate" -> NDArrays.concatenate(arrays, axis);
            case "stack" -> NDArrays.stack(arrays, axis);
            default -> throw new IllegalStateException("unknown op " + testCase.op() + " in " + testCase.id());
        };
        return Comparison.mismatch(testCase.expect().get("array"), result, 0);
    }

    private static String astype(CorpusCase testCase) {
        NDArray x = Decoding.array(testCase.args().get("x"));
        DType target = DType.fromName(testCase.args().get("dtype").asText());
        Casting casting = Casting.fromName(testCase.args().path("casting").asText("unsafe"));
        NDArray result = x.astype(target, casting);
        return testCase.expectedError() != null ? null : Comparison.mismatch(testCase.expect().get("array"), result, 0);
    }

    private static String matmul(CorpusCase testCase) {
        NDArray result = NDArrays.matmul(Decoding.array(testCase.args().get("a")), Decoding.array(testCase.args().get("b")));
        return Comparison.mismatch(testCase.expect().get("array"), result, result.dtype().realType() == DType.FLOAT32 ? 1e-5 : 1e-12);
    }

    /** Compares the values and, where the corpus records it, whether the result is a view of x. */
    private static String arrayAndView(CorpusCase testCase, NDArray x, NDArray result) {
        String mismatch = Comparison.mismatch(testCase.expect().get("array"), result, 0);
        JsonNode view = testCase.expect().get("view");
        if (mismatch == null && view != null && !view.isNull() && view.asBoolean() != result.mayShareMemory(x)) {
            return view.asBoolean() ? "NumPy returned a view, Tessera a copy" : "NumPy returned a copy, Tessera a view";
        }
        return mismatch;
    }
}
