package org.tessera.ndarray.iteration;

import java.lang.foreign.MemorySegment;

import org.tessera.ndarray.dtype.DType;

/**
 * One operand of an iteration: where its elements are and how to step through them. The byte
 * strides are given per axis of the iteration shape (0 on a broadcast axis).
 */
public record Operand(DType dtype, MemorySegment segment, long byteOffset, long[] byteStrides) {
    public Operand {
        byteStrides = byteStrides.clone();
    }

    @Override
    public long[] byteStrides() {
        return byteStrides.clone();
    }

    long byteStride(int axis) {
        return byteStrides[axis];
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Operand that && dtype == that.dtype && segment.equals(that.segment)
                && byteOffset == that.byteOffset && java.util.Arrays.equals(byteStrides, that.byteStrides);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(dtype, segment, byteOffset, java.util.Arrays.hashCode(byteStrides));
    }

    @Override
    public String toString() {
        return "Operand[" + dtype + ", offset=" + byteOffset + ", byteStrides=" + java.util.Arrays.toString(byteStrides) + "]";
    }
}
