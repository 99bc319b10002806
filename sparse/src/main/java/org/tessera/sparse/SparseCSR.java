package org.tessera.sparse;

import java.io.Serial;
import java.io.Serializable;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;

/**
 * A 2-D sparse array in compressed sparse row format (SciPy's csr_array): row {@code i} stores
 * columns {@code columns[rowPointers[i] .. rowPointers[i + 1])}, increasing, with their values.
 * It shares its canonical order with {@link SparseCOO} (C order), so conversions between the two
 * only split or join positions. Operations other than products run on the COO form and come back
 * as CSR when their result is 2-D.
 */
public final class SparseCSR implements SparseArray, Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final SparseCOO entries;
    private final long[] rowPointers;
    private final long[] columns;

    private SparseCSR(SparseCOO entries) {
        if (entries.ndim() != 2) {
            throw new IllegalArgumentException("a CSR array is 2-D, got shape " + Shapes.format(entries.shape()));
        }
        this.entries = entries;
        long rows = entries.shape()[0];
        long columnCount = entries.shape()[1];
        long[] positions = entries.positionsView();
        this.rowPointers = new long[Math.toIntExact(rows + 1)];
        this.columns = new long[positions.length];
        for (int entry = 0; entry < positions.length; entry++) {
            rowPointers[(int) (positions[entry] / columnCount) + 1]++;
            columns[entry] = positions[entry] % columnCount;
        }
        for (int row = 0; row < rows; row++) {
            rowPointers[row + 1] += rowPointers[row];
        }
    }

    static SparseCSR fromCOO(SparseCOO coo) {
        return new SparseCSR(coo);
    }

    /** The non-zero elements of a 2-D dense array. */
    public static SparseCSR fromDense(NDArray dense) {
        return new SparseCSR(SparseCOO.fromDense(dense));
    }

    /**
     * From SciPy's three arrays: row pointers (rows + 1, non-decreasing), column indices
     * (increasing within a row) and values.
     */
    public static SparseCSR of(long[] rowPointers, long[] columns, NDArray values, long rows, long columnCount) {
        if (rowPointers.length != rows + 1 || rowPointers[0] != 0 || rowPointers[(int) rows] != columns.length) {
            throw new IllegalArgumentException("row pointers of length " + rowPointers.length + " do not describe " + rows + " rows over "
                    + columns.length + " column indices");
        }
        long[][] coordinates = new long[2][columns.length];
        for (int row = 0; row < rows; row++) {
            for (long entry = rowPointers[row]; entry < rowPointers[row + 1]; entry++) {
                coordinates[0][(int) entry] = row;
                coordinates[1][(int) entry] = columns[(int) entry];
            }
        }
        return new SparseCSR(SparseCOO.of(coordinates, values, rows, columnCount));
    }

    public long[] rowPointers() {
        return rowPointers.clone();
    }

    public long[] columns() {
        return columns.clone();
    }

    /** The stored values in row order (read-only). */
    public NDArray values() {
        return entries.values();
    }

    long[] rowPointersView() {
        return rowPointers;
    }

    long[] columnsView() {
        return columns;
    }

    @Override
    public long nnz() {
        return entries.nnz();
    }

    /** The stored bytes: the COO entries plus the row pointers. */
    @Override
    public long byteSize() {
        return entries.byteSize() + (long) rowPointers.length * Long.BYTES;
    }

    @Override
    public SparseCOO toCOO() {
        return entries;
    }

    @Override
    public long[] shape() {
        return entries.shape();
    }

    @Override
    public DType dtype() {
        return entries.dtype();
    }

    @Override
    public int ndim() {
        return 2;
    }

    /** Serialised through {@link SerialForm}: NDArray values hold a memory segment, which Java serialisation cannot write. */
    @Serial
    private Object writeReplace() {
        return SerialForm.of(this);
    }

    @Override
    public String toString() {
        return "SparseCSR<shape=" + Shapes.format(entries.shape()) + ", dtype=" + dtype().numpyName() + ", nnz=" + nnz() + ">";
    }
}
