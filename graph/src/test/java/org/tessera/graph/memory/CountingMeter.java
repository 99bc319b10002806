package org.tessera.graph.memory;

import java.util.function.LongSupplier;

/** The graph module's tests' allocation meter: tasks call {@link #allocate} for what they would allocate. */
public final class CountingMeter implements AllocationMeter {
    private static final ThreadLocal<long[]> COUNTS = ThreadLocal.withInitial(() -> new long[1]);

    static void allocate(long bytes) {
        COUNTS.get()[0] += bytes;
    }

    @Override
    public LongSupplier ofCurrentThread() {
        long[] count = COUNTS.get();
        return () -> count[0];
    }
}
