package org.tessera.ndarray.memory;

/**
 * The bytes of array storage each thread has allocated: heap arrays, native segments and the slabs
 * of a {@link Scratch}. A scheduler reads a thread's count before and after a task to know what the
 * task allocated, and reads the counts of running tasks from its own thread to know what the
 * computation holds at a moment; so each thread writes its own counter and any thread may read it.
 * Of a {@link Scratch}'s slabs, a computation counts as far as it carves into them (the most over
 * all its resets), whether the slabs are new or were kept from an earlier one: that much of them it
 * holds while it runs. Buffers leased from {@link NativeBuffers} count in the same way: the most a
 * thread's open leases hold at once, until the outermost of them closes.
 */
public final class Allocations {
    private static final ThreadLocal<Counter> COUNTERS = ThreadLocal.withInitial(Counter::new);

    private Allocations() {
    }

    /** The counter of the calling thread. */
    public static Counter ofCurrentThread() {
        return COUNTERS.get();
    }

    static void record(long bytes) {
        COUNTERS.get().add(bytes);
    }

    /** One thread's count: written by that thread alone, read by any. */
    public static final class Counter {
        private volatile long bytes;

        private Counter() {
        }

        private void add(long more) {
            // One writer, so a read and a write need no atomic update; the volatile write publishes it.
            bytes = bytes + more;
        }

        /** The bytes the thread has allocated since it started. */
        public long bytes() {
            return bytes;
        }
    }
}
