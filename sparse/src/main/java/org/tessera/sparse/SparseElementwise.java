package org.tessera.sparse;

import java.util.ArrayList;
import java.util.List;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.layout.Shapes;
import org.tessera.ndarray.ufunc.Reductions.Options;
import org.tessera.ndarray.ufunc.Statistics;
import org.tessera.ndarray.ufunc.Ufunc;

/**
 * Ufuncs over sparse arrays (pydata-sparse's rule, with zero as the only fill value): the ufunc is
 * first run on zeros of the operands' dtypes. When that gives zero ({@code multiply},
 * {@code negative}, {@code sqrt}, {@code sin}, {@code add} of two sparse arrays, ...), the
 * result is sparse over the union of the operands' stored positions, computed on those values
 * only. Otherwise ({@code cos}, {@code add} of a non-zero scalar, comparisons such as
 * {@code equal}) every element of the result may be non-zero, and it is computed densely and
 * stored back as a sparse array of its non-zero elements; the result is always sparse, so the
 * family never changes behind the caller's back.
 *
 * <p>The one fill value is +0.0: where a ufunc maps zero to -0.0 ({@code negative}), the implicit
 * elements of the result read +0.0 (the sign of zero is not kept; NumPy comparisons ignore it).
 */
final class SparseElementwise {
    private SparseElementwise() {
    }

    /** Operands: sparse arrays and Java scalars (weak, NEP 50). */
    static SparseCOO apply(Ufunc ufunc, Object[] operands) {
        if (ufunc.nout() != 1) {
            throw new UnsupportedOperationException(ufunc.name() + " has " + ufunc.nout() + " outputs; the sparse family applies single-output ufuncs");
        }
        List<SparseCOO> sparse = new ArrayList<>();
        Object[] zeros = new Object[operands.length];
        for (int position = 0; position < operands.length; position++) {
            if (operands[position] instanceof SparseArray array) {
                sparse.add(array.toCOO());
                zeros[position] = NDArray.zeros(array.dtype());
            } else {
                zeros[position] = operands[position];
            }
        }
        if (sparse.isEmpty()) {
            throw new IllegalArgumentException(ufunc.name() + ": no sparse operand among the operands");
        }
        NDArray atZero = ufunc.apply(zeros);
        boolean keepsZero = Statistics.countNonzero(atZero, Options.all()).getLong() == 0;
        if (!keepsZero) {
            Object[] dense = new Object[operands.length];
            for (int position = 0; position < operands.length; position++) {
                dense[position] = operands[position] instanceof SparseArray array ? array.toDense() : operands[position];
            }
            return SparseCOO.fromDense(ufunc.apply(dense));
        }
        long[] shape = Shapes.broadcast(sparse.stream().map(SparseCOO::shape).toArray(long[][]::new));
        List<SparseCOO> aligned = sparse.stream().map(array -> SparseShapes.broadcastTo(array, shape)).toList();
        long[] union = union(aligned);
        Object[] valueOperands = new Object[operands.length];
        int next = 0;
        for (int position = 0; position < operands.length; position++) {
            if (operands[position] instanceof SparseArray) {
                SparseCOO array = aligned.get(next++);
                valueOperands[position] = Entries.scatter(array.values(), slotsIn(union, array.positionsView()), union.length);
            } else {
                valueOperands[position] = operands[position];
            }
        }
        NDArray values = ufunc.apply(valueOperands);
        return new SparseCOO(shape, union, values.dtype() == atZero.dtype() ? values : values.astype(atZero.dtype()));
    }

    /** The sorted union of the arrays' positions. */
    private static long[] union(List<SparseCOO> arrays) {
        long[] merged = arrays.getFirst().positionsView();
        for (int index = 1; index < arrays.size(); index++) {
            long[] other = arrays.get(index).positionsView();
            long[] result = new long[merged.length + other.length];
            int first = 0;
            int second = 0;
            int count = 0;
            while (first < merged.length || second < other.length) {
                long next = second >= other.length || (first < merged.length && merged[first] <= other[second]) ? merged[first] : other[second];
                if (first < merged.length && merged[first] == next) {
                    first++;
                }
                if (second < other.length && other[second] == next) {
                    second++;
                }
                result[count++] = next;
            }
            merged = java.util.Arrays.copyOf(result, count);
        }
        return merged;
    }

    /** Where each of {@code positions} (a sorted subset of {@code union}) sits in {@code union}. */
    private static long[] slotsIn(long[] union, long[] positions) {
        long[] slots = new long[positions.length];
        int cursor = 0;
        for (int index = 0; index < positions.length; index++) {
            while (union[cursor] != positions[index]) {
                cursor++;
            }
            slots[index] = cursor;
        }
        return slots;
    }
}
