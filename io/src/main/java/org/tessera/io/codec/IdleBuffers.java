package org.tessera.io.codec;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.LongFunction;
import java.util.function.ToLongFunction;

/**
 * Buffers that coding borrows for one chunk and gives back, kept for the next chunk: a chunk at
 * a time would otherwise allocate its buffers each time (for a 2000 x 2000 float64 chunk, 32 MB
 * arrays the collector zeroes, places whole and is left with). A pool rather than one per thread,
 * since schedulers start threads per computation. Each use that wants buffers of its own size
 * keeps a pool of its own, so that small windows and whole chunks do not take each other's.
 *
 * @param <T> byte arrays ({@link #arrays}) or native segments ({@link #segments})
 */
public final class IdleBuffers<T> {
    /** The most idle chunk-sized buffers kept: one in use and one waiting per core. */
    private static final int CHUNK_LIMIT = 2 * Runtime.getRuntime().availableProcessors();

    // Last in, first out: the buffer given back last is the warmest in the cache.
    private final ConcurrentLinkedDeque<T> idle = new ConcurrentLinkedDeque<>();
    private final LongFunction<T> allocate;
    private final ToLongFunction<T> size;
    private final int limit;

    private IdleBuffers(LongFunction<T> allocate, ToLongFunction<T> size, int limit) {
        this.allocate = allocate;
        this.size = size;
        this.limit = limit;
    }

    /** A pool of chunk-sized heap byte arrays. */
    public static IdleBuffers<byte[]> arrays() {
        return arrays(CHUNK_LIMIT);
    }

    /**
     * A pool of heap byte arrays that keeps at most {@code limit} idle: small buffers of which a
     * task may hold several at once (a window per stored block a rechunk's new block reads) want a
     * higher limit than a buffer per core.
     */
    public static IdleBuffers<byte[]> arrays(int limit) {
        return new IdleBuffers<>(length -> new byte[Math.toIntExact(length)], array -> array.length, limit);
    }

    /**
     * A pool of native segments, for calls that must not read the heap: one that falls out of the
     * pool is freed once unreachable.
     */
    public static IdleBuffers<MemorySegment> segments() {
        return new IdleBuffers<>(length -> Arena.ofAuto().allocate(length, 64), MemorySegment::byteSize, CHUNK_LIMIT);
    }

    /** An idle buffer of at least {@code length} bytes, or a new one of exactly that; its contents are whatever it held. */
    public T borrow(long length) {
        T buffer = idle.pollFirst();
        return buffer != null && size.applyAsLong(buffer) >= length ? buffer : allocate.apply(length);
    }

    /** Keeps {@code buffer} for a later {@link #borrow}, unless enough are idle already. */
    public void giveBack(T buffer) {
        if (size.applyAsLong(buffer) > 0 && idle.size() < limit) {
            idle.offerFirst(buffer);
        }
    }
}
