package org.tessera.array;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.tessera.array.MethodOracle.FLOATS;
import static org.tessera.array.MethodOracle.INTEGERS;
import static org.tessera.array.MethodOracle.assertMatches;
import static org.tessera.array.MethodOracle.chunked;

import java.util.function.LongBinaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.shape.PadMode;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.AxisException;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * moveaxis, swapaxes, squeeze, expand_dims, broadcast_to, flip, roll, repeat, tile, diff and pad on
 * chunked arrays against NumPy's semantics: the NDArray layer's views where it has the operation,
 * otherwise arrays built element by element from NumPy's definition (which source element each
 * output element copies).
 */
class ChunkedShapeOperationsTest {

    @ParameterizedTest
    @MethodSource("org.tessera.array.MethodOracle#chunkings")
    void axisMovesAndLengthOneAxes(ChunkSpec spec) {
        ChunkedArray x = chunked(FLOATS, spec);
        assertMatches("swapaxes(0, 1)", FLOATS.swapAxes(0, 1), x.swapaxes(0, 1));
        assertMatches("swapaxes(-1, -1)", FLOATS, x.swapaxes(-1, -1));
        NDArray threeAxes = FLOATS.expandDims(1);
        ChunkedArray chunkedThree = x.expandDims(1);
        assertMatches("expand_dims(1)", threeAxes, chunkedThree);
        assertMatches("expand_dims(0, -1)", FLOATS.expandDims(0, -1), x.expandDims(0, -1));
        assertMatches("moveaxis(0, -1)", threeAxes.moveAxis(0, -1), chunkedThree.moveaxis(0, -1));
        assertMatches("moveaxis(2, 0)", threeAxes.moveAxis(2, 0), chunkedThree.moveaxis(2, 0));
        // NumPy: moveaxis(a of (7, 1, 9), [0, 1], [2, 0]) has shape (1, 9, 7).
        assertMatches("moveaxis([0, 1], [2, 0])", threeAxes.transpose(1, 2, 0), chunkedThree.moveaxis(new int[] {0, 1}, new int[] {2, 0}));
        assertMatches("squeeze()", FLOATS, x.expandDims(0, 2).squeeze());
        assertMatches("squeeze(0)", FLOATS.expandDims(1), x.expandDims(0, 2).squeeze(0));
        assertEquals(x.chunks(), x.expandDims(0, 2).squeeze().chunks());
    }

    @ParameterizedTest
    @MethodSource("org.tessera.array.MethodOracle#chunkings")
    void broadcastToStretchesAxesOfLengthOne(ChunkSpec spec) {
        ChunkedArray x = chunked(FLOATS, spec);
        ChunkedArray firstRow = x.get(org.tessera.ndarray.index.Index.range(0L, 1L, 1L));
        NDArray row = FLOATS.slice(0, 0, 1, 1);
        ChunkedArray broadcast = firstRow.broadcastTo(2, 5, 9);
        assertMatches("broadcast_to((2, 5, 9))", row.broadcastTo(2, 5, 9), broadcast);
        // Dask: a new axis and a stretched axis are one block each; the others keep their chunks.
        assertEquals(Chunks.of(new long[] {2}, new long[] {5}, x.chunks().axis(1)), broadcast.chunks());
        assertMatches("broadcast_to((3, 7, 9))", FLOATS.broadcastTo(3, 7, 9), x.broadcastTo(3, 7, 9));
        assertSame(x, x.broadcastTo(7, 9));
        assertThrows(ShapeMismatchException.class, () -> x.broadcastTo(7, 3));
        assertThrows(ShapeMismatchException.class, () -> x.broadcastTo(9));
    }

