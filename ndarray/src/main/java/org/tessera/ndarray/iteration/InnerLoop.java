package org.tessera.ndarray.iteration;

/**
 * The 1-D loop a kernel runs: {@code count} elements of each operand, operand {@code i} starting
 * at {@code byteOffsets[i]} and stepping {@code byteStrides[i]} bytes. The arrays are reused between
 * calls: read them, do not keep them.
 */
@FunctionalInterface
public interface InnerLoop {
    void run(long[] byteOffsets, long[] byteStrides, long count);
}
