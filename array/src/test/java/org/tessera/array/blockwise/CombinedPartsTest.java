package org.tessera.array.blockwise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.BiFunction;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.api.ChunkedArrays;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.plan.Plan;
import org.tessera.graph.schedule.MeasuredPeak;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.memory.Allocations;
import org.tessera.ndarray.ufunc.Ufunc;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * A binary ufunc of two random blocks (or of a random block and a transpose of one) is made in one
 * array, the second operand combined into the first as it is generated: the values must be exactly
 * those of the ufunc over the same values held as computed blocks, in either operand order, whole
 * and pulled through a reduction in strips, and a part must take one array, not three.
 */
class CombinedPartsTest {
    private static final ChunkSpec BLOCKS = ChunkSpec.of(300, 300);

    private static List<Ufunc> ufuncs() {
        return List.of(Ufuncs.ADD, Ufuncs.SUBTRACT, Ufuncs.MULTIPLY, Ufuncs.TRUE_DIVIDE);
    }

    @Test
    void aUfuncOfRandomBlocksIsTheUfuncOfTheHeldValuesInEitherOrder() {
        ChunkedArray x = Creation.random(11, Creation.Distribution.UNIFORM, new long[] {900, 900}, BLOCKS);
        ChunkedArray y = Creation.random(12, Creation.Distribution.UNIFORM, new long[] {900, 900}, BLOCKS);
        ChunkedArray heldX = ChunkedArrays.fromArray(x.compute(), BLOCKS);
        ChunkedArray heldY = ChunkedArrays.fromArray(y.compute(), BLOCKS);
        List<String> names = List.of("x op x.T", "x.T op x", "x op y", "y.T op x");
        List<BiFunction<ChunkedArray, ChunkedArray, ChunkedArray[]>> pairs = List.of(
                (a, b) -> new ChunkedArray[] {a, a.T()}, (a, b) -> new ChunkedArray[] {a.T(), a}, (a, b) -> new ChunkedArray[] {a, b},
                (a, b) -> new ChunkedArray[] {b.T(), a});
        for (Ufunc ufunc : ufuncs()) {
            for (int pair = 0; pair < pairs.size(); pair++) {
                String where = names.get(pair).replace("op", ufunc.name());
                ChunkedArray[] lazy = pairs.get(pair).apply(x, y);
                ChunkedArray[] held = pairs.get(pair).apply(heldX, heldY);
                NDArray expected = Elementwise.apply(ufunc, held[0], held[1]).compute();
                NDArray actual = Elementwise.apply(ufunc, lazy[0], lazy[1]).compute();
                assertArrayEquals(expected.shape(), actual.shape(), where);
                NDArray flatExpected = expected.reshape(-1);
                NDArray flatActual = actual.reshape(-1);
                for (long i = 0; i < flatExpected.size(); i++) {
                    assertEquals(Double.doubleToRawLongBits(flatExpected.getDouble(i)), Double.doubleToRawLongBits(flatActual.getDouble(i)), where + " at " + i);
                }
                NDArray expectedMeans = Elementwise.apply(ufunc, held[0], held[1]).mean(0).compute();
                NDArray actualMeans = Elementwise.apply(ufunc, lazy[0], lazy[1]).mean(0).compute();
                for (long column = 0; column < expectedMeans.size(); column++) {
                    double mean = expectedMeans.getDouble(column);
                    assertEquals(mean, actualMeans.getDouble(column), Math.abs(mean) * 1e-12, where + ".mean(0) at " + column);
                }
            }
        }
    }

    @Test
    void aPartOfARandomBlockPlusATransposeTakesOneArray() {
        // Two by two blocks of 1024 x 1024 (8 MB), pulled through their column sums in strips of 2 MB:
        // a strip of each block at a time, one array each, 8.8 MB; with a part of each operand and their sum, 25.6 MB.
        ChunkedArray x = Creation.random(5, Creation.Distribution.UNIFORM, new long[] {2048, 2048}, ChunkSpec.of(1024, 1024));
        columnSumsInStrips("(x + x.T).sum(0)", x, x.add(x.T()), (whole, row, column) -> whole.getDouble(row, column) + whole.getDouble(column, row));
    }

    @Test
    void aRandomBlockReadTwiceInATaskIsPulledThroughInStripsByEachRead() {
        // x * x reads each block at two positions of one task; made once, it was made whole (8 MB) with a whole product: 67 MB.
        ChunkedArray x = Creation.random(7, Creation.Distribution.UNIFORM, new long[] {2048, 2048}, ChunkSpec.of(1024, 1024));
        columnSumsInStrips("(x * x).sum(0)", x, x.multiply(x), (whole, row, column) -> whole.getDouble(row, column) * whole.getDouble(row, column));
    }

    /** The element (row, column) of an expression of the computed x. */
    private interface ElementOf {
        double of(NDArray whole, long row, long column);
    }

    /** {@code expression.sum(0)} of 2048 x 2048 computed the second time in less than 12 MB, and its column sums those of {@code element}. */
    private static void columnSumsInStrips(String label, ChunkedArray x, ChunkedArray expression, ElementOf element) {
        ChunkedArray sums = expression.sum(0);
        sums.compute(new SynchronousScheduler());
        long before = Allocations.ofCurrentThread().bytes();
        NDArray result = sums.compute(new SynchronousScheduler());
        long allocated = Allocations.ofCurrentThread().bytes() - before;
        assertTrue(allocated < 12L << 20, label + " over four 8 MB blocks allocated " + allocated + " bytes");
        NDArray whole = x.compute();
        for (long column = 0; column < 2048; column += 97) {
            double expected = 0;
            for (long row = 0; row < 2048; row++) {
                expected += element.of(whole, row, column);
            }
            assertEquals(expected, result.getDouble(column), 1e-9, label + " at column " + column);
        }
    }

    @Test
    void aPlanCountsOneArrayAPartWhereTheOperandsCombine() {
        ChunkedArray x = Creation.random(21, Creation.Distribution.UNIFORM, new long[] {2000, 2000}, ChunkSpec.of(500, 500));
        ChunkedArray y = Creation.random(22, Creation.Distribution.UNIFORM, new long[] {2000, 2000}, ChunkSpec.of(500, 500));
        List<ChunkedArray> expressions = List.of(x.add(x.T()), x.T().subtract(x), x.multiply(y), y.T().divide(x), x.multiply(x),
                // Two transposes (neither fills in place), a third operand, a scalar: each operand makes its own part, and the plan says so.
                x.T().add(y.T()), x.add(x.T()).add(x), x.add(y.multiply(2)));
        for (ChunkedArray expression : expressions) {
            ChunkedArray means = expression.mean(0);
            // One worker: on two, the measured peak is one task's or two's as their largest moments happen to meet.
            Plan plan = means.plan().withWorkers(1);
            MeasuredPeak peak = new MeasuredPeak();
            ChunkedArray.computeAll(ThreadedScheduler.builder().workers(1).callback(peak).build(), List.of(means));
            double ratio = (double) peak.bytes() / plan.projectedPeakBytes();
            assertTrue(ratio <= 1 && ratio >= 0.5, means.name() + ": measured " + peak.bytes() + " of the projected " + plan.projectedPeakBytes()
                    + System.lineSeparator() + plan);
        }
    }
}