    @ParameterizedTest
    @MethodSource("org.tessera.array.MethodOracle#chunkings")
    void flipAndRoll(ChunkSpec spec) {
        ChunkedArray x = chunked(INTEGERS, spec);
        assertMatches("flip(0)", byIndex(INTEGERS, new long[] {7, 9}, (axis, i) -> axis == 0 ? 6 - i : i), x.flip(0));
        assertMatches("flip(-1)", byIndex(INTEGERS, new long[] {7, 9}, (axis, i) -> axis == 1 ? 8 - i : i), x.flip(-1));
        assertMatches("flip()", byIndex(INTEGERS, new long[] {7, 9}, (axis, i) -> (axis == 0 ? 6 : 8) - i), x.flip());
        assertArrayEquals(reversed(x.chunks().axis(0)), x.flip(0).chunks().axis(0));

        assertMatches("roll(3, 1)", byIndex(INTEGERS, new long[] {7, 9}, (axis, i) -> axis == 1 ? Math.floorMod(i - 3, 9) : i), x.roll(3, 1));
        assertMatches("roll(-2, 0)", byIndex(INTEGERS, new long[] {7, 9}, (axis, i) -> axis == 0 ? Math.floorMod(i + 2, 7) : i), x.roll(-2, 0));
        assertMatches("roll(16, 0)", byIndex(INTEGERS, new long[] {7, 9}, (axis, i) -> axis == 0 ? Math.floorMod(i - 16, 7) : i), x.roll(16, 0));
        assertMatches("roll([1, 2], [0, 0])", byIndex(INTEGERS, new long[] {7, 9}, (axis, i) -> axis == 0 ? Math.floorMod(i - 3, 7) : i),
                x.roll(new long[] {1, 2}, new int[] {0, 0}));
        NDArray flatRolled = byIndex(INTEGERS.ravel(), new long[] {63}, (axis, i) -> Math.floorMod(i - 10, 63)).reshape(7, 9);
        assertMatches("roll(10) of the flattened array", flatRolled, x.roll(10));
        assertSame(x, x.roll(9, 1));
    }

    @ParameterizedTest
    @MethodSource("org.tessera.array.MethodOracle#chunkings")
    void repeatAndTile(ChunkSpec spec) {
        ChunkedArray x = chunked(FLOATS, spec);
        assertMatches("repeat(3, 0)", byIndex(FLOATS, new long[] {21, 9}, (axis, i) -> axis == 0 ? i / 3 : i), x.repeat(3, 0));
        assertMatches("repeat(2, -1)", byIndex(FLOATS, new long[] {7, 18}, (axis, i) -> axis == 1 ? i / 2 : i), x.repeat(2, -1));
        assertMatches("repeat(4)", byIndex(FLOATS.ravel(), new long[] {252}, (axis, i) -> i / 4), x.repeat(4));
        assertMatches("repeat(0, 1)", NDArrays.zeros(DType.FLOAT64, 7, 0), x.repeat(0, 1));
        assertSame(x, x.repeat(1, 0));

        assertMatches("tile(2)", byIndex(FLOATS, new long[] {7, 18}, (axis, i) -> axis == 1 ? i % 9 : i), x.tile(2));
        assertMatches("tile(3, 2)", byIndex(FLOATS, new long[] {21, 18}, (axis, i) -> axis == 0 ? i % 7 : i % 9), x.tile(3, 2));
        NDArray threeAxes = byIndex(FLOATS, new long[] {2, 7, 9}, (axis, i) -> i).reshape(2, 7, 9);
        assertMatches("tile(2, 1, 1)", threeAxes, x.tile(2, 1, 1));
        assertMatches("tile(0, 1)", NDArrays.zeros(DType.FLOAT64, 0, 9), x.tile(0, 1));
        assertThrows(IllegalArgumentException.class, () -> x.tile(-1));
        assertThrows(IllegalArgumentException.class, () -> x.repeat(-1, 0));
    }

