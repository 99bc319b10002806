package org.tessera.ndarray.ufunc;

import java.lang.foreign.MemorySegment;

/**
 * A loop straight over contiguous operands of the loop's own dtypes (inputs first, then the
 * output), with no lane buffers in between: the path NumPy's speed is measured on.
 */
@FunctionalInterface
interface ContiguousKernel {
    void run(MemorySegment[] segments, long[] byteOffsets, long count);
}
