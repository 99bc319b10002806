package org.tessera.ndarray;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.Complex;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.AxisException;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.layout.Order;

class NDArrayViewsTest {

    private static NDArray grid() {
        return NDArrays.arange(24).reshape(2, 3, 4);
    }

    /** Flags in NumPy's order: C_CONTIGUOUS, F_CONTIGUOUS, WRITEABLE, ALIGNED. */
    private static void assertFlags(NDArray array, boolean c, boolean f, boolean writeable) {
        assertEquals(c, array.isCContiguous(), "C_CONTIGUOUS");
        assertEquals(f, array.isFContiguous(), "F_CONTIGUOUS");
        assertEquals(writeable, array.isWriteable(), "WRITEABLE");
        assertTrue(array.isAligned(), "ALIGNED");
    }

    @Nested
    class Sharing {
        @Test
        void writingThroughATransposeChangesTheBase() {
            NDArray x = grid();
            NDArray view = x.transpose();
            view.setLong(-5, 3, 2, 1);
            assertEquals(-5, x.getLong(1, 2, 3));
            assertSame(x.base(), view.base());
            assertTrue(view.mayShareMemory(x));
        }

        @Test
        void writingThroughANegativeStepSliceChangesTheBase() {
            NDArray x = grid();
            NDArray reversed = x.slice(2, 3, -1, 4);
            reversed.setLong(100, 0, 0, 0);
            assertEquals(100, x.getLong(0, 0, 3));
            assertArrayEquals(new long[] {96, 32, -8}, reversed.byteStrides());
        }

        @Test
        void writingThroughRealAndImagChangesTheComplexBase() {
            NDArray z = NDArray.zeros(DType.COMPLEX128, 3);
            z.real().setDouble(1.5, 1);
            z.imag().setDouble(-2.0, 1);
            assertEquals(new Complex(1.5, -2.0), z.getComplex(1));
            assertEquals(DType.FLOAT64, z.imag().dtype());
            assertArrayEquals(new long[] {16}, z.imag().byteStrides());
        }

        @Test
        void aReshapeThatNeedsACopyDoesNotShareMemory() {
            NDArray x = grid();
            NDArray copied = x.transpose().reshape(24);
            assertFalse(copied.mayShareMemory(x));
            assertEquals(x.getLong(1, 0, 0), copied.getLong(1));
            NDArray viewed = x.reshape(6, 4);
            assertTrue(viewed.mayShareMemory(x));
        }

        @Test
        void reshapeInFortranOrderOfAFortranArrayIsAView() {
            NDArray f = grid().copy(Order.F);
            NDArray reshaped = f.reshape(Order.F, 6, 4);
            assertTrue(reshaped.mayShareMemory(f));
            assertEquals(f.getLong(1, 2, 3), reshaped.getLong(5, 3));
        }

        @Test
        void squeezeAndExpandDimsShareMemory() {
            NDArray x = NDArrays.arange(6).reshape(1, 6, 1);
            NDArray squeezed = x.squeeze();
            assertArrayEquals(new long[] {6}, squeezed.shape());
            NDArray expanded = squeezed.expandDims(0, 2);
            assertArrayEquals(new long[] {1, 6, 1}, expanded.shape());
            expanded.setLong(42, 0, 5, 0);
            assertEquals(42, x.getLong(0, 5, 0));
        }
    }

    @Nested
    class Flags {
        @Test
        void aNewArrayIsCContiguousAndWriteable() {
            assertFlags(grid(), true, false, true);
            assertFlags(NDArray.zeros(DType.FLOAT32, Order.F, 3, 4), false, true, true);
        }

        @Test
        void aTransposeSwapsContiguity() {
            assertFlags(grid().transpose(), false, true, true);
        }

        @Test
        void aVectorIsBothContiguities() {
            assertFlags(NDArrays.arange(5), true, true, true);
            assertFlags(NDArrays.arange(5).reshape(5, 1), true, true, true);
        }

        @Test
        void aSteppedSliceIsNeitherContiguous() {
            assertFlags(grid().slice(2, 0, 2, 2), false, false, true);
        }

        @Test
        void aBroadcastIsReadOnlyWithZeroStrides() {
            NDArray row = NDArrays.arange(4);
            NDArray broadcast = row.broadcastTo(3, 4);
            assertFlags(broadcast, false, false, false);
            assertArrayEquals(new long[] {0, 8}, broadcast.byteStrides());
            assertThrows(UnsupportedOperationException.class, () -> broadcast.setLong(1, 0, 0));
        }

