package org.tessera.ndarray.sort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.conformance.Comparison;
import org.tessera.ndarray.conformance.Decoding;
import org.tessera.ndarray.conformance.FixtureFile;

/**
 * Replays {@code sort/cases.json}, written by real NumPy ({@code make_fixtures.py}): every dtype,
 * NaNs, infinities, signed zeros, ties, uint64 above 2^63, several axes. Stable results must match
 * exactly (signed zeros included); where NumPy's algorithm decides the order of ties (quicksort
 * argsort, partition) the test checks the contract instead of NumPy's particular answer.
 */
class SortingFixturesTest {
    @TestFactory
    Stream<DynamicTest> everyNumPyCase() {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode testCase : FixtureFile.cases("/sort/cases.json")) {
            tests.add(DynamicTest.dynamicTest(testCase.get("id").asText() + " " + (testCase.has("x") ? testCase.get("x") : testCase.get("a")).path("dtype").asText(),
                    () -> replay(testCase)));
        }
        return tests.stream();
    }

    @Test
    void quickselectPartitionsLongLanesWithTiesAndNans() {
        java.util.Random random = new java.util.Random(5);
        double[] pool = {Double.NaN, -1.0, 0.0, -0.0, 2.5, 3.0, Double.POSITIVE_INFINITY};
        NDArray x = NDArray.zeros(org.tessera.ndarray.dtype.DType.FLOAT64, 3, 1000);
        for (int row = 0; row < 3; row++) {
            for (int column = 0; column < 1000; column++) {
                x.setDouble(row == 2 ? column % 5 : pool[random.nextInt(pool.length)], row, column);
            }
        }
        int[] kth = {0, 10, 500, 999, -3};
        NDArray sorted = Sorting.sort(x, 1, SortKind.STABLE);
        assertPartitioned(Sorting.partition(x, kth, 1), sorted, kth, 1);
        assertPartitioned(gather(x, Sorting.argpartition(x, kth, 1), 1), sorted, kth, 1);
    }

    private static void replay(JsonNode testCase) {
        switch (testCase.get("op").asText()) {
            case "sort" -> {
                SortKind kind = SortKind.fromName(testCase.get("kind").asText());
                NDArray result = Sorting.sort(x(testCase), axis(testCase), kind);
                assertMatches(testCase.get("expect"), result);
                if (kind == SortKind.STABLE) { // NumPy's quicksort puts -0.0 and 0.0 in either order
                    assertSignedZerosMatch(Decoding.array(testCase.get("expect")), result);
                }
            }
            case "argsort" -> {
                SortKind kind = SortKind.fromName(testCase.get("kind").asText());
                NDArray indices = Sorting.argsort(x(testCase), axis(testCase), kind);
                if (kind == SortKind.STABLE) {
                    assertMatches(testCase.get("expect"), indices);
                }
                assertMatches(testCase.get("sorted"), gather(x(testCase), indices, axis(testCase)));
            }
            case "partition" -> {
                int[] kth = testCase.get("kth").isArray() ? Decoding.ints(testCase.get("kth")) : new int[] {testCase.get("kth").asInt()};
                NDArray x = x(testCase);
                Integer axis = axis(testCase);
                NDArray sorted = Decoding.array(testCase.get("sorted"));
                assertPartitioned(Sorting.partition(x, kth, axis), sorted, kth, axis);
                assertPartitioned(gather(x, Sorting.argpartition(x, kth, axis), axis), sorted, kth, axis);
            }
            case "unique" -> {
                Unique unique = Unique.of(x(testCase), testCase.get("equal_nan").asBoolean());
                JsonNode expect = testCase.get("expect");
                assertMatches(expect.get("values"), unique.values());
                assertMatches(expect.get("index"), unique.indices());
                assertMatches(expect.get("inverse"), unique.inverse());
                assertMatches(expect.get("counts"), unique.counts());
            }
            case "nonzero" -> {
                List<NDArray> indices = Searching.nonzero(x(testCase));
                assertEquals(testCase.get("expect").size(), indices.size());
                for (int axis = 0; axis < indices.size(); axis++) {
                    assertMatches(testCase.get("expect").get(axis), indices.get(axis));
                }
                assertMatches(testCase.get("flat"), Searching.flatnonzero(x(testCase)));
            }
            case "searchsorted" -> {
                JsonNode sorter = testCase.get("sorter");
                NDArray result = Searching.searchsorted(Decoding.array(testCase.get("a")), Decoding.array(testCase.get("v")),
                        Searching.Side.valueOf(testCase.get("side").asText().toUpperCase(java.util.Locale.ROOT)),
                        sorter == null ? null : Decoding.array(sorter));
                assertMatches(testCase.get("expect"), result);
            }
            default -> throw new IllegalStateException("unknown op in " + testCase);
        }
    }

    private static NDArray x(JsonNode testCase) {
        return Decoding.array(testCase.get("x"));
    }

    private static Integer axis(JsonNode testCase) {
        JsonNode axis = testCase.get("axis");
        return axis == null || axis.isNull() ? null : axis.asInt();
    }

    private static void assertMatches(JsonNode expected, NDArray actual) {
        assertNull(Comparison.mismatch(expected, actual, 0));
    }

    /** Stable sorts keep the input order of -0.0 and 0.0, so the signs must match too. */
    private static void assertSignedZerosMatch(NDArray expected, NDArray actual) {
        if (!expected.dtype().isInexact()) {
            return;
        }
        NDArray expectedParts = expected.dtype().isComplex() ? expected.real() : expected;
        NDArray actualParts = actual.dtype().isComplex() ? actual.real() : actual;
        NDArray expectedFlat = expectedParts.copy().reshape(expected.size());
        NDArray actualFlat = actualParts.copy().reshape(actual.size());
        for (long i = 0; i < expected.size(); i++) {
            double e = expectedFlat.getDouble(i), a = actualFlat.getDouble(i);
            assertTrue(e != 0 || Math.copySign(1, e) == Math.copySign(1, a), "sign of zero at flat element " + i);
        }
    }

    /** Each kth element is the sorted one; nothing before it sorts after it, nothing after it before it. */
    private static void assertPartitioned(NDArray partitioned, NDArray sorted, int[] kth, Integer axis) {
        NDArray lanesOfPartitioned = axis == null ? partitioned.ravel() : partitioned.moveAxis(axis, -1);
        NDArray lanesOfSorted = axis == null ? sorted.ravel() : sorted.moveAxis(axis, -1);
        int laneAxis = lanesOfPartitioned.ndim() - 1;
        Lanes.forEach(laneAxis, offsets -> {
            Keys lane = Keys.load(partitioned.dtype(), partitioned.segment(), offsets[0], lanesOfPartitioned.byteStride(-1),
                    (int) lanesOfPartitioned.shape(-1));
            Keys reference = Keys.load(sorted.dtype(), sorted.segment(), offsets[1], lanesOfSorted.byteStride(-1),
                    (int) lanesOfSorted.shape(-1));
            for (int k : kth) {
                int position = k < 0 ? k + lane.length() : k;
                assertEquals(0, compareAcross(lane, position, reference, position), "kth " + k);
                for (int i = 0; i < lane.length(); i++) {
                    int order = lane.compare(i, position);
                    assertTrue(i < position ? order <= 0 : i == position || order >= 0, "element " + i + " around kth " + k);
                }
            }
        }, lanesOfPartitioned, lanesOfSorted);
    }

    private static int compareAcross(Keys first, int i, Keys second, int j) {
        return switch (first) {
            case Keys.Integers ints -> Long.compare(ints.values()[i], ((Keys.Integers) second).values()[j]);
            case Keys.Reals reals -> Keys.compareReal(reals.values()[i], ((Keys.Reals) second).values()[j]);
            case Keys.Complexes complexes -> {
                Keys.Complexes other = (Keys.Complexes) second;
                int byReal = Keys.compareReal(complexes.real()[i], other.real()[j]);
                yield byReal != 0 ? byReal : Keys.compareReal(complexes.imag()[i], other.imag()[j]);
            }
        };
    }

    /** x's elements picked along the axis by indices (NumPy's take_along_axis); flattened for a null axis. */
    private static NDArray gather(NDArray x, NDArray indices, Integer axis) {
        NDArray source = axis == null ? x.ravel() : x;
        int lane = axis == null ? 0 : Sorting.laneAxis(source, axis);
        NDArray result = NDArray.zeros(source.dtype(), source.shape());
        Lanes.forEach(lane, offsets -> {
            int length = (int) source.shape(lane);
            int[] order = new int[length];
            for (int k = 0; k < length; k++) {
                order[k] = (int) indices.segment().get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED,
                        offsets[1] + k * indices.byteStride(lane));
            }
            Lanes.gather(source, offsets[0], result, offsets[2], lane, order);
        }, source, axis == null ? indices.ravel() : indices, result);
        return result;
    }

}
