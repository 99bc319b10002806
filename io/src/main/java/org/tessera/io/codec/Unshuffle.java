package org.tessera.io.codec;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.concurrent.ConcurrentLinkedDeque;

import org.tessera.ndarray.kernel.VectorMath;

/**
 * The byte unshuffle of Blosc's and HDF5's shuffle filter, from runs wherever they lie (a stored
 * frame's mapping, a decoded stream's buffer) straight into the target: byte {@code b} of element
 * {@code i} is byte {@code i} of run {@code b}. The SIMD provider takes the whole vectors of 2-, 4-
 * and 8-byte elements ({@link VectorMath#unshuffle}); the rest, and every other element size, runs
 * here: 8-byte elements as a transpose of eight words (an 8 x 8 byte matrix), others byte by byte.
 *
 * <p>The loops only ever see native segments of one class ({@link #plain}): a loop whose loads or
 * stores had seen a mapping and an arena's buffer, or native memory and a heap array, was
 * deoptimised by C2 again and again (a store's decoding took 20 s instead of 0.5). The provider
 * writes a block's {@code long[]} itself through the array (its stores then see one kind of memory
 * each), which saves a copy of every element: decoding the R workloads' 64 chunks into such an array
 * on one core of the AMD EPYC took 0.34-0.35 s against 0.40-0.44 s through staging at AVX-512,
 * 0.51-0.53 against 0.58-0.60 s at AVX2. The rest of a heap target (a vector's worth at most), any
 * other heap target and runs on the heap go through pooled native staging buffers, a piece at a
 * time, and runs on the heap (HDF5's inflated chunks, where inflating takes twice the unshuffle's time) to
 * the scalar loops alone: until C2 has compiled the Vector API's loop, it runs a Java fallback
 * that allocates a vector per operation, which grew the HDF5 read's heap by 140 MB for nothing.
 */
public final class Unshuffle {
    private static final ValueLayout.OfLong LITTLE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Elements per piece staged for heap runs or a heap target: their runs and output stay in the core's cache. */
    private static final int STAGED_ELEMENTS = 8 << 10;
    /**
     * Staging buffers not in use, kept for the next call: a pool rather than one per thread, since
     * schedulers start threads per computation and each thread's buffer would wait for the collector.
     */
    private static final ConcurrentLinkedDeque<MemorySegment> IDLE_STAGING = new ConcurrentLinkedDeque<>();
    private static final int IDLE_STAGING_LIMIT = 4 * Runtime.getRuntime().availableProcessors();
    /** Fewer elements go to the scalar loops: the provider's call makes a view of each run and of the target. */
    private static final long VECTOR_ELEMENTS = 512;
    /**
     * Fewer 8-byte elements (the rest a vector loop leaves: under 64) go byte by byte, not to the
     * word transpose: called for every such rest, the transpose turned hot in the first timed run of
     * the R workloads, and C2 spent 0.68 s of one of the two cores compiling it there.
     */
    private static final long WORD_ELEMENTS = 256;

    private Unshuffle() {
    }

    /**
     * Elements {@code [first, first + count)} of the runs (one per byte of an element, each holding
     * at least {@code first + count} bytes) into {@code target} from byte {@code targetOffset}.
     */
    public static void unshuffle(MemorySegment[] runs, long first, long count, MemorySegment target, long targetOffset) {
        unshuffle(runs, plainRuns(runs), first, count, target, targetOffset);
    }

    /**
     * The runs as plain native segments ({@link #plain}), for a caller that unshuffles parts of the
     * same runs again and again and keeps them; null where a run is on the heap.
     */
    public static MemorySegment[] plainRuns(MemorySegment[] runs) {
        MemorySegment[] plain = new MemorySegment[runs.length];
        for (int part = 0; part < runs.length; part++) {
            if (!runs[part].isNative()) {
                return null;
            }
            plain[part] = plain(runs[part]);
        }
        return plain;
    }