        @Test
        void aDiagonalIsAReadOnlyStridedView() {
            NDArray matrix = NDArrays.arange(16).reshape(4, 4);
            NDArray diagonal = matrix.diagonal(1, 0, 1);
            assertArrayEquals(new long[] {3}, diagonal.shape());
            assertArrayEquals(new long[] {40}, diagonal.byteStrides());
            assertEquals(6, diagonal.getLong(1));
            assertFlags(diagonal, false, false, false);
        }

        @Test
        void theRealPartOfAComplexArrayIsNotContiguous() {
            NDArray z = NDArray.zeros(DType.COMPLEX64, 4);
            assertFlags(z.real(), false, false, true);
        }

        @Test
        void aByteOffsetThatBreaksAlignmentClearsTheAlignedFlag() {
            NDArray bytes = NDArray.zeros(DType.UINT8, 17);
            NDArray misaligned = NDArray.wrap(bytes.segment(), 1, new long[] {2}, new long[] {8}, DType.FLOAT64, true);
            assertFalse(misaligned.isAligned());
            misaligned.setDouble(2.5, 1);
            assertEquals(2.5, misaligned.getDouble(1));
        }
    }

    @Nested
    class Views {
        @Test
        void moveAxisKeepsTheOtherAxesInOrder() {
            NDArray x = NDArray.zeros(DType.INT8, 2, 3, 4, 5);
            assertArrayEquals(new long[] {3, 4, 2, 5}, x.moveAxis(0, 2).shape());
            assertArrayEquals(new long[] {5, 2, 3, 4}, x.moveAxis(-1, 0).shape());
            assertArrayEquals(new long[] {2, 3, 4, 5}, x.moveAxis(1, 1).shape());
        }

        @Test
        void swapAxesExchangesTwoAxes() {
            NDArray x = grid().swapAxes(0, 2);
            assertArrayEquals(new long[] {4, 3, 2}, x.shape());
            assertEquals(grid().getLong(1, 2, 3), x.getLong(3, 2, 1));
        }

        @ParameterizedTest
        @EnumSource(DType.class)
        void everyDtypeRoundTripsThroughItsViews(DType dtype) {
            NDArray x = NDArray.zeros(dtype, 2, 3);
            x.setLong(1, 1, 2);
            NDArray transposed = x.transpose();
            assertTrue(transposed.getBoolean(2, 1));
            assertFalse(transposed.getBoolean(1, 0));
            assertEquals(1.0, x.reshape(6).getDouble(5));
        }

        @Test
        void zeroDimensionalArraysActAsScalars() {
            NDArray x = NDArrays.arange(6).reshape(2, 3);
            NDArray element = x.take(0, 1).take(0, 2);
            assertEquals(0, element.ndim());
            assertEquals(5L, element.item());
            element.setLong(9);
            assertEquals(9, x.getLong(1, 2));
            NDArray largest = NDArray.zeros(DType.UINT64);
            largest.setLong(-1);
            assertEquals(new java.math.BigInteger("18446744073709551615"), largest.item());
        }
    }

    @Nested
    class Errors {
        @Test
        void anOutOfBoundsIndexNamesTheAxisAndItsSize() {
            IndexOutOfBoundsException thrown = assertThrows(IndexOutOfBoundsException.class, () -> grid().getLong(0, 3, 0));
            assertEquals("index 3 is out of bounds for axis 1 with size 3", thrown.getMessage());
        }

        @Test
        void anAxisOutOfRangeNamesTheAxisAndTheDimension() {
            AxisException thrown = assertThrows(AxisException.class, () -> grid().swapAxes(0, 3));
            assertEquals("axis 3 is out of bounds for array of dimension 3", thrown.getMessage());
        }

        @Test
        void aFailedBroadcastNamesBothShapes() {
            ShapeMismatchException thrown = assertThrows(ShapeMismatchException.class,
                    () -> NDArrays.broadcastShapes(new long[] {2, 3}, new long[] {4}));
            assertEquals("operands could not be broadcast together with shapes (2,3) (4,)", thrown.getMessage());
        }

        @Test
        void aReshapeToTheWrongSizeNamesBoth() {
            ShapeMismatchException thrown = assertThrows(ShapeMismatchException.class, () -> grid().reshape(5, -1));
            assertEquals("cannot reshape array of size 24 into shape (5,-1)", thrown.getMessage());
        }

        @Test
        void aRepeatedTransposeAxisIsRejected() {
            IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () -> grid().transpose(0, 0, 1));
            assertTrue(thrown.getMessage().contains("repeated axis"), thrown.getMessage());
        }
    }
}
