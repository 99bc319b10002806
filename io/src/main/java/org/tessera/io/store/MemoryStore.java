package org.tessera.io.store;

import java.io.Serial;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A store in a concurrent map, for tests and for arrays that never touch a disk. Values are
 * copied in and out, so a caller cannot change what is stored.
 */
public final class MemoryStore implements Store {
    @Serial
    private static final long serialVersionUID = 1L;

    private final ConcurrentHashMap<String, byte[]> values = new ConcurrentHashMap<>();

    @Override
    public Optional<byte[]> get(String key) {
        byte[] value = values.get(StoreKeys.validate(key));
        return value == null ? Optional.empty() : Optional.of(value.clone());
    }

    @Override
    public void set(String key, byte[] value) {
        values.put(StoreKeys.validate(key), value.clone());
    }

    @Override
    public boolean contains(String key) {
        return values.containsKey(StoreKeys.validate(key));
    }

    @Override
    public void delete(String key) {
        values.remove(StoreKeys.validate(key));
    }

    @Override
    public List<String> list(String prefix) {
        return values.keySet().stream().filter(key -> key.startsWith(prefix)).toList();
    }

    @Override
    public String describe() {
        return "memory store@" + Integer.toHexString(System.identityHashCode(this));
    }

    @Override
    public String toString() {
        return describe();
    }
}
