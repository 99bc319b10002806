package org.tessera.sparse;

import java.util.ArrayList;
import java.util.List;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.dtype.Promotion;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.layout.Shapes;
import org.tessera.ndarray.ufunc.Reductions.Options;
import org.tessera.ndarray.ufunc.Statistics;
import org.tessera.ndarray.ufunc.Ufunc;

/**
 * Matrix products with a sparse left operand, for 1-D and 2-D operands as NumPy's matmul (a 1-D
 * left operand is a row, a 1-D right operand a column, and the added axis goes again).
 * Sparse x sparse (Gustavson's row-by-row product, as SciPy): every product of a stored
 * {@code A[i, j]} with a stored {@code B[j, m]} is one term, the terms are computed as one vector
 * multiply and summed per output position, so the arithmetic is the dense ufuncs' in the result
 * dtype. Sparse x dense: each stored row of A gathers the rows of B it needs.
 */
final class SparseProducts {
    private SparseProducts() {
    }

    static SparseCOO matmul(SparseArray first, SparseArray second) {
        Operands operands = Operands.of(first.shape(), second.shape());
        SparseCSR left = operands.firstIsVector() ? SparseShapes.reshape(first.toCOO(), new long[] {1, first.shape()[0]}).toCSR() : csr(first);
        SparseCSR right = operands.secondIsVector() ? SparseShapes.reshape(second.toCOO(), new long[] {second.shape()[0], 1}).toCSR() : csr(second);
        DType dtype = Promotion.resultType(first.dtype(), second.dtype());
        long columns = right.shape()[1];
        long[] leftPointers = left.rowPointersView();
        long[] leftColumns = left.columnsView();
        long[] rightPointers = right.rowPointersView();
        long[] rightColumns = right.columnsView();
        // Two passes over the same loops: count the terms, then fill primitive arrays (no object per term).
        long termCount = 0;
        for (int row = 0; row < leftPointers.length - 1; row++) {
            for (long entry = leftPointers[row]; entry < leftPointers[row + 1]; entry++) {
                int inner = (int) leftColumns[(int) entry];
                termCount += rightPointers[inner + 1] - rightPointers[inner];
            }
        }
        long[] leftEntries = new long[Math.toIntExact(termCount)];
        long[] rightEntries = new long[leftEntries.length];
        long[] keys = new long[leftEntries.length];
        int term = 0;
        for (int row = 0; row < leftPointers.length - 1; row++) {
            for (long entry = leftPointers[row]; entry < leftPointers[row + 1]; entry++) {
                int inner = (int) leftColumns[(int) entry];
                for (long other = rightPointers[inner]; other < rightPointers[inner + 1]; other++) {
                    leftEntries[term] = entry;
                    rightEntries[term] = other;
                    keys[term++] = row * columns + rightColumns[(int) other];
                }
            }
        }
        NDArray products = NDArrays.ufunc("multiply").apply(Entries.take(left.values().astype(dtype), leftEntries),
                Entries.take(right.values().astype(dtype), rightEntries));
        Entries.Groups sums = Entries.reduceByKey(NDArrays.ufunc("add"), keys, products, dtype);
        SparseCOO product = new SparseCOO(new long[] {left.shape()[0], columns}, sums.keys(), sums.values());
        return SparseShapes.reshape(product, operands.resultShape());
    }

    static NDArray matmul(SparseArray first, NDArray second) {
        Operands operands = Operands.of(first.shape(), second.shape());
        SparseCSR left = operands.firstIsVector() ? SparseShapes.reshape(first.toCOO(), new long[] {1, first.shape()[0]}).toCSR() : csr(first);
        NDArray right = operands.secondIsVector() ? second.reshape(second.shape(0), 1) : second;
        DType dtype = Promotion.resultType(first.dtype(), second.dtype());
        long columns = right.shape(1);
        NDArray result = NDArray.zeros(dtype, left.shape()[0], columns);
        long[] pointers = left.rowPointersView();
        long[] columnIndices = left.columnsView();
        NDArray values = left.values().astype(dtype);
        Ufunc multiply = NDArrays.ufunc("multiply");
        for (int row = 0; row < pointers.length - 1; row++) {
            int from = (int) pointers[row];
            int to = (int) pointers[row + 1];
            if (from == to) {
                continue;
            }
            long[] needed = java.util.Arrays.copyOfRange(columnIndices, from, to);
            NDArray rows = NDArrays.get(right, Index.of(NDArrays.array(needed)));
            NDArray weights = values.slice(0, from, 1, to - from).reshape(to - from, 1);
            NDArray rowSum = Statistics.sum(multiply.apply(weights, rows), Options.axes(0).withDtype(dtype));
            result.take(0, row).assign(rowSum);
        }
        return result.reshape(operands.resultShape());
    }

    private static SparseCSR csr(SparseArray array) {
        return array instanceof SparseCSR csr ? csr : array.toCOO().toCSR();
    }

    /** The operands' roles and the result shape, checked as NumPy's matmul checks them. */
    private record Operands(boolean firstIsVector, boolean secondIsVector, long[] resultShape) {
        static Operands of(long[] first, long[] second) {
            if (first.length == 0 || second.length == 0) {
                throw new IllegalArgumentException("matmul: Input operand " + (first.length == 0 ? 0 : 1) + " does not have enough dimensions");
            }
            if (first.length > 2 || second.length > 2) {
                throw new UnsupportedOperationException("sparse matmul takes 1-D and 2-D operands, got shapes " + Shapes.format(first) + " and "
                        + Shapes.format(second));
            }
            long inner = first[first.length - 1];
            long otherInner = second.length == 1 ? second[0] : second[0];
            if (inner != otherInner) {
                throw new ShapeMismatchException("matmul: Input operand 1 has a mismatch in its core dimension 0 (size " + otherInner
                        + " is different from " + inner + "), shapes " + Shapes.format(first) + " and " + Shapes.format(second));
            }
            List<Long> shape = new ArrayList<>();
            if (first.length == 2) {
                shape.add(first[0]);
            }
            if (second.length == 2) {
                shape.add(second[1]);
            }
            return new Operands(first.length == 1, second.length == 1, shape.stream().mapToLong(Long::longValue).toArray());
        }
    }
}
