package org.tessera.io.codec;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Gives the C allocator's free memory back to the system now and then while native codecs run.
 *
 * <p>c-blosc 1 allocates a scratch area of two internal blocks for every call and frees it after
 * (2 MiB for zarr-python's 1 MiB blocks). glibc serves such sizes from its heaps once the first
 * has been freed (its threshold for mapping each one alone follows the largest freed), and keeps
 * what they held when freed, one heap per thread up to eight per core. Over the R workloads' reads
 * of a 1.7 GB store those heaps grew by 130-650 MB on two cores, against a few MB in use at any
 * moment. Mapping each scratch area alone instead (a fixed {@code MALLOC_MMAP_THRESHOLD_}) cost R4
 * 40 % of its time in page faults. {@code malloc_trim} every {@link #TRIM_EVERY_BYTES} decoded bytes
 * returns the free pages, and the calls after it fault in only the few they use. Where the C library
 * has no {@code malloc_trim} (not glibc), nothing is done.
 */
final class NativeHeapTrim {
    /** Decoded bytes between two trims. */
    static final long TRIM_EVERY_BYTES = 64L << 20;

    private static final Optional<MethodHandle> TRIM = Linker.nativeLinker().defaultLookup().find("malloc_trim")
            .map(symbol -> Linker.nativeLinker().downcallHandle(symbol, FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG)));
    private static final AtomicLong DECODED = new AtomicLong();

    private NativeHeapTrim() {
    }

    /** Counts {@code bytes} decoded by a native codec, trimming the C heaps each time the count passes another {@link #TRIM_EVERY_BYTES}. */
    static void decoded(long bytes) {
        if (TRIM.isEmpty()) {
            return;
        }
        long after = DECODED.addAndGet(bytes);
        if (after / TRIM_EVERY_BYTES != (after - bytes) / TRIM_EVERY_BYTES) {
            try {
                // Returns whether any memory went back; either way there is nothing more to do.
                int released = (int) TRIM.get().invokeExact(0L);
            } catch (Throwable unexpected) {
                throw new IllegalStateException("malloc_trim failed", unexpected);
            }
        }
    }
}
