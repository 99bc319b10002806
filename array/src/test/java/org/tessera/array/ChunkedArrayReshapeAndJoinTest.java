package org.tessera.array;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.array.MethodOracle.FLOATS;
import static org.tessera.array.MethodOracle.INTEGERS;
import static org.tessera.array.MethodOracle.assertMatches;
import static org.tessera.array.MethodOracle.chunked;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.join.ChunkedJoining;
import org.tessera.array.reshape.Reshape;
import org.tessera.graph.Task;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.AxisException;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.layout.Order;

/** reshape, ravel, concatenate, stack and block on chunked arrays against the NDArray layer. */
class ChunkedArrayReshapeAndJoinTest {

    @ParameterizedTest
    @MethodSource("org.tessera.array.MethodOracle#chunkings")
    void reshapesThatMergeSplitOrRegroupAxes(ChunkSpec spec) {
        ChunkedArray x = chunked(FLOATS, spec);
        assertMatches("reshape(63)", FLOATS.reshape(63), x.reshape(63));
        assertMatches("reshape(3, 21)", FLOATS.reshape(3, 21), x.reshape(3, 21));
        assertMatches("reshape(-1, 7)", FLOATS.reshape(-1, 7), x.reshape(-1, 7));
        assertMatches("reshape(7, 3, 3)", FLOATS.reshape(7, 3, 3), x.reshape(7, 3, 3));
        assertMatches("reshape(1, 7, 1, 9, 1)", FLOATS.reshape(1, 7, 1, 9, 1), x.reshape(1, 7, 1, 9, 1));
        assertMatches("reshape(F, 9, 7)", FLOATS.reshape(Order.F, 9, 7), x.reshape(Order.F, 9, 7));
        assertMatches("ravel", FLOATS.ravel(), x.ravel());
        assertMatches("ravel then reshape", FLOATS.reshape(21, 3), x.ravel().reshape(21, 3));
    }

    @Test
    void aReshapeDaskCannotDoGoesThroughTheFlatArray() {
        NDArray values = NDArrays.arange(24).reshape(4, 6);
        ChunkedArray x = chunked(values, ChunkSpec.of(3, 4));
        assertMatches("(4, 6) -> (3, 8)", values.reshape(3, 8), x.reshape(3, 8));
        assertMatches("(4, 6) -> (8, 3)", values.reshape(8, 3), x.reshape(8, 3));
    }

