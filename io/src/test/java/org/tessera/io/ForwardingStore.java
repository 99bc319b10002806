package org.tessera.io;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import org.tessera.io.store.Store;

/** A store in front of another that hands every call on; a test's store overrides only what it changes. */
public interface ForwardingStore extends Store {

    /** The store every call goes to. */
    Store inner();

    @Override
    default Optional<byte[]> get(String key) throws IOException {
        return inner().get(key);
    }

    @Override
    default void set(String key, byte[] value) throws IOException {
        inner().set(key, value);
    }

    @Override
    default boolean contains(String key) throws IOException {
        return inner().contains(key);
    }

    @Override
    default void delete(String key) throws IOException {
        inner().delete(key);
    }

    @Override
    default List<String> list(String prefix) throws IOException {
        return inner().list(prefix);
    }

    @Override
    default String describe() {
        return inner().describe();
    }
}
