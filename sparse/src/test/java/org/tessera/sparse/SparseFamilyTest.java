package org.tessera.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayFamilies;
import org.tessera.ndarray.ArrayNamespace;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.Reduction;
import org.tessera.ndarray.api.Like;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Reductions.Options;

class SparseFamilyTest {
    private static final SparseNamespace SPARSE = SparseNamespace.INSTANCE;

    /** A 3 x 4 matrix with 4 non-zero elements, one negative. */
    private static NDArray matrix() {
        NDArray dense = NDArray.zeros(DType.FLOAT64, 3, 4);
        dense.setDouble(2, 0, 1);
        dense.setDouble(-3, 1, 3);
        dense.setDouble(5, 2, 0);
        dense.setDouble(1, 2, 1);
        return dense;
    }

    private static void assertDenseEquals(NDArray expected, NDArray actual) {
        assertArrayEquals(expected.shape(), actual.shape(), "shape");
        assertEquals(expected.dtype(), actual.dtype(), "dtype");
        NDArray flatExpected = expected.reshape(expected.size());
        NDArray flatActual = actual.reshape(actual.size());
        for (long index = 0; index < expected.size(); index++) {
            // + 0.0: implicit zeros are +0.0 where a dense negative() gives -0.0; the sign of zero is not compared (FORMAT.md).
            assertEquals(flatExpected.getDouble(index) + 0.0, flatActual.getDouble(index) + 0.0, "element " + index);
        }
    }

    static <A extends AnyArray<A>> A pad(AnyArray<A> array, double[] padding) {
        ArrayNamespace<A> xp = array.namespace();
        A edge = Like.asarray(padding, array);
        return xp.concatenate(List.of(edge, xp.cast(array), edge), 0);
    }

    @Nested
    class Conversion {
        @Test
        void denseToCooAndBackKeepsValuesAndStoresOnlyNonZeros() {
            SparseCOO coo = SparseCOO.fromDense(matrix());
            assertEquals(4, coo.nnz());
            assertArrayEquals(new long[] {1, 7, 8, 9}, coo.positions());
            assertArrayEquals(new long[][] {{0, 1, 2, 2}, {1, 3, 0, 1}}, coo.coordinates());
            assertDenseEquals(matrix(), coo.toDense());
            assertEquals(-3.0, coo.get(1, 3).getDouble());
            assertEquals(0.0, coo.get(-1, -1).getDouble());
        }

        @Test
        void csrHasScipysRowPointers() {
            SparseCSR csr = SparseCSR.fromDense(matrix());
            assertArrayEquals(new long[] {0, 1, 2, 4}, csr.rowPointers());
            assertArrayEquals(new long[] {1, 3, 0, 1}, csr.columns());
            assertDenseEquals(matrix(), csr.toDense());
            SparseCSR rebuilt = SparseCSR.of(csr.rowPointers(), csr.columns(), csr.values(), 3, 4);
            assertDenseEquals(matrix(), rebuilt.toDense());
        }

        @Test
        void duplicateCoordinatesAreAdded() {
            SparseCOO coo = SparseCOO.of(new long[][] {{1, 0, 1}, {2, 0, 2}}, NDArrays.array(1.0, 2.0, 3.0), 2, 3);
            assertEquals(2, coo.nnz());
            assertEquals(4.0, coo.get(1, 2).getDouble());
        }

        @Test
        void outOfBoundsCoordinatesAreRefusedNamingTheAxis() {
            IndexOutOfBoundsException error = assertThrows(IndexOutOfBoundsException.class,
                    () -> SparseCOO.of(new long[][] {{0}, {4}}, NDArrays.array(1.0), 2, 3));
            assertTrue(error.getMessage().contains("axis 1"), error.getMessage());
        }

        @Test
        void javaSerialisationRoundTripsBothFormats() throws Exception {
            for (SparseArray array : List.<SparseArray>of(SparseCOO.fromDense(matrix().astype(DType.INT16)), SparseCSR.fromDense(matrix()))) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                try (ObjectOutputStream output = new ObjectOutputStream(bytes)) {
                    output.writeObject(array);
                }
                try (ObjectInputStream input = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
                    SparseArray restored = (SparseArray) input.readObject();
                    assertEquals(array.getClass(), restored.getClass());
                    assertDenseEquals(array.toDense(), restored.toDense());
                }
            }
        }

