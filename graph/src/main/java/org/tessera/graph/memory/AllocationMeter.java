package org.tessera.graph.memory;

import java.util.ServiceLoader;
import java.util.function.LongSupplier;

/**
 * Counts the bytes that tasks allocate for their values, for the measured side of a memory plan:
 * the graph module knows no array type, so the module that allocates arrays provides this service
 * ({@link ServiceLoader}). Without one, nothing is counted.
 */
public interface AllocationMeter {

    /**
     * A reading of the bytes the calling thread has allocated since it started, which any thread
     * may take later: a scheduler takes it on a worker when a task starts and reads it from
     * elsewhere while the task runs.
     */
    LongSupplier ofCurrentThread();

    /** The meter of the class path, or one that counts nothing. */
    static AllocationMeter find() {
        return Holder.METER;
    }

    /** The meter found once, when first asked for. */
    final class Holder {
        private static final LongSupplier ZERO = () -> 0;
        static final AllocationMeter METER = ServiceLoader.load(AllocationMeter.class).findFirst().orElse(() -> ZERO);

        private Holder() {
        }
    }
}
