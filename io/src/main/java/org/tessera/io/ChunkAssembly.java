package org.tessera.io;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * The region locks of one store: a target chunk that several source blocks overlap is gathered
 * under its own lock, each block copying in its part, and handed back whole when the last part
 * arrives, to be written once. A chunk is thus never written half-filled, so a store that dies
 * leaves every chunk absent or complete, and resuming it stays correct. Only the chunks between
 * finished and unfinished blocks wait here: with blocks stored in order, about one row of chunks.
 *
 * <p>Lives in one process: it is not serializable, so a graph holding it cannot be shipped to
 * another process by mistake (a scheduler that does so fails loudly instead of losing parts).
 */
final class ChunkAssembly {
    private final DType dtype;
    private final Map<List<Integer>, Partial> partials = new ConcurrentHashMap<>();
    private final AtomicLong pendingBytes = new AtomicLong();
    private final AtomicLong peakPendingBytes = new AtomicLong();

    ChunkAssembly(DType dtype) {
        this.dtype = dtype;
    }

    /** A chunk being gathered: its values so far and how many elements are still missing. */
    private static final class Partial {
        final NDArray values;
        long missingElements;

        Partial(NDArray values) {
            this.values = values;
            this.missingElements = values.size();
        }
    }

    /**
     * Copies {@code part} into chunk {@code chunkIndex} (of shape {@code chunkShape}, the part inside
     * the array) at {@code offsetInChunk}. Parts of one chunk never overlap: they come from
     * different blocks of one array. Returns the chunk when this part completed it, else null.
     */
    NDArray add(int[] chunkIndex, long[] chunkShape, long[] offsetInChunk, NDArray part) {
        List<Integer> key = Arrays.stream(chunkIndex).boxed().toList();
        Partial partial = partials.computeIfAbsent(key, absent -> {
            NDArray values = NDArray.zeros(dtype, chunkShape);
            notePending(values.byteSize());
            return new Partial(values);
        });
        boolean complete;
        synchronized (partial) {
            NDArray target = partial.values;
            for (int axis = 0; axis < chunkShape.length; axis++) {
                target = target.slice(axis, offsetInChunk[axis], 1, part.shape(axis));
            }
            target.assign(part);
            partial.missingElements -= part.size();
            complete = partial.missingElements == 0;
        }
        if (!complete) {
            return null;
        }
        partials.remove(key);
        pendingBytes.addAndGet(-partial.values.byteSize());
        return partial.values;
    }

    private void notePending(long bytes) {
        long now = pendingBytes.addAndGet(bytes);
        peakPendingBytes.accumulateAndGet(now, Math::max);
    }

    /** The most bytes of partly gathered chunks held at once. */
    long peakPendingBytes() {
        return peakPendingBytes.get();
    }

    /** Fails, naming them, if chunks are still partly gathered after every block was written: parts were lost. */
    void requireComplete(String sinkDescription) {
        if (!partials.isEmpty()) {
            throw new IllegalStateException("storing into " + sinkDescription + " left chunks " + partials.keySet()
                    + " partly written: some of the blocks that overlap them never reached this process");
        }
    }
}