    /** As {@link #unshuffle(MemorySegment[], long, long, MemorySegment, long)}, given the runs' {@link #plainRuns}. */
    public static void unshuffle(MemorySegment[] runs, MemorySegment[] plainRuns, long first, long count, MemorySegment target, long targetOffset) {
        int size = runs.length;
        if (count <= 0) {
            return;
        }
        if (plainRuns != null && target.isNative()) {
            unshufflePlain(plainRuns, first, count, plain(target), targetOffset);
            return;
        }
        if (plainRuns != null && size > 1 && count >= VECTOR_ELEMENTS) {
            // The provider writes whole vectors into a block's array itself; the rest goes through staging.
            long done = VectorMath.selected().unshuffle(plainRuns, first, count, target, targetOffset);
            first += done;
            count -= done;
            targetOffset += done * size;
            if (count == 0) {
                return;
            }
        }
        MemorySegment buffer = borrowStaging((long) STAGED_ELEMENTS * size * 2);
        try {
            staged(runs, plainRuns, first, count, target, targetOffset, plain(buffer));
        } finally {
            if (IDLE_STAGING.size() < IDLE_STAGING_LIMIT) {
                IDLE_STAGING.offerFirst(buffer);
            }
        }
    }

    /** The unshuffle through {@code staging}: pieces of heap runs copied in, pieces of output copied out to a heap target. */
    private static void staged(MemorySegment[] runs, MemorySegment[] plainRuns, long first, long count, MemorySegment target, long targetOffset,
            MemorySegment staging) {
        int size = runs.length;
        MemorySegment[] staged = plainRuns;
        if (plainRuns == null) {
            staged = new MemorySegment[size];
            for (int part = 0; part < size; part++) {
                staged[part] = staging.asSlice((long) part * STAGED_ELEMENTS, STAGED_ELEMENTS);
            }
        }
        MemorySegment output = staging.asSlice((long) STAGED_ELEMENTS * size, (long) STAGED_ELEMENTS * size);
        MemorySegment plainTarget = target.isNative() ? plain(target) : null;
        for (long done = 0; done < count; done += STAGED_ELEMENTS) {
            long piece = Math.min(STAGED_ELEMENTS, count - done);
            long from = first + done;
            if (plainRuns == null) {
                for (int part = 0; part < size; part++) {
                    MemorySegment.copy(runs[part], from, staged[part], 0, piece);
                }
                from = 0;
            }
            MemorySegment into = plainTarget != null ? plainTarget : output;
            long at = plainTarget != null ? targetOffset + done * size : 0;
            if (plainRuns != null) {
                unshufflePlain(staged, from, piece, into, at);
            } else {
                scalar(staged, from, piece, into, at);
            }
            if (plainTarget == null) {
                MemorySegment.copy(output, 0, target, targetOffset + done * size, piece * size);
            }
        }
    }

    /** The same native memory as a segment of one class and the global scope; the caller keeps the memory alive. */
    private static MemorySegment plain(MemorySegment segment) {
        return MemorySegment.ofAddress(segment.address()).reinterpret(segment.byteSize());
    }

    /** An idle staging buffer of at least {@code bytes}, or a new one; the caller holds it (not a view of it) while it is in use. */
    private static MemorySegment borrowStaging(long bytes) {
        MemorySegment idle = IDLE_STAGING.pollFirst();
        return idle != null && idle.byteSize() >= bytes ? idle : Arena.ofAuto().allocate(bytes, 64);
    }

    /** Elements {@code [first, first + count)} into {@code target} from byte {@code targetOffset}; every segment plain native. */
    private static void unshufflePlain(MemorySegment[] runs, long first, long count, MemorySegment target, long targetOffset) {
        int size = runs.length;
        long done = size > 1 && count >= VECTOR_ELEMENTS ? VectorMath.selected().unshuffle(runs, first, count, target, targetOffset) : 0;
        scalar(runs, first + done, count - done, target, targetOffset + done * size);
    }

    /**
     * The scalar loops: for 8-byte elements, eight words transposed at a time where there are
     * {@link #WORD_ELEMENTS} or more, then byte by byte.
     */
    private static void scalar(MemorySegment[] runs, long first, long count, MemorySegment target, long targetOffset) {
        int size = runs.length;
        long done = size == Long.BYTES && count >= WORD_ELEMENTS ? words(runs, first, count, target, targetOffset) : 0;
        long at = targetOffset + done * size;
        for (long element = first + done; element < first + count; element++) {
            for (int part = 0; part < size; part++) {
                target.set(ValueLayout.JAVA_BYTE, at++, runs[part].get(ValueLayout.JAVA_BYTE, element));
            }
        }
    }

