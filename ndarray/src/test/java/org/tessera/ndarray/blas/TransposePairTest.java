package org.tessera.ndarray.blas;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.dtype.DType;

/** Which operand pairs the OpenBLAS provider hands to syrk: a matrix and its own transpose only. */
class TransposePairTest {
    private static Matrix rowMajor(MemorySegment segment, long offset, long rows, long columns) {
        return new Matrix(DType.FLOAT64, segment, offset, rows, columns, columns * 8, 8);
    }

    @Test
    void aHeapOrNativeMatrixAndItsTransposeArePaired() {
        Matrix heap = rowMajor(MemorySegment.ofArray(new double[12]), 0, 4, 3);
        assertTrue(OpenBlasGemm.isTransposeOf(heap.transposed(), heap));
        Matrix offHeap = rowMajor(Arena.ofAuto().allocate(96, 8), 0, 4, 3);
        assertTrue(OpenBlasGemm.isTransposeOf(offHeap.transposed(), offHeap));
        // A view of the same array through another segment object still pairs.
        double[] values = new double[12];
        Matrix first = rowMajor(MemorySegment.ofArray(values), 0, 4, 3);
        Matrix second = rowMajor(MemorySegment.ofArray(values), 0, 4, 3);
        assertTrue(OpenBlasGemm.isTransposeOf(first.transposed(), second));
    }

    @Test
    void equalShapesOfOtherMemoryAreNotPaired() {
        Matrix one = rowMajor(MemorySegment.ofArray(new double[12]), 0, 4, 3);
        Matrix other = rowMajor(MemorySegment.ofArray(new double[12]), 0, 4, 3);
        assertFalse(OpenBlasGemm.isTransposeOf(one.transposed(), other), "two arrays with the same offsets");
        MemorySegment shared = MemorySegment.ofArray(new double[13]);
        assertFalse(OpenBlasGemm.isTransposeOf(rowMajor(shared, 0, 4, 3).transposed(), rowMajor(shared, 8, 4, 3)),
                "shifted by one element");
        Matrix square = rowMajor(MemorySegment.ofArray(new double[9]), 0, 3, 3);
        assertFalse(OpenBlasGemm.isTransposeOf(square, square), "a square matrix is not its own transpose in memory");
        MemorySegment readOnly = MemorySegment.ofArray(new double[12]).asReadOnly();
        assertFalse(OpenBlasGemm.isTransposeOf(rowMajor(readOnly, 0, 4, 3).transposed(), rowMajor(readOnly, 0, 4, 3)),
                "a read-only heap segment hides its array");
    }
}
