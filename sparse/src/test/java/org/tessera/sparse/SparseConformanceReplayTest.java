package org.tessera.sparse;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.Reduction;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.conformance.Comparison;
import org.tessera.ndarray.conformance.Corpus;
import org.tessera.ndarray.conformance.CorpusCase;
import org.tessera.ndarray.conformance.Decoding;
import org.tessera.ndarray.conformance.ErrorCategories;
import org.tessera.ndarray.dtype.DType;

/**
 * Replays the NumPy suites that apply to the sparse family through it: every array input becomes
 * a {@link SparseCOO} (0-d ones included), the operation runs in {@link SparseNamespace}, and the
 * result is densified and compared as FORMAT.md says. A case is <em>not applicable</em> by one of
 * these stated rules, and is counted and printed, never dropped silently:
 * <ul>
 *   <li>ufunc: a ufunc with more than one output (divmod, modf, frexp): the namespace applies single-output ufuncs;</li>
 *   <li>reduce: a method other than sum, prod, min, max (the sparse reductions);</li>
 *   <li>reshape: order "F" (the namespace reshapes in C order);</li>
 *   <li>concatenate: op "stack" (not in the namespace);</li>
 *   <li>matmul: an operand with more than 2 axes (sparse matmul is 1-D/2-D).</li>
 * </ul>
 */
class SparseConformanceReplayTest {
    private static final SparseNamespace SPARSE = SparseNamespace.INSTANCE;

    /** FORMAT.md: compared within 4 ulp; other ufunc results exactly. */
    private static final Set<String> TRANSCENDENTAL = Set.of("power", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
            "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "hypot", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
            "arctanh", "cbrt");

    /** Why a case does not apply, or null when it does. */
    private interface Applicability {
        String reason(CorpusCase testCase);
    }

    /** Runs one case: null when it matches, else the difference. */
    private interface Runner {
        String run(CorpusCase testCase);
    }

    private record Suite(Applicability applicability, Runner runner) {
    }

    private static final Map<String, Suite> SUITES = Map.of(
            "ufunc", new Suite(SparseConformanceReplayTest::ufuncApplies, SparseConformanceReplayTest::ufunc),
            "ufunc_bool", new Suite(SparseConformanceReplayTest::ufuncApplies, SparseConformanceReplayTest::ufunc),
            "reduce", new Suite(SparseConformanceReplayTest::reduceApplies, SparseConformanceReplayTest::reduce),
            "reduce_empty", new Suite(SparseConformanceReplayTest::reduceApplies, SparseConformanceReplayTest::reduce),
            "reshape", new Suite(c -> "F".equals(c.args().path("order").asText("C")) ? "order F" : null, SparseConformanceReplayTest::reshape),
            "transpose", new Suite(c -> null, SparseConformanceReplayTest::transpose),
            "concatenate", new Suite(c -> c.op().equals("stack") ? "stack" : null, SparseConformanceReplayTest::concatenate),
            "matmul", new Suite(SparseConformanceReplayTest::matmulApplies, SparseConformanceReplayTest::matmul));

    @TestFactory
    Stream<DynamicTest> everyApplicableCaseOfTheUfuncReductionAndShapeSuites() {
        Map<String, List<CorpusCase>> corpus = Corpus.load(Corpus.directory());
        assertTrue(corpus.keySet().containsAll(List.of("ufunc", "reduce")), "the corpus lacks the ufunc or reduce suite");
        return SUITES.keySet().stream().sorted().map(name -> DynamicTest.dynamicTest("sparse conformance " + name,
                () -> replay(name, SUITES.get(name), corpus.get(name))));
    }

    private static void replay(String name, Suite suite, List<CorpusCase> cases) {
        int passed = 0;
        Map<String, Integer> notApplicable = new java.util.TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (CorpusCase testCase : cases) {
            String reason = suite.applicability().reason(testCase);
            if (reason != null) {
                notApplicable.merge(reason, 1, Integer::sum);
                continue;
            }
            String mismatch = outcome(testCase, suite.runner());
            if (mismatch == null) {
                passed++;
            } else {
                failures.add(testCase.id() + ": " + mismatch);
            }
        }
        int skipped = notApplicable.values().stream().mapToInt(Integer::intValue).sum();
        System.out.println("sparse conformance " + name + ": " + passed + " passed, " + failures.size() + " failed, " + skipped
                + " not applicable " + notApplicable);
        assertTrue(passed > 0, "no case of " + name + " applied");
        if (!failures.isEmpty()) {
            fail(failures.size() + " of " + cases.size() + " cases of suite " + name + " failed through the sparse family, the first:\n  "
                    + String.join("\n  ", failures.subList(0, Math.min(20, failures.size()))));
        }
    }

