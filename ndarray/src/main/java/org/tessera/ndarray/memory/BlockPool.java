package org.tessera.ndarray.memory;

import java.lang.foreign.MemorySegment;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Heap memory for whole blocks that outlive the task that makes them (a stored chunk decoded for
 * the tasks that read it), taken back for the next such block once nothing refers to it. A fresh
 * array of megabytes is dear: the JVM fills it with zeros, and G1 places it in humongous regions
 * that only a collection gives back, so a computation that decodes a chunk per task grows the heap
 * with dead blocks while it runs. A block from here is an array the pool handed out before and got
 * back, of the same length, its old bytes left for the caller to overwrite.
 *
 * <p>Only a scheduler gives blocks back, and only when it has dropped the result the block belongs
 * to and holds nothing that may share its memory (a view of it): a block given back while anything
 * still reads it would be overwritten under that reader. Blocks never given back are collected as
 * any array. At most {@link #IDLE_LIMIT} bytes wait idle; a block given back beyond that is left to
 * the collector.
 */
public final class BlockPool {
    /** Smaller arrays are cheap to allocate anew, and left to {@link Memory#allocate}. */
    public static final long MIN_BYTES = 1 << 20;
    /** Idle blocks waiting for their next use: an eighth of the heap's cap, at most 128 MB (four 2000 x 2000 float64 chunks). */
    static final long IDLE_LIMIT = Math.min(128L << 20, Runtime.getRuntime().maxMemory() / 8);

    private static final Object LOCK = new Object();
    /**
     * The last word of every array the pool hands out, past the block's bytes: it tells the pool's
     * arrays from others without a table of them, whose references from the old generation would
     * keep G1 from reclaiming a dead block at the next young collection (R7's heap doubled with a
     * weak set). Drawn per JVM, so no stored data can be made to imitate it; an array of the same
     * last word by chance (one in 2^64) would be taken for the pool's.
     */
    private static final long MARK = new SecureRandom().nextLong();
    /** Idle arrays by length, the one given back last first (its pages are the likeliest to be resident). */
    private static final Map<Integer, ArrayDeque<long[]>> IDLE = new HashMap<>();
    private static long idleBytes;
    private static long reuses;

    private BlockPool() {
    }

    /**
     * {@code byteSize} bytes of heap memory, 8-byte aligned, that the caller overwrites whole before
     * anything reads them: an idle block of the same length where there is one, else a new array.
     * Counted in {@link Allocations} as a new array is. Sizes below {@link #MIN_BYTES} or beyond one
     * Java array are allocated as {@link Memory#allocate} does, and never pooled.
     */
    public static MemorySegment take(long byteSize) {
        if (byteSize < MIN_BYTES || byteSize > Memory.MAX_HEAP_BYTES) {
            return Memory.allocate(byteSize);
        }
        int length = (int) ((byteSize + Long.BYTES - 1) / Long.BYTES) + 1;
        long[] array;
        synchronized (LOCK) {
            ArrayDeque<long[]> idle = IDLE.get(length);
            array = idle == null ? null : idle.pollFirst();
            if (array != null) {
                idleBytes -= (long) length * Long.BYTES;
                reuses++;
            }
        }
        if (array == null) {
            array = new long[length];
            array[length - 1] = MARK;
        }
        Allocations.record(byteSize);
        // The mark lies past the slice, out of the caller's reach.
        return MemorySegment.ofArray(array).asSlice(0, byteSize);
    }

    /** Whether {@code segment} starts at the start of an array this pool handed out (a block, or a slice of one from its first byte). */
    public static boolean holds(MemorySegment segment) {
        return segment.heapBase().orElse(null) instanceof long[] array && segment.address() == 0 && array.length > MIN_BYTES / Long.BYTES
                && array[array.length - 1] == MARK;
    }

    /**
     * Takes back the block behind {@code segment}, which nothing may read or write from now on:
     * its next taker overwrites it. Does nothing for memory the pool did not hand out. A block
     * given back twice without being taken in between is refused loudly, since two takers would
     * then share it.
     */
    public static void giveBack(MemorySegment segment) {
        if (!holds(segment)) {
            return;
        }
        long[] array = (long[]) segment.heapBase().orElseThrow();
        long bytes = (long) array.length * Long.BYTES;
        synchronized (LOCK) {
            ArrayDeque<long[]> idle = IDLE.computeIfAbsent(array.length, length -> new ArrayDeque<>());
            for (long[] waiting : idle) {
                if (waiting == array) {
                    throw new IllegalStateException("a block of " + bytes + " bytes was given back to the pool twice");
                }
            }
            if (idleBytes + bytes > IDLE_LIMIT) {
                return;
            }
            idle.addFirst(array);
            idleBytes += bytes;
        }
    }

    /** How many blocks have been handed out again after being given back, since the JVM started. */
    public static long reuses() {
        synchronized (LOCK) {
            return reuses;
        }
    }

    /** The bytes of the blocks waiting idle. */
    public static long idleBytes() {
        synchronized (LOCK) {
            return idleBytes;
        }
    }
}
