package org.tessera.ndarray.ufunc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.Casting;
import org.tessera.ndarray.dtype.Complex;
import org.tessera.ndarray.dtype.DType;

/**
 * Binary ufuncs with a transposed operand ({@code a + b.T}, {@code b.T + a}) give, bit for bit,
 * what the ufunc gives on the same pair of values one element at a time, whichever path runs them
 * (the tiled path for loops with a contiguous kernel, the buffered path otherwise).
 */
class TransposedOperandTest {

    private static final List<Ufunc> UFUNCS = List.of(Ufuncs.ADD, Ufuncs.SUBTRACT, Ufuncs.MULTIPLY, Ufuncs.MAXIMUM);
    private static final List<DType> DTYPES = List.of(DType.FLOAT64, DType.FLOAT32, DType.INT32, DType.INT64, DType.COMPLEX128);
    /** Tile edges fall inside 257 x 130 and 64 x 64 on both axes; 1 x 5 and 5 x 1 transpose to C-contiguous views; 0 x 3 is empty. */
    private static final long[][] SHAPES = {{257, 130}, {64, 64}, {1, 5}, {5, 1}, {0, 3}, {3, 2100}};

    /** Values with fractions, signs, NaN and signed zeros among the floats, and wrapping products among the integers. */
    private static NDArray filled(DType dtype, long rows, long columns, SplittableRandom random, boolean nativeMemory) {
        NDArray array = nativeMemory ? NDArray.zerosNative(dtype, rows, columns) : NDArray.zeros(dtype, rows, columns);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < columns; j++) {
                if (dtype.isComplex()) {
                    array.setComplex(new Complex(value(random), value(random)), i, j);
                } else if (dtype.isInteger()) {
                    array.setLong(random.nextInt(8) == 0 ? random.nextLong() : random.nextLong(-1000, 1000), i, j);
                } else {
                    array.setDouble(value(random), i, j);
                }
            }
        }
        return array;
    }

    private static double value(SplittableRandom random) {
        return switch (random.nextInt(40)) {
            case 0 -> Double.NaN;
            case 1 -> -0.0;
            case 2 -> 0.0;
            case 3 -> Double.POSITIVE_INFINITY;
            default -> (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-5, 6));
        };
    }

    /** The transpose of a C-contiguous (columns, rows) array, or of a slice of a wider one (rows shorter than their stride). */
    private static NDArray transposed(DType dtype, long rows, long columns, SplittableRandom random, boolean sliced, boolean nativeMemory) {
        NDArray source = filled(dtype, columns, sliced ? rows + 3 : rows, random, nativeMemory);
        return (sliced ? source.slice(1, 0, 1, rows) : source).transpose();
    }

    @Test
    void transposedOperandMatchesElementByElement() {
        SplittableRandom random = new SplittableRandom(42);
        for (DType dtype : DTYPES) {
            for (long[] shape : SHAPES) {
                boolean sliced = shape[0] == 257;
                boolean nativeMemory = shape[0] == 64;
                NDArray a = filled(dtype, shape[0], shape[1], random, false);
                NDArray bTransposed = transposed(dtype, shape[0], shape[1], random, sliced, nativeMemory);
                for (Ufunc ufunc : UFUNCS) {
                    if (dtype.isComplex() && ufunc == Ufuncs.MAXIMUM) {
                        continue;
                    }
                    String where = ufunc.name() + " " + dtype + " " + shape[0] + "x" + shape[1];
                    NDArray forward = ufunc.apply(a, bTransposed);
                    NDArray backward = ufunc.apply(bTransposed, a);
                    assertSameAsElementwise(ufunc, a, bTransposed, forward, where + " a + b.T");
                    assertSameAsElementwise(ufunc, bTransposed, a, backward, where + " b.T + a");
                    assertSameAsContiguous(ufunc.apply(a, bTransposed.copy()), forward, where + " a + b.T");
                    assertSameAsContiguous(ufunc.apply(bTransposed.copy(), a), backward, where + " b.T + a");
                }
            }
        }
    }

    @Test
    void givenOutputAndBothOperandsTransposed() {
        SplittableRandom random = new SplittableRandom(7);
        NDArray a = transposed(DType.FLOAT64, 130, 257, random, false, false);
        NDArray b = transposed(DType.FLOAT64, 130, 257, random, true, false);
        NDArray out = NDArray.zeros(DType.FLOAT64, 130, 257);
        Ufuncs.SUBTRACT.apply(new Object[] {a, b}, new NDArray[] {out}, null, Casting.SAME_KIND);
        assertSameAsElementwise(Ufuncs.SUBTRACT, a, b, out, "a.T - b.T into out");
    }

    @Test
    void tiledPathTakesLoopsWithAContiguousKernelOnly() {
        SplittableRandom random = new SplittableRandom(3);
        for (DType dtype : DTYPES) {
            NDArray a = filled(dtype, 9, 7, random, false);
            NDArray bTransposed = transposed(dtype, 9, 7, random, false, false);
            for (Ufunc ufunc : List.of(Ufuncs.ADD, Ufuncs.MAXIMUM)) {
                if (dtype.isComplex() && ufunc == Ufuncs.MAXIMUM) {
                    continue;
                }
                Loop loop = TypeResolution.findLoop(ufunc, dtype, dtype);
                NDArray[] outputs = {NDArray.zeros(dtype, 9, 7)};
                boolean taken = TransposedTiles.run(loop, new NDArray[] {a, bTransposed}, outputs, new long[] {9, 7});
                assertEquals(loop.contiguous() != null, taken, ufunc.name() + " " + dtype);
            }
        }
        Loop add = TypeResolution.findLoop(Ufuncs.ADD, DType.FLOAT64, DType.FLOAT64);
        NDArray a = filled(DType.FLOAT64, 9, 7, random, false);
        NDArray everyOther = filled(DType.FLOAT64, 7, 18, random, false).slice(1, 0, 2, 9).transpose();
        assertFalse(TransposedTiles.run(add, new NDArray[] {a, everyOther}, new NDArray[] {NDArray.zeros(DType.FLOAT64, 9, 7)}, new long[] {9, 7}));
    }

    /**
     * Every byte of {@code result} as computed from C-contiguous copies of the operands, but a NaN's
     * payload: the same kernel can give a NaN other bits once C2 has compiled it (it may swap the
     * operands of a product), and the two computations may run at different tiers.
     */
    private static void assertSameAsContiguous(NDArray expected, NDArray result, String where) {
        assertArrayEquals(expected.shape(), result.shape(), where);
        int itemSize = expected.dtype().byteSize();
        for (long i = 0; i < expected.shape(0); i++) {
            for (long j = 0; j < expected.shape(1); j++) {
                MemorySegment expectedBytes = expected.segment().asSlice(expected.elementByteOffset(i, j), itemSize);
                MemorySegment actualBytes = result.segment().asSlice(result.elementByteOffset(i, j), itemSize);
                if (expectedBytes.mismatch(actualBytes) != -1 && !bothNaN(expected.take(0, i).take(0, j), result.take(0, i).take(0, j))) {
                    assertEquals(-1, expectedBytes.mismatch(actualBytes), where + " at (" + i + ", " + j + ")");
                }
            }
        }
    }

    /** Whether both 0-d elements are NaN in the same parts: Java leaves the bits of a NaN that arithmetic produces unspecified. */
    private static boolean bothNaN(NDArray expected, NDArray actual) {
        if (expected.dtype().isComplex()) {
            Complex x = expected.getComplex();
            Complex y = actual.getComplex();
            return samePart(x.real(), y.real()) && samePart(x.imag(), y.imag());
        }
        return expected.dtype().isInexact() && Double.isNaN(expected.getDouble()) && Double.isNaN(actual.getDouble());
    }

    private static boolean samePart(double x, double y) {
        return Double.isNaN(x) ? Double.isNaN(y) : Double.doubleToRawLongBits(x) == Double.doubleToRawLongBits(y);
    }

    /** Every element of {@code result} equals, byte for byte, {@code ufunc} of the two 0-d elements at its position. */
    private static void assertSameAsElementwise(Ufunc ufunc, NDArray first, NDArray second, NDArray result, String where) {
        assertArrayEquals(first.shape(), result.shape(), where);
        int itemSize = result.dtype().byteSize();
        for (long i = 0; i < result.shape(0); i++) {
            for (long j = 0; j < result.shape(1); j++) {
                NDArray expected = ufunc.apply(first.take(0, i).take(0, j), second.take(0, i).take(0, j));
                assertEquals(result.dtype(), expected.dtype(), where);
                MemorySegment expectedBytes = expected.segment().asSlice(expected.byteOffset(), itemSize);
                MemorySegment actualBytes = result.segment().asSlice(result.elementByteOffset(i, j), itemSize);
                if (expectedBytes.mismatch(actualBytes) != -1 && !bothNaN(expected, result.take(0, i).take(0, j))) {
                    assertEquals(expected.toString(), result.take(0, i).take(0, j).toString(), where + " at (" + i + ", " + j + ")");
                    assertEquals(-1, expectedBytes.mismatch(actualBytes), where + " at (" + i + ", " + j + ")");
                }
            }
        }
    }
}
