package org.tessera.ndarray.blas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.kernel.Elements;

/**
 * A Gram product into the upper triangle, added to what is there whatever the lower triangle holds,
 * and the mirror that completes a sum of them: on both providers, float64 and float32, heap and
 * native memory, products small enough for the Java kernel and large enough for BLAS.
 */
class GramUpperTest {

    static List<Gemm> providers() {
        List<Gemm> providers = new ArrayList<>(List.of(JavaGemm.INSTANCE));
        Blas.openBlas().ifPresent(providers::add);
        return providers;
    }

    private static Matrix filled(DType dtype, MemorySegment segment, long rows, long columns, long seed) {
        Matrix matrix = new Matrix(dtype, segment, 0, rows, columns, columns * dtype.byteSize(), dtype.byteSize());
        SplittableRandom random = new SplittableRandom(seed);
        for (long row = 0; row < rows; row++) {
            for (long column = 0; column < columns; column++) {
                Elements.storeReal(dtype, segment, matrix.byteOffsetOf(row, column), random.nextDouble() - 0.25);
            }
        }
        return matrix;
    }

    private static MemorySegment memory(long bytes, boolean onHeap) {
        return onHeap ? MemorySegment.ofArray(new long[(int) ((bytes + 7) / 8)]) : Arena.ofAuto().allocate(bytes, 64);
    }

    private static double at(Matrix matrix, long row, long column) {
        return Elements.loadReal(matrix.dtype(), matrix.segment(), matrix.byteOffsetOf(row, column));
    }

    @ParameterizedTest
    @MethodSource("providers")
    void theUpperTriangleIsTheGramProductAddedToItsOwn(Gemm gemm) {
        for (DType dtype : List.of(DType.FLOAT64, DType.FLOAT32)) {
            for (long[] size : List.of(new long[] {7, 5}, new long[] {300, 140})) {
                for (boolean onHeap : List.of(true, false)) {
                    long depth = size[0], side = size[1];
                    String label = gemm.name() + " " + dtype + " " + depth + " x " + side + (onHeap ? " heap" : " native");
                    Matrix b = filled(dtype, memory(depth * side * dtype.byteSize(), onHeap), depth, side, 3);
                    Matrix c = filled(dtype, memory(depth * side * dtype.byteSize(), onHeap), depth, side, 4);
                    Matrix out = filled(dtype, memory(side * side * dtype.byteSize(), onHeap), side, side, 5);
                    // The lower triangle holds what no symmetric sum would: NaN.
                    for (long row = 1; row < side; row++) {
                        for (long column = 0; column < row; column++) {
                            Elements.storeReal(dtype, out.segment(), out.byteOffsetOf(row, column), Double.NaN);
                        }
                    }
                    gemm.gramUpper(b, out, false);
                    gemm.gramUpper(c, out, true);
                    // Relative to the sum of the terms' magnitudes: float32 sums round at each of up to 600 terms.
                    double tolerance = dtype == DType.FLOAT64 ? 1e-13 : 1e-5;
                    for (long row = 0; row < side; row++) {
                        for (long column = row; column < side; column++) {
                            double expected = 0;
                            double scale = 0;
                            for (long k = 0; k < depth; k++) {
                                double first = at(b, k, row) * at(b, k, column), second = at(c, k, row) * at(c, k, column);
                                expected += first + second;
                                scale += Math.abs(first) + Math.abs(second);
                            }
                            assertEquals(expected, at(out, row, column), tolerance * scale,
                                    label + " at (" + row + ", " + column + ")");
                        }
                    }
                    Gemm.mirrorUpper(out);
                    for (long row = 0; row < side; row++) {
                        for (long column = 0; column < row; column++) {
                            assertEquals(Double.doubleToRawLongBits(at(out, column, row)), Double.doubleToRawLongBits(at(out, row, column)),
                                    label + " mirrored at (" + row + ", " + column + ")");
                        }
                    }
                }
            }
        }
    }

    @Test
    void onlySquareFloatMatricesHaveTrianglesToMirror() {
        Matrix wide = new Matrix(DType.FLOAT64, MemorySegment.ofArray(new double[6]), 0, 2, 3, 24, 8);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Gemm.mirrorUpper(wide));
        assertTrue(refused.getMessage().contains("(2,3)"), refused.getMessage());
        Matrix integers = new Matrix(DType.INT64, MemorySegment.ofArray(new long[4]), 0, 2, 2, 16, 8);
        assertThrows(IllegalArgumentException.class, () -> Gemm.mirrorUpper(integers));
    }
}
