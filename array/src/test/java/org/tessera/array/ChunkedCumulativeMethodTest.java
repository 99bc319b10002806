package org.tessera.array;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.array.MethodOracle.FLOATS;
import static org.tessera.array.MethodOracle.INTEGERS;
import static org.tessera.array.MethodOracle.assertMatches;
import static org.tessera.array.MethodOracle.chunked;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.reduction.CumulativeScan;
import org.tessera.array.reduction.CumulativeScan.Kind;
import org.tessera.array.reduction.CumulativeScan.Method;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.ufunc.Ufuncs;

/** cumsum and cumprod with both of Dask's methods, sequential and blelloch, against the NDArray layer. */
class ChunkedCumulativeMethodTest {

    @ParameterizedTest
    @MethodSource("org.tessera.array.MethodOracle#chunkings")
    void bothMethodsGiveTheNDArrayScan(ChunkSpec spec) {
        ChunkedArray floats = chunked(FLOATS, spec);
        ChunkedArray integers = chunked(INTEGERS, spec);
        NDArray small = Ufuncs.ADD.apply(Ufuncs.REMAINDER.apply(INTEGERS, 3), 1);
        ChunkedArray chunkedSmall = chunked(small, spec);
        for (Method method : Method.values()) {
            for (int axis : new int[] {0, 1, -1}) {
                assertMatches("cumsum floats axis " + axis + " " + method, NDArrays.cumsum(FLOATS, axis, null), floats.cumsum(axis, method));
                assertMatches("cumsum integers axis " + axis + " " + method, NDArrays.cumsum(INTEGERS, axis, null), integers.cumsum(axis, method));
                assertMatches("cumprod axis " + axis + " " + method, NDArrays.cumprod(small, axis, null), chunkedSmall.cumprod(axis, method));
            }
            assertMatches("nancumsum flattened " + method, NDArrays.nancumsum(MethodOracle.WITH_NANS, null, null),
                    CumulativeScan.scan(chunked(MethodOracle.WITH_NANS, spec), Kind.NANCUMSUM, null, null, method));
        }
    }

    @Test
    void blellochCoversEveryNumberOfBlocks() {
        NDArray values = NDArrays.arange(70);
        for (long blockLength = 1; blockLength <= 70; blockLength += blockLength < 12 ? 1 : 9) {
            ChunkedArray x = chunked(values, ChunkSpec.of(blockLength));
            assertMatches("cumsum of arange(70) in blocks of " + blockLength, NDArrays.cumsum(values, 0, null), x.cumsum(0, Method.BLELLOCH));
        }
    }

    @Test
    void aLaterBlockAloneComputesWithItsWholeChainOfCarries() {
        // Culling to the last block keeps every carry it reads, though they are never outputs.
        ChunkedArray x = chunked(FLOATS, ChunkSpec.of(1, 4));
        NDArray expected = NDArrays.cumsum(FLOATS, 0, null).slice(0, 6, 1, 1).slice(1, 8, 1, 1);
        for (Method method : Method.values()) {
            assertMatches("last block of cumsum " + method, expected, x.cumsum(0, method).block(-1, -1));
        }
    }

    @Test
    void blellochIsShallowerThanTheChain() {
        ChunkedArray x = chunked(NDArrays.arange(64), ChunkSpec.of(1));
        int sequential = longestChain(x.cumsum(0, Method.SEQUENTIAL));
        int blelloch = longestChain(x.cumsum(0, Method.BLELLOCH));
        assertTrue(blelloch <= 2 * 6 + 4, "blelloch's critical path over 64 blocks is " + blelloch + " tasks");
        assertTrue(sequential >= 63, "the chain over 64 blocks is " + sequential + " tasks");
    }

    /** The number of tasks on the longest dependency path of the array's graph. */
    private static int longestChain(ChunkedArray array) {
        var graph = array.graph().materialize();
        java.util.Map<org.tessera.graph.Key, Integer> depth = new java.util.HashMap<>();
        int longest = 0;
        for (org.tessera.graph.Key key : array.flatKeys()) {
            longest = Math.max(longest, depth(graph, key, depth));
        }
        return longest;
    }

    private static int depth(org.tessera.graph.TaskGraph graph, org.tessera.graph.Key key, java.util.Map<org.tessera.graph.Key, Integer> memo) {
        Integer known = memo.get(key);
        if (known != null) {
            return known;
        }
        int deepest = 0;
        for (org.tessera.graph.Key dependency : graph.task(key).dependencies()) {
            deepest = Math.max(deepest, depth(graph, dependency, memo));
        }
        memo.put(key, deepest + 1);
        return deepest + 1;
    }
}
