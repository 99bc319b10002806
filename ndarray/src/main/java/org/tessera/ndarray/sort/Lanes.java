package org.tessera.ndarray.sort;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.iteration.OffsetWalk;
import org.tessera.ndarray.iteration.Operand;
import org.tessera.ndarray.kernel.Elements;

/** The 1-D lanes of arrays along one axis: every position of the other axes, in C order. */
final class Lanes {
    private Lanes() {}

    /** Calls {@code visitor} with the byte offset of each lane's first element, for arrays of one shape. */
    static void forEach(int axis, OffsetWalk.PositionVisitor visitor, NDArray... arrays) {
        long[] shape = arrays[0].shape();
        long[] outerShape = without(shape, axis);
        Operand[] operands = new Operand[arrays.length];
        for (int i = 0; i < arrays.length; i++) {
            operands[i] = new Operand(arrays[i].dtype(), arrays[i].segment(), arrays[i].byteOffset(),
                    without(arrays[i].byteStrides(), axis));
        }
        OffsetWalk.forEachPosition(outerShape, operands, visitor);
    }

    /** Loads the lane of {@code array} along {@code axis} that starts at {@code byteOffset}. */
    static Keys keys(NDArray array, int axis, long byteOffset) {
        return Keys.load(array.dtype(), array.segment(), byteOffset, array.byteStride(axis), laneLength(array, axis));
    }

    static int laneLength(NDArray array, int axis) {
        long length = array.shape(axis);
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("cannot sort a lane of " + length + " elements (more than 2^31)");
        }
        return (int) length;
    }

    /** target[k] = source[order[k]] for one lane of each, copying element bytes (values keep their bits). */
    static void gather(NDArray source, long sourceOffset, NDArray target, long targetOffset, int axis, int[] order) {
        long itemSize = source.dtype().byteSize();
        MemorySegment from = source.segment(), to = target.segment();
        long sourceStride = source.byteStride(axis), targetStride = target.byteStride(axis);
        for (int k = 0; k < order.length; k++) {
            MemorySegment.copy(from, sourceOffset + order[k] * sourceStride, to, targetOffset + k * targetStride, itemSize);
        }
    }

    /** Writes sorted carrier values into one lane of {@code target}, rounding back to its dtype. */
    static void store(Keys keys, NDArray target, long byteOffset, int axis) {
        DType dtype = target.dtype();
        long stride = target.byteStride(axis);
        switch (keys) {
            case Keys.Integers integers when dtype.byteSize() == Long.BYTES && stride == Long.BYTES ->
                    MemorySegment.copy(integers.values(), 0, target.segment(), ValueLayout.JAVA_LONG_UNALIGNED, byteOffset,
                            integers.values().length);
            case Keys.Integers integers -> {
                for (int k = 0; k < integers.values().length; k++) {
                    Elements.storeLong(dtype, target.segment(), byteOffset + k * stride, integers.values()[k]);
                }
            }
            case Keys.Reals reals when dtype == DType.FLOAT64 && stride == Double.BYTES ->
                    MemorySegment.copy(reals.values(), 0, target.segment(), ValueLayout.JAVA_DOUBLE_UNALIGNED, byteOffset,
                            reals.values().length);
            case Keys.Reals reals -> {
                for (int k = 0; k < reals.values().length; k++) {
                    Elements.storeReal(dtype, target.segment(), byteOffset + k * stride, reals.values()[k]);
                }
            }
            case Keys.Complexes complexes -> throw new IllegalArgumentException("complex lanes are gathered, not stored");
        }
    }

    static long[] without(long[] values, int axis) {
        long[] rest = new long[values.length - 1];
        for (int i = 0, j = 0; i < values.length; i++) {
            if (i != axis) {
                rest[j++] = values[i];
            }
        }
        return rest;
    }
}
