package org.tessera.io;

import java.io.IOException;
import java.io.Serial;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.tessera.io.store.Store;

/**
 * A store around another that counts reads and writes per key and can fail: after a number of
 * chunk writes it throws, as a writer that dies mid-store would stop.
 */
public final class InstrumentedStore implements Store {
    @Serial
    private static final long serialVersionUID = 1L;

    private final Store inner;
    private final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> writes = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> rangeReads = new ConcurrentHashMap<>();
    private final AtomicInteger chunkWrites = new AtomicInteger();
    private volatile int failAfterChunkWrites = Integer.MAX_VALUE;

    public InstrumentedStore(Store inner) {
        this.inner = inner;
    }

    /** Every write of a chunk (a key not ending in a metadata name) after the first {@code count} throws. */
    public void failAfterChunkWrites(int count) {
        failAfterChunkWrites = count;
    }

    public Map<String, Integer> reads() {
        return snapshot(reads);
    }

    /** Ranged reads per key (reads of part of a value). */
    public Map<String, Integer> rangeReads() {
        return snapshot(rangeReads);
    }

    public Map<String, Integer> writes() {
        return snapshot(writes);
    }

    public void resetCounts() {
        reads.clear();
        writes.clear();
        rangeReads.clear();
        chunkWrites.set(0);
    }

    private static Map<String, Integer> snapshot(Map<String, AtomicInteger> counts) {
        Map<String, Integer> copy = new java.util.TreeMap<>();
        counts.forEach((key, count) -> copy.put(key, count.get()));
        return copy;
    }

    private static boolean isMetadata(String key) {
        return key.endsWith(".zarray") || key.endsWith(".zattrs") || key.endsWith(".zgroup") || key.endsWith("zarr.json");
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        reads.computeIfAbsent(key, any -> new AtomicInteger()).incrementAndGet();
        return inner.get(key);
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        rangeReads.computeIfAbsent(key, any -> new AtomicInteger()).incrementAndGet();
        return inner.getRange(key, offset, length);
    }

    @Override
    public java.util.OptionalLong size(String key) throws IOException {
        return inner.size(key);
    }

    @Override
    public void set(String key, byte[] value) throws IOException {
        if (!isMetadata(key) && chunkWrites.incrementAndGet() > failAfterChunkWrites) {
            throw new IOException("injected failure: the writer dies before writing chunk " + key);
        }
        inner.set(key, value);
        writes.computeIfAbsent(key, any -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public boolean contains(String key) throws IOException {
        return inner.contains(key);
    }

    @Override
    public void delete(String key) throws IOException {
        inner.delete(key);
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        return inner.list(prefix);
    }

    @Override
    public String describe() {
        return "instrumented " + inner.describe();
    }
}
