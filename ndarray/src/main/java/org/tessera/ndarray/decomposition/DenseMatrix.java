package org.tessera.ndarray.decomposition;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;

/**
 * A row-major float64 matrix the decompositions work on in place. A plain array rather than
 * NDArray views, because the algorithms touch single elements in tight loops where a bounds- and
 * stride-checked accessor per element would cost more than the arithmetic.
 */
final class DenseMatrix {
    final int rows;
    final int columns;
    final double[] values;

    DenseMatrix(int rows, int columns) {
        this(rows, columns, new double[Math.multiplyExact(rows, columns)]);
    }

    DenseMatrix(int rows, int columns, double[] values) {
        this.rows = rows;
        this.columns = columns;
        this.values = values;
    }

    /** A float64 copy of a 2-D real array, refused with the operation's name otherwise. */
    static DenseMatrix of(NDArray array, String operation) {
        if (array.ndim() != 2) {
            throw new IllegalArgumentException(operation + ": expected a 2-D array but got shape " + Shapes.format(array.shape()));
        }
        requireReal(array, operation);
        if (array.shape(0) * array.shape(1) > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(operation + ": a matrix of shape " + Shapes.format(array.shape()) + " is too large for an in-memory decomposition");
        }
        int rows = (int) array.shape(0);
        int columns = (int) array.shape(1);
        NDArray contiguous = array.dtype() == DType.FLOAT64 && array.isCContiguous() ? array : array.astype(DType.FLOAT64).ascontiguousarray();
        double[] values = new double[rows * columns];
        MemorySegment.copy(contiguous.segment(), ValueLayout.JAVA_DOUBLE_UNALIGNED, contiguous.byteOffset(), values, 0, values.length);
        return new DenseMatrix(rows, columns, values);
    }

    /** A 1-D array as a one-column matrix, a 2-D array as itself. */
    static DenseMatrix ofVectorOrMatrix(NDArray array, String operation) {
        if (array.ndim() == 1) {
            return of(array.reshape(array.shape(0), 1), operation);
        }
        return of(array, operation);
    }

    static void requireReal(NDArray array, String operation) {
        if (array.dtype().isComplex()) {
            throw new IllegalArgumentException(operation + ": complex arrays are not supported (got " + array.dtype().numpyName()
                    + " of shape " + Shapes.format(array.shape()) + ")");
        }
    }

    /** float32 for float32 (and float16) operands, as NumPy's linalg keeps single precision; float64 otherwise. */
    static DType resultType(NDArray operand) {
        return operand.dtype() == DType.FLOAT32 || operand.dtype() == DType.FLOAT16 ? DType.FLOAT32 : DType.FLOAT64;
    }

    static DenseMatrix identity(int size) {
        DenseMatrix identity = new DenseMatrix(size, size);
        for (int i = 0; i < size; i++) {
            identity.values[i * size + i] = 1;
        }
        return identity;
    }

    double get(int row, int column) {
        return values[row * columns + column];
    }

    void set(int row, int column, double value) {
        values[row * columns + column] = value;
    }

    DenseMatrix copy() {
        return new DenseMatrix(rows, columns, values.clone());
    }

    DenseMatrix transpose() {
        DenseMatrix transposed = new DenseMatrix(columns, rows);
        for (int row = 0; row < rows; row++) {
            for (int column = 0; column < columns; column++) {
                transposed.values[column * rows + row] = values[row * columns + column];
            }
        }
        return transposed;
    }

    /** {@code this @ other}, in i-k-j order so the inner loop runs along rows of both. */
    DenseMatrix times(DenseMatrix other) {
        if (columns != other.rows) {
            throw new IllegalStateException("inner lengths differ: " + rows + "x" + columns + " @ " + other.rows + "x" + other.columns);
        }
        DenseMatrix product = new DenseMatrix(rows, other.columns);
        for (int row = 0; row < rows; row++) {
            int productRow = row * other.columns;
            for (int inner = 0; inner < columns; inner++) {
                double factor = values[row * columns + inner];
                if (factor == 0) {
                    continue;
                }
                int otherRow = inner * other.columns;
                for (int column = 0; column < other.columns; column++) {
                    product.values[productRow + column] += factor * other.values[otherRow + column];
                }
            }
        }
        return product;
    }

    /** Rows {@code [start, end)} and columns {@code [0, width)}. */
    DenseMatrix block(int start, int end, int width) {
        DenseMatrix block = new DenseMatrix(end - start, width);
        for (int row = start; row < end; row++) {
            System.arraycopy(values, row * columns, block.values, (row - start) * width, width);
        }
        return block;
    }

    NDArray toNDArray(DType dtype) {
        NDArray result = NDArray.zeros(DType.FLOAT64, rows, columns);
        MemorySegment.copy(values, 0, result.segment(), ValueLayout.JAVA_DOUBLE_UNALIGNED, result.byteOffset(), values.length);
        return dtype == DType.FLOAT64 ? result : result.astype(dtype);
    }

    /** As {@link #toNDArray}, 1-D when {@code asVector} (the operand it answers was 1-D). */
    NDArray toNDArray(DType dtype, boolean asVector) {
        NDArray matrix = toNDArray(dtype);
        return asVector ? matrix.reshape(rows) : matrix;
    }

    static NDArray vector(double[] values, DType dtype) {
        NDArray result = NDArray.zeros(DType.FLOAT64, values.length);
        MemorySegment.copy(values, 0, result.segment(), ValueLayout.JAVA_DOUBLE_UNALIGNED, result.byteOffset(), values.length);
        return dtype == DType.FLOAT64 ? result : result.astype(dtype);
    }

    String shapeText() {
        return Shapes.format(new long[] {rows, columns});
    }

    @Override
    public String toString() {
        return "DenseMatrix" + shapeText() + Arrays.toString(values);
    }
}
