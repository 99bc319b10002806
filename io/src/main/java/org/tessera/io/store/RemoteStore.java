package org.tessera.io.store;

import java.io.IOException;
import java.io.Serial;
import java.util.Optional;

/**
 * A store whose values live on a server ({@link S3Store}, {@link HttpStore}): every read is a
 * request, so reads take what {@link #prefetch} hints fetched ahead ({@link ReadAhead}), and
 * {@link #isRemote()} tells readers to keep what they fetched.
 */
abstract class RemoteStore implements Store {
    @Serial
    private static final long serialVersionUID = 1L;

    /** Values fetched ahead of their reads. */
    private final ReadAhead readAhead = new ReadAhead();

    /** The value of {@code key}, a valid key, fetched from the server now; empty when it has none. */
    abstract Optional<byte[]> fetch(String key) throws IOException;

    @Override
    public final Optional<byte[]> get(String key) throws IOException {
        return readAhead.get(StoreKeys.validate(key), this::fetch);
    }

    @Override
    public final boolean isRemote() {
        return true;
    }

    @Override
    public final void prefetch(String key) {
        readAhead.hint(StoreKeys.validate(key), this::fetch);
    }

    /** How many values fetched ahead are held or in flight. */
    final int prefetchedValues() {
        return readAhead.size();
    }
}
