package org.tessera.ndarray.iteration;

/**
 * Visits every position of a shape in C order and hands over each operand's byte offset there:
 * the outer loop of operations whose inner work is not a 1-D run (a matrix per batch index, a
 * lane per sort). Built on {@link StridedIteration}, so coalesced axes cost nothing extra.
 */
public final class OffsetWalk {
    private OffsetWalk() {}

    /** What runs at each position; the array is reused between calls: read it, do not keep it. */
    @FunctionalInterface
    public interface PositionVisitor {
        void visit(long[] byteOffsets);
    }

    public static void forEachPosition(long[] shape, Operand[] operands, PositionVisitor visitor) {
        long[] positionOffsets = new long[operands.length];
        StridedIteration.forEachRun(shape, operands, (offsets, strides, count) -> {
            for (long step = 0; step < count; step++) {
                for (int i = 0; i < offsets.length; i++) {
                    positionOffsets[i] = offsets[i] + step * strides[i];
                }
                visitor.visit(positionOffsets);
            }
        });
    }
}
