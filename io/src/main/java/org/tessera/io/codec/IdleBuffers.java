package org.tessera.io.codec;

import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Byte arrays that decoding borrows for one chunk and gives back, kept for the next chunk: a
 * decode per chunk would otherwise allocate its buffers each time (for a 2000 x 2000 float64
 * chunk, 32 MB arrays the collector zeroes, places whole and is left with). A pool rather than
 * one per thread, since schedulers start threads per computation. Each use that wants buffers of
 * its own size keeps a pool of its own, so that small windows and whole chunks do not take each
 * other's arrays.
 */
public final class IdleBuffers {
    /** The most idle arrays kept: one in use and one waiting per core. */
    private static final int LIMIT = 2 * Runtime.getRuntime().availableProcessors();

    // Last in, first out: the array given back last is the warmest in the cache.
    private final ConcurrentLinkedDeque<byte[]> idle = new ConcurrentLinkedDeque<>();

    /** An idle array of at least {@code length} bytes, or a new one of exactly that; its contents are whatever it held. */
    public byte[] borrow(int length) {
        byte[] array = idle.pollFirst();
        return array != null && array.length >= length ? array : new byte[length];
    }

    /** Keeps {@code array} for a later {@link #borrow}, unless enough are idle already. */
    public void giveBack(byte[] array) {
        if (array.length > 0 && idle.size() < LIMIT) {
            idle.offerFirst(array);
        }
    }
}
