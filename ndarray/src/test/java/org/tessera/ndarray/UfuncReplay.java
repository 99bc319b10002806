package org.tessera.ndarray;

import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.conformance.Comparison;
import org.tessera.ndarray.conformance.CorpusCase;
import org.tessera.ndarray.conformance.Decoding;
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
}
