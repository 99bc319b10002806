package org.tessera.sparse;

import java.io.Serial;
import java.io.Serializable;
import java.util.Arrays;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.layout.Shapes;

/**
 * A sparse array of any number of axes in coordinate format: the stored entries' flat C-order
 * positions, sorted and unique, and their values as a 1-D array of the dtype. Positions rather
 * than one coordinate row per axis keep the canonical order a plain sort; {@link #coordinates()}
 * gives the per-axis form. Immutable: the arrays handed in are copied and the values are kept
 * read-only.
 */
public final class SparseCOO implements SparseArray, Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final long[] shape;
    private final long[] positions;
    private final NDArray values;

    /** From canonical parts: positions sorted, unique and inside {@code shape}; values 1-D of the same length. */
    SparseCOO(long[] shape, long[] positions, NDArray values) {
        if (values.ndim() != 1 || values.shape(0) != positions.length) {
            throw new IllegalArgumentException("a COO array needs one value per position: " + positions.length + " positions but values of shape "
                    + Shapes.format(values.shape()));
        }
        this.shape = shape.clone();
        this.positions = positions;
        this.values = values.readOnly();
    }

    /**
     * The array of {@code shape} with {@code values[k]} at coordinates {@code (coordinates[0][k],
     * coordinates[1][k], ...)}; values at the same coordinates are added, as SciPy does.
     */
    public static SparseCOO of(long[][] coordinates, NDArray values, long... shape) {
        if (coordinates.length != shape.length) {
            throw new IllegalArgumentException("coordinates have " + coordinates.length + " rows for a shape " + Shapes.format(shape)
                    + " of " + shape.length + " axes");
        }
        long count = values.size();
        long[] positions = new long[(int) count];
        for (int axis = 0; axis < shape.length; axis++) {
            if (coordinates[axis].length != count) {
                throw new IllegalArgumentException("coordinate row " + axis + " has " + coordinates[axis].length + " entries but there are "
                        + count + " values");
            }
            for (long coordinate : coordinates[axis]) {
                if (coordinate < 0 || coordinate >= shape[axis]) {
                    throw new IndexOutOfBoundsException("coordinate " + coordinate + " is out of bounds for axis " + axis + " with size " + shape[axis]);
                }
            }
        }
        for (int entry = 0; entry < count; entry++) {
            positions[entry] = Entries.ravel(coordinates, entry, shape);
        }
        return fromEntries(shape, positions, values.reshape(count), values.dtype());
    }

    /** Entries in any order, duplicates added, as a canonical array of {@code dtype}. */
    static SparseCOO fromEntries(long[] shape, long[] positions, NDArray values, DType dtype) {
        if (Entries.isSorted(positions) && isStrictlyIncreasing(positions)) {
            return new SparseCOO(shape, positions, values.dtype() == dtype ? values : values.astype(dtype));
        }
        Entries.Groups groups = Entries.reduceByKey(NDArrays.ufunc("add"), positions, values, dtype);
        return new SparseCOO(shape, groups.keys(), groups.values());
    }

    private static boolean isStrictlyIncreasing(long[] positions) {
        for (int index = 1; index < positions.length; index++) {
            if (positions[index - 1] == positions[index]) {
                return false;
            }
        }
        return true;
    }

    /** An all-zero array (no stored entries). */
    public static SparseCOO zeros(DType dtype, long... shape) {
        for (long length : shape) {
            if (length < 0) {
                throw new IllegalArgumentException("negative dimensions are not allowed: shape " + Shapes.format(shape));
            }
        }
        return new SparseCOO(shape, new long[0], NDArray.zeros(dtype, 0));
    }

    /** The non-zero elements of {@code dense} (NaN counts as non-zero). */
    public static SparseCOO fromDense(NDArray dense) {
        NDArray flat = dense.reshape(dense.size());
        long[] positions = Entries.longs(NDArrays.flatnonzero(flat));
        return new SparseCOO(dense.shape(), positions, Entries.take(flat, positions));
    }

    @Override
    public NDArray toDense() {
        NDArray flat = Entries.scatter(values, positions, Math.toIntExact(size()));
        return flat.reshape(shape);
    }

    @Override
    public SparseCOO toCOO() {
        return this;
    }

    /** This 2-D array in CSR format. */
    public SparseCSR toCSR() {
        return SparseCSR.fromCOO(this);
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public DType dtype() {
        return values.dtype();
    }

    @Override
    public int ndim() {
        return shape.length;
    }

    @Override
    public long nnz() {
        return positions.length;
    }

    /** The stored bytes: one 8-byte position and one value per entry. */
    @Override
    public long byteSize() {
        return positions.length * (Long.BYTES + (long) dtype().byteSize());
    }

    /** The stored entries' flat C-order positions, increasing. */
    public long[] positions() {
        return positions.clone();
    }

    long[] positionsView() {
        return positions;
    }

    /** The stored entries' coordinates, one row per axis. */
    public long[][] coordinates() {
        return Entries.unravel(positions, shape);
    }

    /** The stored values (read-only, 1-D, in the order of {@link #positions()}). */
    public NDArray values() {
        return values;
    }

    /** The element at {@code index} (zero when it is not stored), as a 0-d dense array. */
    public NDArray get(long... index) {
        if (index.length != shape.length) {
            throw new IndexOutOfBoundsException("element access needs " + shape.length + " indices for shape " + Shapes.format(shape) + ", got " + index.length);
        }
        long[][] single = new long[shape.length][1];
        for (int axis = 0; axis < shape.length; axis++) {
            long length = shape[axis];
            if (index[axis] < -length || index[axis] >= length) {
                throw new IndexOutOfBoundsException("index " + index[axis] + " is out of bounds for axis " + axis + " with size " + length);
            }
            single[axis][0] = index[axis] < 0 ? index[axis] + length : index[axis];
        }
        int slot = Arrays.binarySearch(positions, Entries.ravel(single, 0, shape));
        return slot >= 0 ? NDArrays.get(values, Index.at(slot)).copy() : NDArray.zeros(dtype());
    }

    /** Serialised through {@link SerialForm}: NDArray values hold a memory segment, which Java serialisation cannot write. */
    @Serial
    private Object writeReplace() {
        return SerialForm.of(this);
    }

    @Override
    public String toString() {
        return "SparseCOO<shape=" + Shapes.format(shape) + ", dtype=" + dtype().numpyName() + ", nnz=" + positions.length + ">";
    }
}
