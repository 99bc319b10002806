package org.tessera.io.codec;

import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Byte arrays that coding borrows for one chunk and gives back, kept for the next chunk: a chunk at
 * a time would otherwise allocate its buffers each time (for a 2000 x 2000 float64 chunk, 32 MB
 * arrays the collector zeroes, places whole and is left with). A pool rather than one per thread,
 * since schedulers start threads per computation. Each use that wants buffers of its own size
 * keeps a pool of its own, so that small windows and whole chunks do not take each other's. Native
 * memory for codecs that read and write it comes from {@code ndarray.memory.NativeBuffers}, the
 * pool BLAS's buffers come from too.
 */
public final class IdleBuffers {
    /** The most idle chunk-sized buffers kept: one in use and one waiting per core. */
    private static final int CHUNK_LIMIT = 2 * Runtime.getRuntime().availableProcessors();

    // Last in, first out: the buffer given back last is the warmest in the cache.
    private final ConcurrentLinkedDeque<byte[]> idle = new ConcurrentLinkedDeque<>();
    private final int limit;

    private IdleBuffers(int limit) {
        this.limit = limit;
    }

    /** A pool of chunk-sized byte arrays. */
    public static IdleBuffers arrays() {
        return arrays(CHUNK_LIMIT);
    }

    /**
     * A pool of byte arrays that keeps at most {@code limit} idle: small buffers of which a task may
     * hold several at once (a window per stored block a rechunk's new block reads) want a higher
     * limit than a buffer per core.
     */
    public static IdleBuffers arrays(int limit) {
        return new IdleBuffers(limit);
    }

    /** An idle array of at least {@code length} bytes, or a new one of exactly that; its contents are whatever it held. */
    public byte[] borrow(long length) {
        byte[] buffer = idle.pollFirst();
        return buffer != null && buffer.length >= length ? buffer : new byte[Math.toIntExact(length)];
    }

    /** Keeps {@code buffer} for a later {@link #borrow}, unless enough are idle already. */
    public void giveBack(byte[] buffer) {
        if (buffer.length > 0 && idle.size() < limit) {
            idle.offerFirst(buffer);
        }
    }
}
