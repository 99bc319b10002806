package org.tessera.ndarray.fft;

import java.lang.ref.SoftReference;

/**
 * Reusable scratch arrays per thread for the NDArray functions (a plan's scratch, a block of lines),
 * so that a transform does not pay for allocating and zeroing them on every call. Held softly, so
 * large ones are given back when memory runs short; callers must not keep them beyond their call.
 */
final class ScratchBuffers {
    private ScratchBuffers() {}

    /** The plan's scratch. */
    static final int PLAN = 0;
    /** A buffer of lines. */
    static final int LINES = 1;

    @SuppressWarnings("unchecked")
    private static final ThreadLocal<SoftReference<double[]>[]> CACHED = ThreadLocal.withInitial(() -> new SoftReference[2]);

    /** An array of at least {@code length} doubles for {@code slot}, with arbitrary contents. */
    static double[] get(int slot, int length) {
        SoftReference<double[]>[] slots = CACHED.get();
        double[] array = slots[slot] == null ? null : slots[slot].get();
        if (array == null || array.length < length) {
            array = new double[length];
            slots[slot] = new SoftReference<>(array);
        }
        return array;
    }
}
