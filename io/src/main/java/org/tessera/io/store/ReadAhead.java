package org.tessera.io.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Values of a remote store fetched ahead of their reads ({@link Store#prefetch}): each on a virtual
 * thread of its own, handed to the first read of its key, at most {@link #LIMIT} held at once. A
 * hint for a key that is never read is dropped, oldest first, when new hints need the room, so a
 * computation that fails or reads less than it hinted leaves no more than the limit behind. A
 * fetch that failed is not remembered: the read fetches again and reports its own failure. A store
 * keeps one as a field; what it holds is not serialized, so a store sent to another process starts
 * with none.
 */
final class ReadAhead implements java.io.Serializable {
    @java.io.Serial
    private static final long serialVersionUID = 1L;

    /** Values held or in flight: twice what the threaded scheduler hints on a 16-core machine. */
    static final int LIMIT = 64;

    /** How a value is fetched from the store. */
    @FunctionalInterface
    interface Fetch {
        Optional<byte[]> fetch(String key) throws IOException;
    }

    private transient Map<String, CompletableFuture<Optional<byte[]>>> pending;

    private synchronized Map<String, CompletableFuture<Optional<byte[]>>> pending() {
        if (pending == null) {
            pending = new LinkedHashMap<>();
        }
        return pending;
    }

    /** Starts fetching {@code key} with {@code fetch} unless it is already on its way. */
    void hint(String key, Fetch fetch) {
        Map<String, CompletableFuture<Optional<byte[]>>> pending = pending();
        CompletableFuture<Optional<byte[]>> value;
        synchronized (pending) {
            if (pending.containsKey(key)) {
                return;
            }
            if (pending.size() >= LIMIT) {
                Iterator<CompletableFuture<Optional<byte[]>>> oldest = pending.values().iterator();
                oldest.next();
                oldest.remove();
            }
            value = new CompletableFuture<>();
            pending.put(key, value);
        }
        Thread.ofVirtual().name("read-ahead " + key).start(() -> {
            try {
                value.complete(fetch.fetch(key));
            } catch (Throwable failure) {
                // Whatever it is, the reader waiting for this value must wake up.
                value.completeExceptionally(failure);
            }
        });
    }

    /** The value of {@code key}: the one fetched ahead when there is one, else fetched now with {@code fetch}. */
    Optional<byte[]> get(String key, Fetch fetch) throws IOException {
        Map<String, CompletableFuture<Optional<byte[]>>> pending = pending();
        CompletableFuture<Optional<byte[]>> value;
        synchronized (pending) {
            value = pending.remove(key);
        }
        if (value != null) {
            try {
                return value.get();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw (InterruptedIOException) new InterruptedIOException("interrupted while waiting for key " + key).initCause(interrupted);
            } catch (ExecutionException failed) {
                // Fetched again below, so the failure reported is the read's own, with its own retries.
            }
        }
        return fetch.fetch(key);
    }

    /** How many values are held or in flight. */
    int size() {
        Map<String, CompletableFuture<Optional<byte[]>>> pending = pending();
        synchronized (pending) {
            return pending.size();
        }
    }
}
