package org.tessera.ndarray.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayFamilies;
import org.tessera.ndarray.ArrayNamespace;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.Reduction;
import org.tessera.ndarray.dtype.DType;

class DenseNamespaceTest {
    private final ArrayNamespace<NDArray> dense = NDArray.zeros(DType.FLOAT64, 1).namespace();

    @Test
    void everyNDArrayAnswersTheRegisteredDenseFamily() {
        assertEquals(new DenseNamespace(), dense);
        assertSame(ArrayFamilies.dense(), dense);
        assertEquals("dense", dense.family());
        assertEquals(dense, ArrayFamilies.byName("dense"));
    }

    @Test
    void asarrayReadsNestedListsAndJavaArraysAsNumPyReadsSequences() {
        NDArray fromLists = dense.asarray(List.of(List.of(1, 2, 3), List.of(4, 5, 6)));
        assertArrayEquals(new long[] {2, 3}, fromLists.shape());
        assertEquals(DType.INT64, fromLists.dtype());
        assertEquals(6L, fromLists.getLong(1, 2));
        assertEquals(DType.FLOAT64, dense.asarray(List.of(1, 2.5)).dtype(), "a float among integers gives float64");
        assertEquals(DType.BOOL, dense.asarray(List.of(true, false)).dtype());
        NDArray fromArrays = dense.asarray(new int[][] {{1, 2}, {3, 4}});
        assertEquals(DType.INT32, fromArrays.dtype());
        assertArrayEquals(new long[] {2, 2}, fromArrays.shape());
        assertEquals(DType.FLOAT32, dense.asarray(new double[] {1, 2}, DType.FLOAT32).dtype());
        assertEquals(0, dense.asarray(3.5).ndim(), "a scalar is 0-d");
    }

    @Test
    void raggedValuesAreRefusedNamingTheShape() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> dense.asarray(List.of(List.of(1, 2), List.of(3))));
        assertTrue(error.getMessage().contains("ragged") && error.getMessage().contains("(2,2)"), error.getMessage());
    }

    @Test
    void likeOverloadsCreateInTheFamilyOfLike() {
        NDArray like = NDArray.zeros(DType.INT8, 3);
        NDArray zeros = Like.zeros(DType.INT16, new long[] {2, 2}, like);
        assertEquals(DType.INT16, zeros.dtype());
        assertEquals(NDArrays.eye(3, 3, 0, DType.FLOAT32).getDouble(1, 1), Like.identity(3, DType.FLOAT32, like).getDouble(1, 1));
        assertArrayEquals(new long[] {5}, Like.arange(5, like).shape());
        assertEquals(1.0, Like.linspace(0, 1, 5, like).getDouble(4));
        assertEquals(7.0, Like.full(DType.FLOAT64, 7, new long[] {2}, like).getDouble(1));
    }

    @Test
    void genericOperationsFollowNumPy() {
        NDArray x = NDArrays.array(new double[][] {{1, -2}, {3, 4}});
        assertEquals(6.0, dense.sum(x).getDouble());
        assertArrayEquals(new long[] {2}, dense.reduce(Reduction.MAX, x, new int[] {0}, false).shape());
        assertEquals(-4.0, dense.apply("negative", x).getDouble(1, 1));
        assertEquals(2.0, dense.multiply(x, 2).getDouble(0, 0));
        assertArrayEquals(new long[] {4, 2}, dense.concatenate(List.of(x, x), 0).shape());
        assertEquals(-5.0, dense.matmul(x, x).getDouble(0, 0));
        assertEquals(-2.0, dense.transpose(x).getDouble(1, 0));
        assertArrayEquals(new long[] {4}, dense.reshape(x, -1).shape());
        assertEquals(3.0, dense.slice(x, 0, 1, 1, 1).getDouble(0, 0));
    }

    @Test
    void operandsOfNoFamilyJoinAnyFamily() {
        AnyArray<?> sum = ArrayFamilies.apply("add", NDArrays.array(1.0, 2.0), 1);
        assertEquals(dense, sum.namespace());
        assertSame(dense, ArrayFamilies.common(1.0, new double[] {1}));
    }
}
