package org.tessera.ndarray;

import com.fasterxml.jackson.databind.JsonNode;

import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.conformance.Comparison;
import org.tessera.ndarray.conformance.CorpusCase;
import org.tessera.ndarray.conformance.Decoding;
import org.tessera.ndarray.sort.Quantiles;
import org.tessera.ndarray.sort.SortKind;

/**
 * Replays the sort suites of the conformance corpus on NDArray: {@code sort} (sort, argsort, unique)
 * and {@code quantile} (quantile, percentile, median), all compared exactly. A stable sort must
 * also keep the signs of equal zeros where NumPy's stable sort put them (FORMAT.md's comparison
 * ignores the sign of zero; here it does not).
 */
final class SortReplay {
    private SortReplay() {
    }

    static String sort(CorpusCase testCase) {
        JsonNode args = testCase.args();
        NDArray x = Decoding.array(args.get("x"));
        Integer axis = axis(args);
        String kind = args.path("kind").asText("quicksort");
        NDArray result = switch (testCase.op()) {
            case "sort" -> NDArrays.sort(x, axis, SortKind.fromName(kind));
            case "argsort" -> NDArrays.argsort(x, axis, SortKind.fromName(kind));
            case "unique" -> NDArrays.unique(x);
            default -> throw new IllegalStateException("unknown op " + testCase.op() + " in " + testCase.id());
        };
        JsonNode expected = testCase.expect().get("array");
        String mismatch = Comparison.mismatch(expected, result, 0);
        if (mismatch == null && testCase.op().equals("sort") && kind.equals("stable")) {
            return Comparison.zeroSignMismatch(expected, result);
        }
        return mismatch;
    }

    static String quantile(CorpusCase testCase) {
        JsonNode args = testCase.args();
        NDArray x = Decoding.array(args.get("x"));
        Integer axis = axis(args);
        boolean keepdims = args.path("keepdims").asBoolean(false);
        String method = args.path("method").asText("linear");
        JsonNode q = args.get("q");
        NDArray result = switch (testCase.op()) {
            // A number is a Python float (weak); an array is an array.
            case "quantile" -> q.isNumber() || q.isTextual() ? Quantiles.quantile(x, Decoding.real(q), axis, method, keepdims)
                    : NDArrays.quantile(x, Decoding.array(q), axis, method, keepdims);
            case "percentile" -> q.isNumber() || q.isTextual() ? Quantiles.percentile(x, Decoding.real(q), axis, method, keepdims)
                    : NDArrays.percentile(x, Decoding.array(q), axis, method, keepdims);
            case "median" -> NDArrays.median(x, axis, keepdims);
            default -> throw new IllegalStateException("unknown op " + testCase.op() + " in " + testCase.id());
        };
        return Comparison.mismatch(testCase.expect().get("array"), result, 0);
    }

    /** The case's axis: null for the flattened array. */
    static Integer axis(JsonNode args) {
        JsonNode axis = args.get("axis");
        return axis == null || axis.isNull() ? null : axis.asInt();
    }
}
