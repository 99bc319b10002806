package org.tessera.ndarray.linalg;

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
import org.tessera.ndarray.dtype.DType;

/**
 * Replays {@code linalg/cases.json}, written by real NumPy ({@code make_fixtures.py}): dot, vdot,
 * inner, outer, tensordot, trace and einsum over float, integer (with wrapping), bool and complex
 * dtypes, checked as the corpus checks matmul (1e-12 relative for float64, 1e-5 for float32, exact
 * for integers and bool), dtype and shape exactly.
 */
class ProductsFixturesTest {
    @TestFactory
    Stream<DynamicTest> everyNumPyCase() {
        return FixtureFile.cases("/linalg/cases.json").stream().map(testCase -> DynamicTest.dynamicTest(
                testCase.get("id").asText() + " " + testCase.path("subscripts").asText(""), () -> replay(testCase)));
    }

    private static void replay(JsonNode testCase) {
        List<NDArray> operands = new ArrayList<>();
        testCase.get("operands").forEach(operand -> operands.add(Decoding.array(operand)));
        NDArray first = operands.get(0);
        NDArray second = operands.size() > 1 ? operands.get(1) : null;
        NDArray result = switch (testCase.get("op").asText()) {
            case "dot" -> Products.dot(first, second);
            case "vdot" -> Products.vdot(first, second);
            case "inner" -> Products.inner(first, second);
            case "outer" -> Products.outer(first, second);
            case "tensordot" -> {
                JsonNode axes = testCase.get("axes");
                yield axes.isInt() ? Products.tensordot(first, second, axes.asInt())
                        : Products.tensordot(first, second, Decoding.ints(axes.get(0)), Decoding.ints(axes.get(1)));
            }
            case "trace" -> Trace.trace(first, testCase.get("offset").asLong(), testCase.get("axis1").asInt(),
                    testCase.get("axis2").asInt());
            case "einsum" -> Einsum.einsum(testCase.get("subscripts").asText(), operands.toArray(NDArray[]::new));
            default -> throw new IllegalStateException("unknown op in " + testCase);
        };
        double tolerance = result.dtype().realType() == DType.FLOAT32 || result.dtype() == DType.FLOAT16 ? 1e-5 : 1e-12;
        assertNull(Comparison.mismatch(testCase.get("expect"), result, tolerance));
    }
}
