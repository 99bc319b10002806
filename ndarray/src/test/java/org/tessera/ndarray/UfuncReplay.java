package org.tessera.ndarray;

import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.conformance.Comparison;
import org.tessera.ndarray.conformance.CorpusCase;
import org.tessera.ndarray.conformance.Decoding;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Reductions;
import org.tessera.ndarray.ufunc.Ufunc;

/** The replay runners of the ufunc, reduce, accumulate and reduceat suites. */
final class UfuncReplay {
    private UfuncReplay() {}

    /** FORMAT.md: these are compared within 4 ulp; every other ufunc result exactly. */
    private static final Set<String> TRANSCENDENTAL = Set.of("power", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
            "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "hypot", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
            "arctanh", "cbrt");

    static String ufunc(CorpusCase testCase) {
        String name = testCase.args().get("name").asText();
        JsonNode inputNodes = testCase.args().get("inputs");
        Object[] inputs = new Object[inputNodes.size()];
        for (int i = 0; i < inputs.length; i++) {
            JsonNode node = inputNodes.get(i);
            inputs[i] = node.has("weak") ? Decoding.dtypeOrWeakScalar(node) : Decoding.array(node);
        }
        Ufunc ufunc = NDArrays.ufunc(name);
        NDArray[] outputs = ufunc.applyAll(inputs);
        JsonNode expected = testCase.expect().get("outputs");
        if (expected == null) {
            return null;
        }
        for (int k = 0; k < outputs.length; k++) {
            String mismatch = TRANSCENDENTAL.contains(name)
                    ? Comparison.mismatchInUlps(expected.get(k), outputs[k], 4)
                    : Comparison.mismatch(expected.get(k), outputs[k], 0);
            if (mismatch != null) {
                return "output " + k + ": " + mismatch;
            }
        }
        return null;
    }

    /** FORMAT.md: float sums, means, var, std and cumulative sums within 1e-12 (float64) or 1e-5 (float32). */
    private static String reductionMismatch(JsonNode expected, NDArray actual) {
        DType dtype = actual.dtype();
        return Comparison.mismatch(expected, actual, dtype == DType.FLOAT32 ? 1e-5 : dtype == DType.FLOAT16 ? 1e-3 : 1e-12);
    }

    static String reduce(CorpusCase testCase) {
        JsonNode args = testCase.args();
        NDArray x = Decoding.array(args.get("x"));
        JsonNode axisNode = args.get("axis");
        Integer axis = axisNode == null || axisNode.isNull() || axisNode.isArray() ? null : axisNode.asInt();
        int[] axes = axisNode == null || axisNode.isNull() ? null : axisNode.isArray() ? Decoding.ints(axisNode) : new int[] {axisNode.asInt()};
        boolean keepdims = args.path("keepdims").asBoolean(false);
        DType dtype = args.hasNonNull("dtype") ? DType.fromName(args.get("dtype").asText()) : null;
        long ddof = args.path("ddof").asLong(0);
        Reductions.Options options = new Reductions.Options(axes, dtype, keepdims, null, null);
        NDArray result = switch (args.get("method").asText()) {
            case "sum" -> NDArrays.sum(x, options);
            case "prod" -> NDArrays.prod(x, options);
            case "max" -> NDArrays.max(x, options);
            case "min" -> NDArrays.min(x, options);
            case "mean" -> NDArrays.mean(x, options);
            case "var" -> NDArrays.var(x, options, ddof);
            case "std" -> NDArrays.std(x, options, ddof);
            case "argmax" -> NDArrays.argmax(x, axis, keepdims);
            case "argmin" -> NDArrays.argmin(x, axis, keepdims);
            case "any" -> NDArrays.any(x, options);
            case "all" -> NDArrays.all(x, options);
            case "count_nonzero" -> NDArrays.countNonzero(x, options);
            case "nansum" -> NDArrays.nansum(x, options);
            case "nanmean" -> NDArrays.nanmean(x, options);
            case "nanmax" -> NDArrays.nanmax(x, options);
            case "nanmin" -> NDArrays.nanmin(x, options);
            case "cumsum" -> NDArrays.cumsum(x, axis, dtype);
            case "cumprod" -> NDArrays.cumprod(x, axis, dtype);
            default -> throw new IllegalStateException("unknown reduce method in " + testCase.id());
        };
        return reductionMismatch(testCase.expect().get("array"), result);
    }

    static String accumulate(CorpusCase testCase) {
        JsonNode args = testCase.args();
        NDArray x = Decoding.array(args.get("x"));
        NDArray result = Reductions.accumulate(NDArrays.ufunc(args.get("ufunc").asText()), x, args.get("axis").asInt(), null);
        return reductionMismatch(testCase.expect().get("array"), result);
    }

    static String reduceat(CorpusCase testCase) {
        JsonNode args = testCase.args();
        NDArray x = Decoding.array(args.get("x"));
        JsonNode indexNodes = args.get("indices");
        long[] indices = new long[indexNodes.size()];
        for (int i = 0; i < indices.length; i++) {
            indices[i] = indexNodes.get(i).asLong();
        }
        NDArray result = Reductions.reduceat(NDArrays.ufunc(args.get("ufunc").asText()), x, indices, args.get("axis").asInt(), null);
        return reductionMismatch(testCase.expect().get("array"), result);
    }
}
