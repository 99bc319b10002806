package org.tessera.io.store;

import java.io.IOException;
import java.io.Serializable;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;

/**
 * A map from keys to byte strings: what chunk formats are built on. Ranged reads let a format
 * read part of a value (one inner chunk of a shard) without reading it all. Keys are paths of
 * {@code /}-separated segments ({@code "temperature/.zarray"}, {@code "temperature/0.3"}) with no
 * empty, {@code "."} or {@code ".."} segment; {@link StoreKeys#validate} says why a key is refused.
 *
 * <p>Contract: {@link #set} is atomic per key: a concurrent or later {@link #get} returns the whole
 * old value or the whole new one, never a mixture or a prefix, even when the writer dies mid-write.
 * Different keys may be written concurrently. Serializable so that read tasks can carry their store
 * to another process.
 */
public interface Store extends Serializable {

    /** The value of {@code key}, or empty when the store has none. */
    Optional<byte[]> get(String key) throws IOException;

    /**
     * The value of {@code key} as a read-only segment that lives no longer than {@code arena}, or
     * empty when the store has none. A store of files maps the file, so a reader that decodes
     * straight from it copies the bytes once, from the page cache into their array, rather than
     * through a buffer and a byte array first.
     */
    default Optional<MemorySegment> map(String key, Arena arena) throws IOException {
        return get(key).map(value -> MemorySegment.ofArray(value).asReadOnly());
    }

    /**
     * {@code length} bytes of the value of {@code key} from byte {@code offset}, or empty when the
     * store has no such key; a range past the end of the value is an IOException naming both.
     */
    default Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        Optional<byte[]> whole = get(key);
        if (whole.isEmpty()) {
            return whole;
        }
        byte[] value = whole.get();
        if (offset < 0 || length < 0 || offset + length > value.length) {
            throw new IOException("byte range [" + offset + ", " + (offset + length) + ") is outside the " + value.length + " bytes of key " + key);
        }
        return Optional.of(java.util.Arrays.copyOfRange(value, (int) offset, (int) offset + length));
    }

    /** The length in bytes of the value of {@code key}, or empty when the store has none. */
    default java.util.OptionalLong size(String key) throws IOException {
        Optional<byte[]> value = get(key);
        return value.isPresent() ? java.util.OptionalLong.of(value.get().length) : java.util.OptionalLong.empty();
    }

    /**
     * A hint that {@code key} will be read soon: a remote store starts fetching it, and its next
     * {@link #get} or {@link #map} takes what was fetched, so requests are in flight while the
     * reader computes. It returns at once and never fails; local stores ignore it.
     */
    default void prefetch(String key) {
    }

    /**
     * Whether each read is a request to a server, costing a round trip and the whole value's
     * transfer, so a reader that may need a value again soon keeps it rather than read it twice.
     * False for stores of local files and memory, whose reads map or copy what is already here.
     */
    default boolean isRemote() {
        return false;
    }

    /** Replaces the value of {@code key} atomically (see the class contract). */
    void set(String key, byte[] value) throws IOException;

    /**
     * {@link #set(String, byte[])} from the bytes of a segment, which the caller may reuse once this
     * returns: a store of files writes them from there, others take a copy.
     */
    default void set(String key, MemorySegment value) throws IOException {
        set(key, value.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
    }

    boolean contains(String key) throws IOException;

    /** Removes {@code key}; nothing happens when it is absent. */
    void delete(String key) throws IOException;

    /** Every key that starts with {@code prefix} (all keys for ""), in no particular order. */
    List<String> list(String prefix) throws IOException;

    /**
     * Every key that starts with {@code prefix}, with the length of its value: a store whose
     * listing gives sizes (S3's does) answers in one listing, others ask for each key's size.
     */
    default java.util.Map<String, Long> listSizes(String prefix) throws IOException {
        java.util.Map<String, Long> sizes = new java.util.LinkedHashMap<>();
        for (String key : list(prefix)) {
            // A key deleted since the listing takes no room.
            sizes.put(key, size(key).orElse(0));
        }
        return sizes;
    }

    /** Removes every key under {@code prefix} followed by {@code /}, and the key {@code prefix} itself. */
    default void deletePrefix(String prefix) throws IOException {
        String directory = prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
        for (String key : list(directory)) {
            delete(key);
        }
        if (!prefix.isEmpty() && contains(prefix)) {
            delete(prefix);
        }
    }

    /** A short description for messages: the directory of a directory store. */
    String describe();
}
