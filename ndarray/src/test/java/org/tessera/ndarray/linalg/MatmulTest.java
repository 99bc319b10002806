package org.tessera.ndarray.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.ndarray.linalg.ArrayAssertions.assertClose;
import static org.tessera.ndarray.linalg.RandomArrays.random;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.blas.Blas;
import org.tessera.ndarray.blas.Gemm;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.ShapeMismatchException;

class MatmulTest {
    private static final DType[] DTYPES = {DType.FLOAT64, DType.FLOAT32, DType.COMPLEX128, DType.COMPLEX64,
            DType.INT64, DType.INT32, DType.INT8, DType.UINT8, DType.UINT64, DType.BOOL, DType.FLOAT16};
    private static final long[] SIZES = {1, 7, 65, 130};

    /** Every provider this machine has; OpenBLAS is reported as skipped, with the reason, where absent. */
    static Stream<String> providers() {
        return Stream.of("java", "openblas");
    }

    static Gemm provider(String name) {
        if (name.equals("java")) {
            return Blas.java();
        }
        Assumptions.assumeTrue(Blas.openBlas().isPresent(),
                "no OpenBLAS shared library on this machine (install libopenblas0 or set -Dtessera.blas.library)");
        return Blas.openBlas().orElseThrow();
    }

    static Stream<Arguments> providersAndDtypes() {
        List<Arguments> cases = new ArrayList<>();
        for (String provider : List.of("java", "openblas")) {
            for (DType dtype : DTYPES) {
                cases.add(Arguments.of(provider, dtype));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("providersAndDtypes")
    void matchesTheTripleLoopOnOddSizes(String providerName, DType dtype) {
        Gemm gemm = provider(providerName);
        Random random = new Random(dtype.ordinal());
        for (long rows : SIZES) {
            for (long depth : SIZES) {
                long columns = SIZES[(int) ((rows + depth) % SIZES.length)];
                if (dtype == DType.FLOAT16 && depth > 7) {
                    continue; // float16 rounding of a long sum is not what this test measures
                }
                NDArray a = random(random, dtype, rows, depth);
                NDArray b = random(random, dtype, depth, columns);
                assertClose(NaiveProduct.multiply(a, b, dtype), Matmul.matmul(a, b, gemm));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void readsTransposedStridedAndReversedOperands(String providerName) {
        Gemm gemm = provider(providerName);
        Random random = new Random(7);
        for (DType dtype : List.of(DType.FLOAT64, DType.FLOAT32, DType.COMPLEX128, DType.INT32)) {
            NDArray transposed = random(random, dtype, 65, 130).transpose();          // (130, 65), F order
            NDArray strided = random(random, dtype, 65, 14).slice(1, 0, 2, 7);         // every other column
            NDArray reversed = random(random, dtype, 7, 130).slice(0, 6, -1, 7);      // rows backwards
            NDArray broadcast = random(random, dtype, 1, 130).broadcastTo(7, 130);      // stride 0 rows
            assertClose(NaiveProduct.multiply(transposed, strided, dtype), Matmul.matmul(transposed, strided, gemm));
            assertClose(NaiveProduct.multiply(reversed, transposed, dtype), Matmul.matmul(reversed, transposed, gemm));
            assertClose(NaiveProduct.multiply(broadcast, transposed, dtype), Matmul.matmul(broadcast, transposed, gemm));
            NDArray bothTransposed = Matmul.matmul(strided.transpose(), transposed.transpose(), gemm);
            assertClose(NaiveProduct.multiply(strided.transpose(), transposed.transpose(), dtype), bothTransposed);
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void multipliesLargeProductsOutsideTheCriticalPath(String providerName) {
        Gemm gemm = provider(providerName);
        Random random = new Random(3);
        NDArray a = random(random, DType.FLOAT64, 200, 150);
        NDArray b = random(random, DType.FLOAT64, 300, 150).transpose();
        assertClose(NaiveProduct.multiply(a, b, DType.FLOAT64), Matmul.matmul(a, b, gemm));
        NDArray nativeA = NDArray.zerosNative(DType.COMPLEX64, 150, 200);
        nativeA.assign(random(random, DType.COMPLEX64, 150, 200));
        NDArray complexB = random(random, DType.COMPLEX64, 200, 170);
        assertClose(NaiveProduct.multiply(nativeA, complexB, DType.COMPLEX64), Matmul.matmul(nativeA, complexB, gemm));
    }

    /** x.T @ x and x @ x.T: OpenBLAS computes them with syrk and mirrors the triangle; values as gemm's. */
    @ParameterizedTest
    @MethodSource("providers")
    void multipliesAMatrixByItsOwnTranspose(String providerName) {
        Gemm gemm = provider(providerName);
        Random random = new Random(11);
        for (DType dtype : List.of(DType.FLOAT64, DType.FLOAT32)) {
            for (long[] shape : new long[][] {{7, 5}, {130, 65}, {300, 200}}) {
                NDArray heap = random(random, dtype, shape);
                NDArray offHeap = NDArray.zerosNative(dtype, shape);
                offHeap.assign(heap);
                for (NDArray x : List.of(heap, offHeap, heap.transpose(), heap.slice(0, 0, 2, shape[0] / 2))) {
                    NDArray gram = Matmul.matmul(x.transpose(), x, gemm);
                    assertClose(NaiveProduct.multiply(x.transpose(), x, dtype), gram);
                    assertExactlySymmetric(gram, "A.T @ A");
                    assertClose(NaiveProduct.multiply(x, x.transpose(), dtype), Matmul.matmul(x, x.transpose(), gemm));
                }
            }
        }
    }

    private static void assertExactlySymmetric(NDArray square, String what) {
        long size = square.shape()[0];
        for (long row = 0; row < size; row++) {
            for (long column = 0; column < row; column++) {
                assertEquals(square.getDouble(column, row), square.getDouble(row, column), what + " is exactly symmetric at (" + row + ", " + column + ")");
            }
        }
    }

    /** out += a @ b in place, out on the heap or not; a matrix by its own transpose too, into a symmetric output or any other. */
    @ParameterizedTest
    @MethodSource("providers")
    void addsProductsIntoAnOutput(String providerName) {
        Gemm gemm = provider(providerName);
        Random random = new Random(13);
        for (DType dtype : List.of(DType.FLOAT64, DType.FLOAT32)) {
            for (long[] dims : new long[][] {{7, 5, 9}, {130, 65, 120}, {300, 200, 250}}) {
                NDArray a = random(random, dtype, dims[0], dims[1]);
                NDArray b = random(random, dtype, dims[1], dims[2]);
                NDArray start = random(random, dtype, dims[0], dims[2]);
                NDArray product = NaiveProduct.multiply(a, b, dtype);
                NDArray offHeap = NDArray.zerosNative(dtype, dims[0], dims[2]);
                offHeap.assign(start);
                for (NDArray out : List.of(start.copy(), offHeap)) {
                    Matmul.matmulInto(a, b, out, true, gemm);
                    assertClose(NDArrays.add(start, product), out);
                }
                NDArray replaced = start.copy();
                Matmul.matmulInto(a, b, replaced, false, gemm);
                assertClose(product, replaced);
            }
            for (long[] shape : new long[][] {{7, 5}, {130, 65}, {300, 200}}) {
                NDArray x = random(random, dtype, shape);
                NDArray gram = NaiveProduct.multiply(x.transpose(), x, dtype);
                long size = shape[1];
                NDArray uneven = random(random, dtype, size, size);
                // Symmetric bit for bit: each element is the same two values added.
                NDArray symmetric = NDArrays.add(uneven, uneven.transpose());
                for (NDArray start : List.of(symmetric, uneven)) {
                    NDArray out = start.copy();
                    Matmul.matmulInto(x.transpose(), x, out, true, gemm);
                    assertClose(NDArrays.add(start, gram), out);
                }
                NDArray out = symmetric.copy();
                Matmul.matmulInto(x.transpose(), x, out, true, gemm);
                assertExactlySymmetric(out, "a symmetric sum with A.T @ A added");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("providers")
    void readsReadOnlyHeapAndNativeMemory(String providerName) {
        Gemm gemm = provider(providerName);
        double[] values = {1, 2, 3, 4, 5, 6};
        NDArray heap = NDArray.wrap(java.lang.foreign.MemorySegment.ofArray(values).asReadOnly(), 0, new long[] {2, 3},
                new long[] {24, 8}, DType.FLOAT64, false);
        java.lang.foreign.MemorySegment nativeValues = java.lang.foreign.Arena.ofAuto().allocate(48, 8);
        java.lang.foreign.MemorySegment.copy(values, 0, nativeValues, java.lang.foreign.ValueLayout.JAVA_DOUBLE, 0, 6);
        NDArray offHeap = NDArray.wrap(nativeValues.asReadOnly(), 0, new long[] {3, 2}, new long[] {8, 24}, DType.FLOAT64, false);
        assertEquals("array([[14., 32.],\n       [32., 77.]])", Matmul.matmul(heap, offHeap, gemm).toString());
    }

    @Nested
    class Batches {
        @Test
        void broadcastBatchAxes() {
            Random random = new Random(11);
            NDArray a = random(random, DType.FLOAT64, 2, 1, 3, 4);
            NDArray b = random(random, DType.INT32, 5, 4, 2);
            NDArray result = Matmul.matmul(a, b);
            assertEquals(List.of(2L, 5L, 3L, 2L), boxed(result.shape()));
            for (int i = 0; i < 2; i++) {
                for (int j = 0; j < 5; j++) {
                    NDArray expected = NaiveProduct.multiply(a.take(0, i).take(0, 0), b.take(0, j).astype(DType.FLOAT64), DType.FLOAT64);
                    assertClose(expected, result.take(0, i).take(0, j));
                }
            }
        }

        @Test
        void promoteAndRemoveOneDimensionalOperands() {
            NDArray vector = org.tessera.ndarray.api.NDArrays.array(1L, 2L, 3L);
            NDArray matrix = org.tessera.ndarray.api.NDArrays.arange(6).reshape(3, 2);
            assertEquals("array(14)", Matmul.matmul(vector, vector).toString());
            assertEquals("array([16, 22])", Matmul.matmul(vector, matrix).toString());
            assertEquals("array([16, 22])", Matmul.matmul(matrix.transpose(), vector).toString());
            NDArray stack = org.tessera.ndarray.api.NDArrays.arange(12).reshape(2, 2, 3);
            assertEquals(List.of(2L, 2L), boxed(Matmul.matmul(stack, vector).shape()));
        }

        @Test
        void emptyDepthGivesZeros() {
            NDArray result = Matmul.matmul(NDArray.zeros(DType.FLOAT32, 2, 0), NDArray.zeros(DType.FLOAT32, 0, 3));
            assertEquals("array([[0., 0., 0.],\n       [0., 0., 0.]], dtype=float32)", result.toString());
        }
    }

    @Nested
    class Integers {
        @Test
        void wrapLikeNumPy() {
            NDArray a = NDArray.zeros(DType.INT8, 1, 2);
            a.fill(100L);
            NDArray b = NDArray.zeros(DType.INT8, 2, 1);
            b.fill(100L);
            assertEquals(32, Matmul.matmul(a, b).getLong(0, 0)); // 20000 mod 256 = 32
            NDArray big = NDArray.zeros(DType.UINT64, 1, 1);
            big.setLong(-1L, 0, 0); // 2^64 - 1
            assertEquals(1L, Matmul.matmul(big, big).getLong(0, 0));
        }

        @Test
        void boolIsTheOrOfAnds() {
            NDArray a = org.tessera.ndarray.api.NDArrays.array(true, false, true).reshape(1, 3);
            NDArray b = org.tessera.ndarray.api.NDArrays.array(false, true, true, false, false, true).reshape(3, 2);
            assertEquals("array([[False,  True]])", Matmul.matmul(a, b).toString());
        }
    }

    @Nested
    class Errors {
        @Test
        void nameBothShapesAndTheCoreDimensions() {
            ShapeMismatchException thrown = assertThrows(ShapeMismatchException.class,
                    () -> Matmul.matmul(NDArray.zeros(DType.FLOAT64, 2, 3), NDArray.zeros(DType.FLOAT64, 4, 5)));
            assertEquals("matmul: (2,3) and (4,5): core dimension 3 != 4", thrown.getMessage());
        }

        @Test
        void nameBatchShapesThatDoNotBroadcast() {
            ShapeMismatchException thrown = assertThrows(ShapeMismatchException.class,
                    () -> Matmul.matmul(NDArray.zeros(DType.FLOAT64, 2, 2, 3), NDArray.zeros(DType.FLOAT64, 3, 3, 5)));
            assertEquals("matmul: (2,2,3) and (3,3,5): batch dimensions (2,) and (3,) do not broadcast", thrown.getMessage());
        }

        @Test
        void nameWhatCannotBeMultipliedIntoAnOutput() {
            NDArray a = NDArray.zeros(DType.FLOAT64, 2, 3);
            ShapeMismatchException shapes = assertThrows(ShapeMismatchException.class,
                    () -> Matmul.matmulInto(a, NDArray.zeros(DType.FLOAT64, 3, 4), NDArray.zeros(DType.FLOAT64, 2, 5), true));
            assertEquals("matmul into: cannot multiply float64 (2,3) by float64 (3,4) into float64 (2,5)", shapes.getMessage());
            IllegalArgumentException integers = assertThrows(IllegalArgumentException.class, () -> Matmul.matmulInto(NDArray.zeros(DType.INT64, 2, 3),
                    NDArray.zeros(DType.INT64, 3, 4), NDArray.zeros(DType.INT64, 2, 4), true));
            assertTrue(integers.getMessage().contains("float32 or float64") && integers.getMessage().contains("int64"), integers.getMessage());
            NDArray square = NDArray.zeros(DType.FLOAT64, 3, 3);
            IllegalArgumentException overlap = assertThrows(IllegalArgumentException.class, () -> Matmul.matmulInto(square, square.transpose(), square, true));
            assertEquals("matmul into: the output (3,3) shares memory with an operand", overlap.getMessage());
        }

        @Test
        void rejectZeroDimensionalOperands() {
            assertThrows(ShapeMismatchException.class, () -> Matmul.matmul(NDArray.scalar(1.0), NDArray.zeros(DType.FLOAT64, 2)));
        }
    }

    static List<Long> boxed(long[] values) {
        return java.util.Arrays.stream(values).boxed().toList();
    }
}