    private static String outcome(CorpusCase testCase, Runner runner) {
        String expectedError = testCase.expectedError();
        try {
            String mismatch = runner.run(testCase);
            return expectedError != null ? "expected " + expectedError + " but got a result" : mismatch;
        } catch (RuntimeException thrown) {
            if (expectedError != null && ErrorCategories.matches(expectedError, thrown)) {
                return null;
            }
            return (expectedError == null ? "unexpected " : "expected " + expectedError + " but got ") + thrown;
        }
    }

    private static SparseArray sparse(JsonNode node) {
        return SparseCOO.fromDense(Decoding.array(node));
    }

    private static String ufuncApplies(CorpusCase testCase) {
        return NDArrays.ufunc(testCase.args().get("name").asText()).nout() > 1 ? "multiple outputs" : null;
    }

    private static String ufunc(CorpusCase testCase) {
        String name = testCase.args().get("name").asText();
        JsonNode inputNodes = testCase.args().get("inputs");
        Object[] inputs = new Object[inputNodes.size()];
        for (int i = 0; i < inputs.length; i++) {
            JsonNode node = inputNodes.get(i);
            inputs[i] = node.has("weak") ? Decoding.dtypeOrWeakScalar(node) : sparse(node);
        }
        NDArray output = SPARSE.apply(name, inputs).toDense();
        JsonNode expected = testCase.expect().path("outputs").get(0);
        return TRANSCENDENTAL.contains(name) ? Comparison.mismatchInUlps(expected, output, 4) : Comparison.mismatch(expected, output, 0);
    }

    private static final Map<String, Reduction> REDUCTIONS = Map.of("sum", Reduction.SUM, "prod", Reduction.PROD, "min", Reduction.MIN,
            "max", Reduction.MAX);

    private static String reduceApplies(CorpusCase testCase) {
        String method = testCase.args().get("method").asText();
        return REDUCTIONS.containsKey(method) ? null : "method " + method;
    }

    private static String reduce(CorpusCase testCase) {
        JsonNode args = testCase.args();
        JsonNode axisNode = args.get("axis");
        int[] axes = axisNode == null || axisNode.isNull() ? null : axisNode.isArray() ? Decoding.ints(axisNode) : new int[] {axisNode.asInt()};
        DType dtype = args.hasNonNull("dtype") ? DType.fromName(args.get("dtype").asText()) : null;
        NDArray result = SPARSE.reduce(REDUCTIONS.get(args.get("method").asText()), sparse(args.get("x")), axes,
                args.path("keepdims").asBoolean(false), dtype).toDense();
        DType resultType = result.dtype();
        return Comparison.mismatch(testCase.expect().get("array"), result, resultType == DType.FLOAT32 ? 1e-5 : resultType == DType.FLOAT16 ? 1e-3 : 1e-12);
    }

    private static String reshape(CorpusCase testCase) {
        NDArray result = SPARSE.reshape(sparse(testCase.args().get("x")), Decoding.shape(testCase.args().get("shape"))).toDense();
        return Comparison.mismatch(testCase.expect().get("array"), result, 0);
    }

    private static String transpose(CorpusCase testCase) {
        JsonNode axes = testCase.args().get("axes");
        int[] order = axes == null || axes.isNull() ? new int[0] : Decoding.ints(axes);
        NDArray result = SPARSE.transpose(sparse(testCase.args().get("x")), order).toDense();
        return Comparison.mismatch(testCase.expect().get("array"), result, 0);
    }

    private static String concatenate(CorpusCase testCase) {
        List<SparseArray> arrays = new ArrayList<>();
        testCase.args().get("arrays").forEach(node -> arrays.add(sparse(node)));
        NDArray result = SPARSE.concatenate(arrays, testCase.args().get("axis").asInt()).toDense();
        return Comparison.mismatch(testCase.expect().get("array"), result, 0);
    }

    private static String matmulApplies(CorpusCase testCase) {
        return Decoding.shape(testCase.args().get("a").get("shape")).length > 2 || Decoding.shape(testCase.args().get("b").get("shape")).length > 2
                ? "more than 2 axes" : null;
    }

    private static String matmul(CorpusCase testCase) {
        SparseArray a = sparse(testCase.args().get("a"));
        NDArray dense = Decoding.array(testCase.args().get("b"));
        NDArray sparseBySparse = SPARSE.matmul(a, SparseCOO.fromDense(dense)).toDense();
        JsonNode expected = testCase.expect().get("array");
        double tolerance = sparseBySparse.dtype() == DType.FLOAT32 ? 1e-5 : 1e-12;
        String mismatch = Comparison.mismatch(expected, sparseBySparse, tolerance);
        if (mismatch != null) {
            return "sparse x sparse: " + mismatch;
        }
        String denseMismatch = Comparison.mismatch(expected, SPARSE.matmul(a, dense), tolerance);
        return denseMismatch == null ? null : "sparse x dense: " + denseMismatch;
    }
}