    @Test
    void repeatCutsBlocksIntoSlabsAsDaskDoes() {
        // Dask: block [0, 3) at linspace(0, 3, 3).round() = (0, 2, 3) -> slabs 2, 1; block [3, 6) at
        // (3, 4, 6) (4.5 rounds to even) -> 1, 2; block [6, 7) at (6, 6, 7) -> 1. Each slab times 3.
        ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 4));
        assertEquals(Chunks.of(new long[] {6, 3, 3, 6, 3}, new long[] {4, 4, 1}), x.repeat(3, 0).chunks());
        assertEquals(Chunks.of(new long[] {3, 3, 1}, new long[] {8, 8, 2}), x.repeat(2, 1).chunks());
    }

    @ParameterizedTest
    @MethodSource("org.tessera.array.MethodOracle#chunkings")
    void diff(ChunkSpec spec) {
        ChunkedArray floats = chunked(FLOATS, spec);
        ChunkedArray integers = chunked(INTEGERS, spec);
        NDArray squares = Ufuncs.MULTIPLY.apply(INTEGERS, INTEGERS);
        ChunkedArray chunkedSquares = chunked(squares, spec);
        NDArray firstDifference = Ufuncs.SUBTRACT.apply(squares.slice(1, 1, 1, 8), squares.slice(1, 0, 1, 8));
        assertMatches("diff()", firstDifference, chunkedSquares.diff());
        assertMatches("diff(2, -1)", Ufuncs.SUBTRACT.apply(firstDifference.slice(1, 1, 1, 7), firstDifference.slice(1, 0, 1, 7)), chunkedSquares.diff(2, -1));
        assertMatches("diff(1, 0) of floats", Ufuncs.SUBTRACT.apply(FLOATS.slice(0, 1, 1, 6), FLOATS.slice(0, 0, 1, 6)), floats.diff(1, 0));
        assertMatches("diff(0, 0)", INTEGERS, integers.diff(0, 0));
        assertMatches("diff(9, 1) is empty", NDArrays.zeros(DType.INT64, 7, 0), integers.diff(9, 1));
        NDArray positive = Ufuncs.GREATER.apply(INTEGERS, 0);
        assertMatches("diff of bools is !=", Ufuncs.NOT_EQUAL.apply(positive.slice(0, 1, 1, 6), positive.slice(0, 0, 1, 6)), chunked(positive, spec).diff(1, 0));
        assertThrows(IllegalArgumentException.class, () -> integers.diff(-1, 0));
        assertThrows(AxisException.class, () -> integers.diff(1, 2));
    }

    @Test
    void diffHasDaskChunks() {
        // x[1:] has (2, 3, 1) and x[:-1] (3, 3): unified at both sets of boundaries.
        ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 9));
        assertEquals(Chunks.of(new long[] {2, 1, 2, 1}, new long[] {9}), x.diff(1, 0).chunks());
    }

    @ParameterizedTest
    @MethodSource("org.tessera.array.MethodOracle#chunkings")
    void padInEveryMode(ChunkSpec spec) {
        ChunkedArray x = chunked(INTEGERS, spec);
        long[][] widths = {{2, 3}, {1, 0}};
        long[] padded = {12, 10};
        NDArray constant = byIndex(INTEGERS, padded, (axis, i) -> i - widths[(int) axis][0], -5L);
        assertMatches("pad constant -5", constant, x.pad(widths, PadMode.constant(-5)));
        for (PadMode mode : new PadMode[] {PadMode.EDGE, PadMode.REFLECT, PadMode.SYMMETRIC, PadMode.WRAP}) {
            NDArray expected = byIndex(INTEGERS, padded, (axis, i) -> numpySource(i - widths[(int) axis][0], axis == 0 ? 7 : 9, mode));
            assertMatches("pad " + mode, expected, x.pad(widths, mode));
        }
        // Widths beyond the axis: NumPy continues periodically.
        for (PadMode mode : new PadMode[] {PadMode.REFLECT, PadMode.SYMMETRIC, PadMode.WRAP}) {
            NDArray expected = byIndex(INTEGERS, new long[] {7 + 2 * 20, 9 + 2 * 20}, (axis, i) -> numpySource(i - 20, axis == 0 ? 7 : 9, mode));
            assertMatches("pad 20 " + mode, expected, x.pad(20, mode));
        }
    }

    @Test
    void padSmallCasesByHand() {
        ChunkedArray x = chunked(NDArrays.array(1L, 2L, 3L), ChunkSpec.of(1));
        assertMatches("reflect", NDArrays.array(3L, 2L, 1L, 2L, 3L, 2L, 1L), x.pad(2, PadMode.REFLECT));
        assertMatches("symmetric", NDArrays.array(2L, 1L, 1L, 2L, 3L, 3L, 2L), x.pad(2, PadMode.SYMMETRIC));
        assertMatches("wrap", NDArrays.array(2L, 3L, 1L, 2L, 3L, 1L, 2L), x.pad(2, PadMode.WRAP));
        assertMatches("edge", NDArrays.array(1L, 1L, 1L, 2L, 3L, 3L, 3L), x.pad(2, PadMode.EDGE));
        assertMatches("constant", NDArrays.array(0L, 0L, 1L, 2L, 3L, 0L, 0L), x.pad(2, PadMode.constant(0)));
        assertMatches("reflect of one element", NDArrays.array(7L, 7L, 7L), chunked(NDArrays.array(7L), ChunkSpec.of(1)).pad(1, PadMode.REFLECT));
        assertThrows(IllegalArgumentException.class, () -> chunked(NDArrays.zeros(DType.INT64, 0), ChunkSpec.of(1)).pad(1, PadMode.WRAP));
        assertThrows(IllegalArgumentException.class, () -> x.pad(new long[][] {{-1, 2}}, PadMode.EDGE));
    }

    @Test
    void padHasDaskChunks() {
        ChunkedArray x = chunked(FLOATS, ChunkSpec.of(3, 4));
        // constant: blocks as long as the axis's largest; edge: one block; reflect: cut from the array's blocks.
        assertEquals(Chunks.of(new long[] {3, 2, 3, 3, 1, 3, 2}, new long[] {4, 4, 1}), x.pad(new long[][] {{5}, {0}}, PadMode.constant(0)).chunks());
        assertEquals(Chunks.of(new long[] {5, 3, 3, 1, 5}, new long[] {4, 4, 1}), x.pad(new long[][] {{5}, {0}}, PadMode.EDGE).chunks());
        // reflect 5 before reads [1, 6) backwards (blocks 3, 2), 4 after reads [2, 6) backwards (3, 1).
        assertEquals(Chunks.of(new long[] {3, 2, 3, 3, 1, 3, 1}, new long[] {4, 4, 1}), x.pad(new long[][] {{5, 4}, {0}}, PadMode.REFLECT).chunks());
    }

    /** The element NumPy's pad copies to position {@code position} of an axis of {@code length}, by mirroring step by step. */
    private static long numpySource(long position, long length, PadMode mode) {
        long source = position;
        while (source < 0 || source >= length) {
            switch (mode) {
                case PadMode.Edge edge -> source = source < 0 ? 0 : length - 1;
                case PadMode.Wrap wrap -> source = source < 0 ? source + length : source - length;
                case PadMode.Reflect reflect -> source = source < 0 ? -source : 2 * (length - 1) - source;
                case PadMode.Symmetric symmetric -> source = source < 0 ? -source - 1 : 2 * length - 1 - source;
                default -> throw new IllegalArgumentException(mode.toString());
            }
        }
        return source;
    }

    /** An array of {@code shape} whose element at (i, j, ...) is {@code values} at (map(0, i), map(1, j), ...); leading extra axes are ignored. */
    static NDArray byIndex(NDArray values, long[] shape, LongBinaryOperator map) {
        return byIndex(values, shape, map, null);
    }

    /** As above, with {@code fill} where the map gives a position outside {@code values}. */
    static NDArray byIndex(NDArray values, long[] shape, LongBinaryOperator map, Long fill) {
        NDArray result = NDArrays.zeros(values.dtype(), shape);
        long size = 1;
        for (long length : shape) {
            size *= length;
        }
        int extra = shape.length - values.ndim();
        long[] index = new long[shape.length];
        long[] source = new long[values.ndim()];
        for (long flat = 0; flat < size; flat++) {
            long rest = flat;
            for (int axis = shape.length - 1; axis >= 0; axis--) {
                index[axis] = rest % shape[axis];
                rest /= shape[axis];
            }
            boolean inside = true;
            for (int axis = 0; axis < source.length; axis++) {
                source[axis] = map.applyAsLong(axis, index[axis + extra]);
                inside &= source[axis] >= 0 && source[axis] < values.shape(axis);
            }
            if (!inside) {
                result.setLong(fill, index);
            } else if (values.dtype() == DType.FLOAT64) {
                result.setDouble(values.getDouble(source), index);
            } else {
                result.setLong(values.getLong(source), index);
            }
        }
        return result;
    }

    private static long[] reversed(long[] lengths) {
        long[] result = new long[lengths.length];
        for (int position = 0; position < lengths.length; position++) {
            result[position] = lengths[lengths.length - 1 - position];
        }
        return result;
    }
}