        @ParameterizedTest
        @EnumSource(value = DType.class, names = {"BOOL", "INT8", "UINT16", "INT64", "FLOAT16", "FLOAT32", "COMPLEX128"})
        void everyDtypeRoundTrips(DType dtype) {
            NDArray dense = matrix().astype(dtype);
            assertDenseEquals(dense, SparseCOO.fromDense(dense).toDense());
        }
    }

    @Nested
    class Elementwise {
        @Test
        void ufuncsThatMapZeroToZeroKeepSparsity() {
            SparseArray x = SparseCOO.fromDense(matrix());
            for (String ufunc : List.of("negative", "absolute", "sin", "square")) {
                SparseArray result = SPARSE.apply(ufunc, x);
                assertEquals(4, result.nnz(), ufunc);
                assertDenseEquals(NDArrays.ufunc(ufunc).apply(matrix()), result.toDense());
            }
            SparseArray scaled = SPARSE.multiply(x, 2.5);
            assertEquals(4, scaled.nnz());
            assertDenseEquals(NDArrays.multiply(matrix(), 2.5), scaled.toDense());
        }

        @Test
        void twoSparseArraysAddOverTheUnionOfTheirEntries() {
            SparseArray x = SparseCOO.fromDense(matrix());
            SparseArray y = SparseCOO.fromDense(matrix().transpose().copy().reshape(3, 4));
            SparseArray sum = SPARSE.add(x, y);
            assertDenseEquals(NDArrays.add(matrix(), matrix().transpose().copy().reshape(3, 4)), sum.toDense());
            assertTrue(sum.nnz() <= x.nnz() + y.nnz());
        }

        @Test
        void sparseOperandsBroadcastAsNumPy() {
            SparseArray x = SparseCOO.fromDense(matrix());
            SparseArray row = SparseCOO.fromDense(NDArrays.array(1.0, 0.0, 2.0, 0.0));
            assertDenseEquals(NDArrays.multiply(matrix(), NDArrays.array(1.0, 0.0, 2.0, 0.0)), SPARSE.multiply(x, row).toDense());
        }

        @Test
        void aUfuncThatMapsZeroElsewhereIsComputedDenselyAndStaysSparse() {
            SparseArray x = SparseCOO.fromDense(matrix());
            SparseArray cosine = SPARSE.apply("cos", x);
            assertInstanceOf(SparseArray.class, cosine);
            assertEquals(12, cosine.nnz(), "cos(0) = 1 is stored");
            assertDenseEquals(NDArrays.ufunc("cos").apply(matrix()), cosine.toDense());
            assertDenseEquals(NDArrays.add(matrix(), 1), SPARSE.add(x, 1).toDense());
        }

        @Test
        void aZeroDimensionalDenseArrayIsAScalar() {
            SparseArray scaled = SPARSE.multiply(SparseCOO.fromDense(matrix()), NDArray.scalar(3.0));
            assertEquals(4, scaled.nnz());
            assertDenseEquals(NDArrays.multiply(matrix(), 3.0), scaled.toDense());
        }

        @Test
        void csrStaysCsrAndCooStaysCoo() {
            assertInstanceOf(SparseCSR.class, SPARSE.multiply(SparseCSR.fromDense(matrix()), 2));
            assertInstanceOf(SparseCOO.class, SPARSE.multiply(SparseCOO.fromDense(matrix()), 2));
        }
    }

    @Nested
    class Reductions {
        @ParameterizedTest
        @EnumSource(Reduction.class)
        void reduceOverEachAxisAndAllAxesAsNumPy(Reduction reduction) {
            SparseArray x = SparseCOO.fromDense(matrix());
            for (int[] axes : new int[][] {null, {0}, {1}, {-1}, {0, 1}}) {
                NDArray expected = switch (reduction) {
                    case SUM -> NDArrays.sum(matrix(), new Options(axes, null, false, null, null));
                    case PROD -> NDArrays.prod(matrix(), new Options(axes, null, false, null, null));
                    case MIN -> NDArrays.min(matrix(), new Options(axes, null, false, null, null));
                    case MAX -> NDArrays.max(matrix(), new Options(axes, null, false, null, null));
                };
                assertDenseEquals(expected, SPARSE.reduce(reduction, x, axes, false).toDense());
            }
        }

        @Test
        void maxOfNegativeValuesCountsTheImplicitZeros() {
            SparseArray negative = SparseCOO.fromDense(NDArrays.array(-1.0, 0.0, -2.0));
            assertEquals(0.0, SPARSE.max(negative).toDense().getDouble());
            SparseArray full = SparseCOO.fromDense(NDArrays.array(-1.0, -3.0, -2.0));
            assertEquals(-1.0, SPARSE.max(full).toDense().getDouble());
        }

        @Test
        void keepdimsKeepsTheAxesWithLengthOne() {
            SparseArray result = SPARSE.reduce(Reduction.SUM, SparseCOO.fromDense(matrix()), new int[] {1}, true);
            assertArrayEquals(new long[] {3, 1}, result.shape());
        }
    }

    @Nested
    class Products {
        @Test
        void sparseTimesSparseAndSparseTimesDenseAreMatmul() {
            NDArray right = NDArrays.arange(8).astype(DType.FLOAT64).reshape(4, 2);
            NDArray expected = NDArrays.matmul(matrix(), right);
            SparseArray product = SPARSE.matmul(SparseCSR.fromDense(matrix()), SparseCOO.fromDense(right));
            assertInstanceOf(SparseCSR.class, product);
            assertDenseEquals(expected, product.toDense());
            assertDenseEquals(expected, SPARSE.matmul(SparseCOO.fromDense(matrix()), right));
        }

        @Test
        void vectorsAreRowsOrColumnsAsInNumPy() {
            NDArray vector = NDArrays.array(1.0, 0.0, 2.0, 0.0);
            assertDenseEquals(NDArrays.matmul(matrix(), vector), SPARSE.matmul(SparseCOO.fromDense(matrix()), SparseCOO.fromDense(vector)).toDense());
        }

        @Test
        void mismatchedInnerLengthsAreRefusedNamingTheShapes() {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> SPARSE.matmul(SparseCOO.fromDense(matrix()), SparseCOO.fromDense(matrix())));
            assertTrue(error.getMessage().contains("(3,4)"), error.getMessage());
        }
    }

    @Nested
    class Shapes {
        @Test
        void concatenateReshapeTransposeAndSliceMoveEntries() {
            SparseArray x = SparseCOO.fromDense(matrix());
            assertDenseEquals(NDArrays.concatenate(List.of(matrix(), matrix()), 1), SPARSE.concatenate(List.of(x, x), 1).toDense());
            assertDenseEquals(matrix().reshape(2, 6), SPARSE.reshape(x, 2, -1).toDense());
            assertDenseEquals(matrix().transpose(), SPARSE.transpose(x).toDense());
            assertDenseEquals(matrix().slice(1, 3, -2, 2), SPARSE.slice(x, 1, 3, -2, 2).toDense());
        }

        @Test
        void eyeStoresOnlyTheDiagonal() {
            SparseArray eye = SPARSE.eye(3, 4, 1, DType.INT32);
            assertEquals(3, eye.nnz());
            assertDenseEquals(NDArrays.eye(3, 4, 1, DType.INT32), eye.toDense());
        }
    }

    @Nested
    class Family {
        @Test
        void theSparseFamilyIsFoundThroughServiceLoader() {
            assertEquals(SPARSE, ArrayFamilies.byName("sparse"));
            assertEquals(SPARSE, ArrayFamilies.forType(SparseArray.class));
            assertEquals(SPARSE, SparseCSR.fromDense(matrix()).namespace());
        }

        @Test
        void padWrittenOnceWorksForDenseAndSparse() {
            NDArray values = NDArrays.array(0.0, 3.0, 0.0);
            NDArray expected = NDArrays.array(1.0, 2.0, 0.0, 3.0, 0.0, 1.0, 2.0);
            assertDenseEquals(expected, pad(values, new double[] {1, 2}));
            SparseArray sparse = pad(SparseCOO.fromDense(values), new double[] {1, 2});
            assertInstanceOf(SparseCOO.class, sparse);
            assertDenseEquals(expected, sparse.toDense());
        }

        @Test
        void sparseMeetsDenseAsDense() {
            AnyArray<?> sum = ArrayFamilies.apply("add", SparseCOO.fromDense(matrix()), matrix());
            assertDenseEquals(NDArrays.multiply(matrix(), 2), assertInstanceOf(NDArray.class, sum));
            AnyArray<?> product = ArrayFamilies.apply("multiply", matrix(), SparseCSR.fromDense(matrix()));
            assertInstanceOf(NDArray.class, product);
        }

        @Test
        void theSparseNamespaceRefusesDenseOperandsNamingBothFamilies() {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> SPARSE.add(SparseCOO.fromDense(matrix()), matrix()));
            assertTrue(error.getMessage().contains("sparse family") && error.getMessage().contains("dense family"), error.getMessage());
        }
    }
}