    @Test
    void reshapeKeepsBlockBoundariesWhereItCan() {
        ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 4));
        assertSame(x, x.reshape(7, 9));
        assertSame(x, x.reshape(-1, 9));
        ChunkedArray expanded = x.reshape(7, 1, 9);
        assertEquals(Chunks.of(new long[] {3, 3, 1}, new long[] {1}, new long[] {4, 4, 1}), expanded.chunks());
        // Merging axes: the inner axis becomes whole and the outer is split into about as many
        // blocks as there were (3 x 3 = 9, here 7 rows of 1), Dask's (7, 9) -> (63,).
        assertEquals(Chunks.of(new long[] {9, 9, 9, 9, 9, 9, 9}), x.reshape(63).chunks());
    }

    @Test
    void emptyArraysReshapeWithoutMovingAnything() {
        NDArray empty = NDArrays.zeros(DType.INT32, 0, 6);
        ChunkedArray x = chunked(empty, ChunkSpec.of(1, 2));
        assertMatches("(0, 6) -> (6, 0)", empty.reshape(6, 0), x.reshape(6, 0));
        assertMatches("(0, 6) -> (0, 2, 3)", empty.reshape(0, 2, 3), x.reshape(0, 2, 3));
    }

    @Test
    void badShapesAreRefusedAsNumPyRefusesThem() {
        ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 4));
        assertThrows(IllegalArgumentException.class, () -> x.reshape(8, 8));
        assertThrows(IllegalArgumentException.class, () -> x.reshape(-1, -1));
        assertThrows(IllegalArgumentException.class, () -> x.reshape(-3, 21));
    }

    @ParameterizedTest
    @MethodSource("org.tessera.array.MethodOracle#chunkings")
    void concatenateAndStackPromoteAndAlign(ChunkSpec spec) {
        ChunkedArray floats = chunked(FLOATS, spec);
        ChunkedArray integers = chunked(INTEGERS, ChunkSpec.of(2, 5));
        assertMatches("concatenate axis 0", NDArrays.concatenate(List.of(FLOATS, INTEGERS), 0),
                ChunkedJoining.concatenate(List.of(floats, integers), 0));
        assertMatches("concatenate axis -1", NDArrays.concatenate(List.of(INTEGERS, FLOATS, INTEGERS), -1),
                ChunkedJoining.concatenate(List.of(integers, floats, integers), -1));
        assertMatches("stack axis 1", NDArrays.stack(List.of(FLOATS, INTEGERS), 1), ChunkedJoining.stack(List.of(floats, integers), 1));
        assertMatches("stack axis -1", NDArrays.stack(List.of(INTEGERS, FLOATS), -1), ChunkedJoining.stack(List.of(integers, floats), -1));
    }

    @Test
    void concatenateOnlyRefersToTheInputBlocks() {
        ChunkedArray first = chunked(FLOATS, ChunkSpec.of(3, 4));
        ChunkedArray second = chunked(FLOATS.copy(), ChunkSpec.of(2, 4));
        ChunkedArray joined = ChunkedJoining.concatenate(List.of(first, second), 0);
        assertEquals(Chunks.of(new long[] {3, 3, 1, 2, 2, 2, 1}, new long[] {4, 4, 1}), joined.chunks());
        MaterializedLayer layer = (MaterializedLayer) joined.graph().layer(joined.name());
        assertTrue(layer.tasks().values().stream().allMatch(task -> task instanceof Task.Ref), "every block is an alias of an input block");
    }

    @Test
    void emptyInputsAreLeftOut() {
        ChunkedArray values = chunked(FLOATS, ChunkSpec.of(3, 4));
        ChunkedArray empty = chunked(NDArrays.zeros(DType.FLOAT64, 0, 9), ChunkSpec.of(5, 5));
        ChunkedArray joined = ChunkedJoining.concatenate(List.of(empty, values, empty), 0);
        assertEquals(values.chunks(), joined.chunks());
        assertMatches("concatenate with empty", FLOATS, joined);
    }

    @Test
    void blockAssemblesNestedLists() {
        ChunkedArray a = chunked(FLOATS, ChunkSpec.of(3, 4));
        ChunkedArray b = chunked(INTEGERS, ChunkSpec.of(4, 4));
        NDArray top = NDArrays.concatenate(List.of(FLOATS, INTEGERS), 1);
        NDArray bottom = NDArrays.concatenate(List.of(INTEGERS, FLOATS), 1);
        assertMatches("block 2 x 2", NDArrays.concatenate(List.of(top, bottom), 0), ChunkedJoining.block(List.of(List.of(a, b), List.of(b, a))));
        ChunkedArray row = chunked(NDArrays.arange(9).astype(DType.FLOAT64), ChunkSpec.size(4));
        // A 1-D array gets a leading axis of length 1 to sit on a row of the 2-D result.
        assertMatches("block with a row", NDArrays.concatenate(List.of(FLOATS, NDArrays.arange(9).astype(DType.FLOAT64).reshape(1, 9)), 0),
                ChunkedJoining.block(List.of(List.of(a), List.of(row))));
        assertMatches("block of 1-D arrays", NDArrays.concatenate(List.of(NDArrays.arange(9), NDArrays.arange(9)), 0).astype(DType.FLOAT64),
                ChunkedJoining.block(List.of(row, row)));
    }

    @Test
    void badJoinsAreRefusedAsNumPyRefusesThem() {
        ChunkedArray a = chunked(FLOATS, ChunkSpec.of(3, 4));
        ChunkedArray column = chunked(FLOATS.reshape(63, 1), ChunkSpec.size(10));
        assertThrows(ShapeMismatchException.class, () -> ChunkedJoining.concatenate(List.of(a, column), 0));
        assertThrows(ShapeMismatchException.class, () -> ChunkedJoining.concatenate(List.of(a, a.ravel()), 0));
        assertThrows(AxisException.class, () -> ChunkedJoining.concatenate(List.of(a, a), 2));
        assertThrows(IllegalArgumentException.class, () -> ChunkedJoining.concatenate(List.of(), 0));
        assertThrows(ShapeMismatchException.class, () -> ChunkedJoining.stack(List.of(a, column), 0));
        assertThrows(AxisException.class, () -> ChunkedJoining.stack(List.of(a, a), 3));
        assertThrows(IllegalArgumentException.class, () -> ChunkedJoining.block(List.of(List.of(a), a)));
        assertThrows(IllegalArgumentException.class, () -> ChunkedJoining.block(List.of(List.of(), List.of(a))));
        assertThrows(IllegalArgumentException.class, () -> Reshape.reshape(ChunkedJoining.stack(List.of(a), 0), 5, 5));
    }
}