    /**
     * Eight 8-byte elements at a time, as many as there are whole eights: the runs' next eight bytes
     * are read as eight words, an 8 x 8 byte matrix whose transpose (three rounds of swapping
     * halves, quarters and single bytes between rows) is the eight elements.
     */
    private static long words(MemorySegment[] runs, long first, long count, MemorySegment target, long targetOffset) {
        MemorySegment r0 = runs[0], r1 = runs[1], r2 = runs[2], r3 = runs[3], r4 = runs[4], r5 = runs[5], r6 = runs[6], r7 = runs[7];
        long whole = count - count % Long.BYTES;
        for (long done = 0; done < whole; done += Long.BYTES) {
            long element = first + done;
            long x0 = r0.get(LITTLE_LONG, element);
            long x1 = r1.get(LITTLE_LONG, element);
            long x2 = r2.get(LITTLE_LONG, element);
            long x3 = r3.get(LITTLE_LONG, element);
            long x4 = r4.get(LITTLE_LONG, element);
            long x5 = r5.get(LITTLE_LONG, element);
            long x6 = r6.get(LITTLE_LONG, element);
            long x7 = r7.get(LITTLE_LONG, element);
            // Word k holds byte k of the eight elements, element j in its byte j.
            long t;
            t = x0; x0 = t & LOW_HALVES | x4 << 32; x4 = t >>> 32 | x4 & HIGH_HALVES;
            t = x1; x1 = t & LOW_HALVES | x5 << 32; x5 = t >>> 32 | x5 & HIGH_HALVES;
            t = x2; x2 = t & LOW_HALVES | x6 << 32; x6 = t >>> 32 | x6 & HIGH_HALVES;
            t = x3; x3 = t & LOW_HALVES | x7 << 32; x7 = t >>> 32 | x7 & HIGH_HALVES;
            t = x0; x0 = t & LOW_QUARTERS | x2 << 16 & HIGH_QUARTERS; x2 = t >>> 16 & LOW_QUARTERS | x2 & HIGH_QUARTERS;
            t = x1; x1 = t & LOW_QUARTERS | x3 << 16 & HIGH_QUARTERS; x3 = t >>> 16 & LOW_QUARTERS | x3 & HIGH_QUARTERS;
            t = x4; x4 = t & LOW_QUARTERS | x6 << 16 & HIGH_QUARTERS; x6 = t >>> 16 & LOW_QUARTERS | x6 & HIGH_QUARTERS;
            t = x5; x5 = t & LOW_QUARTERS | x7 << 16 & HIGH_QUARTERS; x7 = t >>> 16 & LOW_QUARTERS | x7 & HIGH_QUARTERS;
            t = x0; x0 = t & LOW_BYTES | x1 << 8 & HIGH_BYTES; x1 = t >>> 8 & LOW_BYTES | x1 & HIGH_BYTES;
            t = x2; x2 = t & LOW_BYTES | x3 << 8 & HIGH_BYTES; x3 = t >>> 8 & LOW_BYTES | x3 & HIGH_BYTES;
            t = x4; x4 = t & LOW_BYTES | x5 << 8 & HIGH_BYTES; x5 = t >>> 8 & LOW_BYTES | x5 & HIGH_BYTES;
            t = x6; x6 = t & LOW_BYTES | x7 << 8 & HIGH_BYTES; x7 = t >>> 8 & LOW_BYTES | x7 & HIGH_BYTES;
            long at = targetOffset + done * Long.BYTES;
            target.set(LITTLE_LONG, at, x0);
            target.set(LITTLE_LONG, at + 8, x1);
            target.set(LITTLE_LONG, at + 16, x2);
            target.set(LITTLE_LONG, at + 24, x3);
            target.set(LITTLE_LONG, at + 32, x4);
            target.set(LITTLE_LONG, at + 40, x5);
            target.set(LITTLE_LONG, at + 48, x6);
            target.set(LITTLE_LONG, at + 56, x7);
        }
        return whole;
    }

    private static final long LOW_HALVES = 0x0000_0000_FFFF_FFFFL;
    private static final long HIGH_HALVES = 0xFFFF_FFFF_0000_0000L;
    private static final long LOW_QUARTERS = 0x0000_FFFF_0000_FFFFL;
    private static final long HIGH_QUARTERS = 0xFFFF_0000_FFFF_0000L;
    private static final long LOW_BYTES = 0x00FF_00FF_00FF_00FFL;
    private static final long HIGH_BYTES = 0xFF00_FF00_FF00_FF00L;
}
