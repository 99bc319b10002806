package org.tessera.ndarray.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Native memory mapped anew from the kernel and marked for transparent huge pages before its
 * first touch. Fresh anonymous pages read as zeros, so nothing is written before the caller
 * writes, and the kernel backs the memory with 2 MiB pages where it has them ({@code madvise}
 * mode, Debian's default), as NumPy asks for its large arrays: a BLAS that walks a matrix along
 * its columns then misses the TLB once per 2 MiB rather than once per 4 KiB.
 */
final class HugePages {
    private HugePages() {}

    private static final long HUGE_PAGE = 2L << 20;
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final int MADV_HUGEPAGE = 14;

    private static final AtomicLong MAPPED = new AtomicLong();

    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;
    private static final MethodHandle MADVISE;

    static {
        MethodHandle mmap = null, munmap = null, madvise = null;
        // The flag values are Linux's; elsewhere the arena's memory serves.
        try {
            if (!System.getProperty("os.name", "").startsWith("Linux")) {
                throw new UnsupportedOperationException("mmap flags are Linux's");
            }
            Linker linker = Linker.nativeLinker();
            var libc = linker.defaultLookup();
            mmap = linker.downcallHandle(libc.find("mmap").orElseThrow(), FunctionDescriptor.of(ValueLayout.ADDRESS,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
            munmap = linker.downcallHandle(libc.find("munmap").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
            madvise = linker.downcallHandle(libc.find("madvise").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
        } catch (RuntimeException | LinkageError unavailable) {
            // Not Linux, or native access refused: callers take the arena's memory instead.
            mmap = munmap = madvise = null;
        }
        MMAP = mmap;
        MUNMAP = munmap;
        MADVISE = madvise;
    }

    /** Zero-filled memory of {@code byteSize} bytes, 2 MiB aligned, unmapped when unreachable; null where it cannot be had. */
    static MemorySegment allocate(long byteSize) {
        if (MMAP == null || byteSize <= 0) {
            return null;
        }
        long length = byteSize + HUGE_PAGE;
        try {
            MemorySegment mapped = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, length, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
            long base = mapped.address();
            if (base == -1L || base == 0L) {
                return null;
            }
            long aligned = (base + HUGE_PAGE - 1) & -HUGE_PAGE;
            int ignored = (int) MADVISE.invokeExact(MemorySegment.ofAddress(aligned), byteSize, MADV_HUGEPAGE);
            MAPPED.addAndGet(length);
            return MemorySegment.ofAddress(aligned).reinterpret(byteSize, Arena.ofAuto(), segment -> unmap(base, length));
        } catch (Throwable failure) {
            return null;
        }
    }

    /** Bytes mapped and not yet unmapped. */
    static long mappedBytes() {
        return MAPPED.get();
    }

    private static void unmap(long base, long length) {
        MAPPED.addAndGet(-length);
        try {
            int ignored = (int) MUNMAP.invokeExact(MemorySegment.ofAddress(base), length);
        } catch (Throwable ignored) {
            // Nothing to do: the mapping stays until the process ends.
        }
    }
}
