package org.tessera.ndarray.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Allocation of owning storage. Small and medium arrays live on the Java heap (backed by a
 * {@code long[]}, so 8-byte aligned and freed by the GC); arrays beyond what one Java array can
 * hold, or callers who ask for it, get native memory from an automatic arena, 64-byte aligned.
 */
public final class Memory {
    private Memory() {}

    /** Largest heap allocation: a {@code long[]} of (almost) {@code Integer.MAX_VALUE} elements. */
    public static final long MAX_HEAP_BYTES = (long) (Integer.MAX_VALUE - 8) * Long.BYTES;

    private static final long NATIVE_ALIGNMENT = 64;

    /** Zero-filled storage of {@code byteSize} bytes: from the thread's {@link Scratch} inside one, else on the heap when it fits there. */
    public static MemorySegment allocate(long byteSize) {
        if (byteSize < 0) {
            throw new IllegalArgumentException("cannot allocate a negative number of bytes: " + byteSize);
        }
        Scratch scratch = Scratch.current();
        if (scratch != null && byteSize <= MAX_HEAP_BYTES - Long.BYTES) {
            return scratch.allocate(byteSize, true);
        }
        if (byteSize <= MAX_HEAP_BYTES) {
            Allocations.record(byteSize);
            MemorySegment words = MemorySegment.ofArray(new long[(int) ((byteSize + Long.BYTES - 1) / Long.BYTES)]);
            return byteSize % Long.BYTES == 0 ? words : words.asSlice(0, byteSize);
        }
        return allocateNative(byteSize);
    }

    /**
     * Storage that the caller overwrites whole before reading: inside a {@link Scratch} its old bytes
     * are left as they are, which saves a pass over memory that is about to be written anyway;
     * elsewhere it is zero-filled as {@link #allocate} (the JVM zeroes every new array).
     */
    public static MemorySegment allocateForOverwrite(long byteSize) {
        Scratch scratch = Scratch.current();
        if (scratch != null && byteSize >= 0 && byteSize <= MAX_HEAP_BYTES - Long.BYTES) {
            return scratch.allocate(byteSize, false);
        }
        return allocate(byteSize);
    }

    /**
     * Storage for a block that outlives the task making it and that the caller overwrites whole
     * (a stored chunk decoded for the tasks that read it): inside a {@link Scratch} as
     * {@link #allocateForOverwrite}, elsewhere from the {@link BlockPool}, which a scheduler
     * gives it back to once nothing reads it.
     */
    public static MemorySegment allocateBlock(long byteSize) {
        return Scratch.current() != null ? allocateForOverwrite(byteSize) : BlockPool.take(byteSize);
    }

    /**
     * Zero-filled native storage on transparent huge pages where the kernel offers them, for large
     * buffers that native code walks (BLAS operands); released when it becomes unreachable.
     */
    public static MemorySegment allocateNativeHuge(long byteSize) {
        Allocations.record(byteSize);
        return nativeHuge(byteSize);
    }

    /** {@link #allocateNativeHuge}'s memory, not counted: for {@link NativeBuffers}, which counts what its leases hold. */
    static MemorySegment nativeHuge(long byteSize) {
        MemorySegment mapped = HugePages.allocate(byteSize);
        return mapped != null ? mapped : autoNative(byteSize);
    }

    /** Zero-filled native storage, released when it becomes unreachable. */
    public static MemorySegment allocateNative(long byteSize) {
        Allocations.record(byteSize);
        return autoNative(byteSize);
    }

    /** Zero-filled native storage released when it becomes unreachable, not counted. */
    private static MemorySegment autoNative(long byteSize) {
        return Arena.ofAuto().allocate(Math.max(byteSize, 1), NATIVE_ALIGNMENT).asSlice(0, byteSize);
    }

    /** Whether two segments may view the same bytes (the same heap array or overlapping addresses). */
    public static boolean overlap(MemorySegment first, MemorySegment second) {
        return first.asOverlappingSlice(second).isPresent();
    }
}
