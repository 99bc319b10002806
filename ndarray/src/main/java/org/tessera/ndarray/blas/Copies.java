package org.tessera.ndarray.blas;

import java.lang.foreign.MemorySegment;

/** Element copies between two matrices of one dtype and shape, a row at a time where rows are dense. */
final class Copies {
    private Copies() {}

    static void copy(Matrix from, Matrix to) {
        long itemSize = from.dtype().byteSize();
        boolean denseRows = from.columnByteStride() == itemSize && to.columnByteStride() == itemSize;
        for (long row = 0; row < from.rowCount(); row++) {
            if (denseRows) {
                MemorySegment.copy(from.segment(), from.byteOffsetOf(row, 0), to.segment(), to.byteOffsetOf(row, 0),
                        itemSize * from.columnCount());
                continue;
            }
            for (long column = 0; column < from.columnCount(); column++) {
                MemorySegment.copy(from.segment(), from.byteOffsetOf(row, column), to.segment(),
                        to.byteOffsetOf(row, column), itemSize);
            }
        }
    }
}
