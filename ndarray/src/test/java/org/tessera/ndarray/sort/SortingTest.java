package org.tessera.ndarray.sort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.AxisException;

class SortingTest {
    @Test
    void nanSortsLastAndSignedZerosKeepTheirInputOrder() {
        NDArray x = NDArrays.array(Double.NaN, 0.0, 1.0, -0.0, Double.NEGATIVE_INFINITY);
        assertEquals("array([-inf,   0.,  -0.,   1.,  nan])", NDArrays.sort(x).toString());
        assertEquals("array([4, 1, 3, 2, 0])", NDArrays.argsort(x).toString());
    }

    @Test
    void uint64ComparesUnsigned() {
        NDArray x = NDArray.zeros(DType.UINT64, 3);
        x.setLong(-1L, 0); // 2^64 - 1
        x.setLong(5L, 1);
        x.setLong(Long.MIN_VALUE, 2); // 2^63
        assertEquals("array([                   5,  9223372036854775808, 18446744073709551615], dtype=uint64)",
                NDArrays.sort(x).toString());
    }

    @Test
    void sortsAlongTheRequestedAxisOrFlattened() {
        NDArray x = NDArrays.array(new double[] {3, 1, 2}, new double[] {0, 5, -1});
        assertEquals("array([[ 0.,  1., -1.],\n       [ 3.,  5.,  2.]])", NDArrays.sort(x, 0, SortKind.STABLE).toString());
        assertEquals("array([-1.,  0.,  1.,  2.,  3.,  5.])", NDArrays.sort(x, null, SortKind.STABLE).toString());
    }

    @Test
    void searchsortedFindsBothEndsOfARun() {
        NDArray sorted = NDArrays.array(1L, 2L, 2L, 2L, 5L);
        NDArray values = NDArrays.array(2L, 6L, 0L);
        assertEquals("array([1, 5, 0])", NDArrays.searchsorted(sorted, values).toString());
        assertEquals("array([4, 5, 0])", NDArrays.searchsorted(sorted, values, Searching.Side.RIGHT, null).toString());
    }

    @Test
    void uniqueCollapsesNansOnlyWhenAsked() {
        NDArray x = NDArrays.array(Double.NaN, 1.0, Double.NaN, 1.0);
        assertEquals("array([ 1., nan])", NDArrays.unique(x).toString());
        Unique distinctNans = NDArrays.unique(x, false);
        assertEquals("array([ 1., nan, nan])", distinctNans.values().toString());
        assertEquals("array([2, 1, 1])", distinctNans.counts().toString());
        assertEquals("array([1, 0, 2, 0])", distinctNans.inverse().toString());
    }

    @Test
    void nonzeroGivesOneIndexArrayPerAxis() {
        NDArray x = NDArrays.array(new double[] {0, 2}, new double[] {Double.NaN, 0});
        var indices = NDArrays.nonzero(x);
        assertEquals("array([0, 1])", indices.get(0).toString());
        assertEquals("array([1, 0])", indices.get(1).toString());
        assertEquals("array([1, 2])", NDArrays.flatnonzero(x).toString());
    }

    @Test
    void emptyArraysGiveEmptyResults() {
        NDArray empty = NDArray.zeros(DType.FLOAT32, 2, 0);
        assertEquals("array([], shape=(2, 0), dtype=float32)", NDArrays.sort(empty).toString());
        assertEquals("array([], shape=(2, 0), dtype=int64)", NDArrays.argsort(empty).toString());
        assertEquals("array([], dtype=float32)", NDArrays.unique(empty).toString());
        assertEquals("array([], dtype=int64)", NDArrays.searchsorted(NDArrays.array(1.0, 2.0), empty.ravel()).toString());
        assertEquals("array([], dtype=int64)", NDArrays.flatnonzero(empty).toString());
        assertEquals("array([], shape=(2, 0), dtype=float32)", NDArrays.sort(empty, 0, SortKind.STABLE).toString());
    }

    @Test
    void errorsNameTheOffendingValues() {
        NDArray x = NDArrays.array(1.0, 2.0, 3.0);
        assertEquals("kth(=3) out of bounds (3)",
                assertThrows(IllegalArgumentException.class, () -> NDArrays.partition(x, new int[] {3}, -1)).getMessage());
        assertThrows(AxisException.class, () -> NDArrays.sort(NDArray.scalar(1.0)));
        assertThrows(IllegalArgumentException.class, () -> NDArrays.nonzero(NDArray.scalar(1.0)));
    }
}
