package org.tessera.ndarray.decomposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.conformance.Comparison;
import org.tessera.ndarray.conformance.Decoding;
import org.tessera.ndarray.conformance.FixtureFile;

/**
 * Replays {@code decomposition/cases.json}, written by real NumPy ({@code make_fixtures.py}): the
 * answers of numpy.linalg that do not depend on a choice of signs or bases, within 1e-10.
 */
class DecompositionFixturesTest {
    private static final double TOLERANCE = 1e-10;

    @TestFactory
    Stream<DynamicTest> everyNumPyCase() {
        return FixtureFile.cases("/decomposition/cases.json").stream().map(testCase -> DynamicTest.dynamicTest(
                testCase.get("id").asText() + " " + testCase.path("order").asText(""), () -> replay(testCase)));
    }

    private static void replay(JsonNode testCase) {
        List<NDArray> operands = new ArrayList<>();
        testCase.get("operands").forEach(operand -> operands.add(Decoding.array(operand)));
        NDArray first = operands.get(0);
        NDArray result = switch (testCase.get("op").asText()) {
            case "singular-values" -> Decompositions.singularValues(first);
            case "qr-r" -> Decompositions.qr(first).r();
            case "cholesky" -> Decompositions.cholesky(first);
            case "solve" -> Decompositions.solve(first, operands.get(1));
            case "inv" -> Decompositions.inv(first);
            case "norm" -> norm(first, testCase.get("order").asText());
            case "lstsq" -> {
                LeastSquaresSolution solution = Decompositions.lstsq(first, operands.get(1));
                assertEquals(testCase.get("rank").asInt(), solution.rank(), "rank");
                assertNull(Comparison.mismatch(testCase.get("residuals"), solution.residuals(), TOLERANCE), "residuals");
                yield solution.solution();
            }
            default -> throw new IllegalStateException("unknown op in " + testCase);
        };
        assertNull(Comparison.mismatch(testCase.get("expect"), result, TOLERANCE));
    }

    private static NDArray norm(NDArray x, String order) {
        return switch (order) {
            case "None" -> Norms.norm(x);
            case "fro" -> Norms.norm(x, NormOrder.FROBENIUS);
            case "nuc" -> Norms.norm(x, NormOrder.NUCLEAR);
            case "inf" -> Norms.norm(x, NormOrder.INFINITY);
            case "-inf" -> Norms.norm(x, NormOrder.NEGATIVE_INFINITY);
            default -> Norms.norm(x, NormOrder.of(Double.parseDouble(order)));
        };
    }
}
