package org.tessera.ndarray.blas;

import java.lang.foreign.MemorySegment;

import org.tessera.ndarray.dtype.DType;

/**
 * A 2-D strided view of elements in a segment: element (row, column) of {@code dtype} lives at
 * {@code byteOffset + row * rowByteStride + column * columnByteStride}. Strides may be any value,
 * zero and negative included.
 */
public record Matrix(DType dtype, MemorySegment segment, long byteOffset, long rowCount, long columnCount,
                     long rowByteStride, long columnByteStride) {
    public Matrix {
        if (rowCount < 0 || columnCount < 0) {
            throw new IllegalArgumentException("a matrix cannot have " + rowCount + " rows and " + columnCount + " columns");
        }
    }

    /** Byte offset of element (row, column). */
    public long byteOffsetOf(long row, long column) {
        return byteOffset + row * rowByteStride + column * columnByteStride;
    }

    /** The same elements with rows and columns swapped. */
    public Matrix transposed() {
        return new Matrix(dtype, segment, byteOffset, columnCount, rowCount, columnByteStride, rowByteStride);
    }

    /** The real (part = 0) or imaginary (part = 1) parts of a complex matrix, as a real matrix. */
    Matrix part(int part) {
        DType partType = dtype.realType();
        return new Matrix(partType, segment, byteOffset + (long) part * partType.byteSize(), rowCount, columnCount,
                rowByteStride, columnByteStride);
    }

    /** Rows [firstRow, firstRow + count) as a matrix. */
    Matrix rows(long firstRow, long count) {
        return new Matrix(dtype, segment, byteOffsetOf(firstRow, 0), count, columnCount, rowByteStride, columnByteStride);
    }

    String describe() {
        return dtype + " (" + rowCount + "," + columnCount + ")";
    }
}
