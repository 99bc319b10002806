package org.tessera.io.zarr;

import java.io.IOException;
import java.util.Arrays;

import org.tessera.io.store.Store;

/**
 * The bytes of one shard, read whole or by ranges: a region that needs a few inner chunks of a
 * large shard reads its index and those chunks, not the shard.
 */
interface ShardBytes {

    long size();

    byte[] read(long offset, int length) throws IOException;

    /** A shard already in memory. */
    static ShardBytes of(byte[] bytes) {
        return new ShardBytes() {
            @Override
            public long size() {
                return bytes.length;
            }

            @Override
            public byte[] read(long offset, int length) {
                return Arrays.copyOfRange(bytes, (int) offset, (int) offset + length);
            }
        };
    }

    /** A shard of {@code size} bytes under {@code key}, read by ranged reads of the store. */
    static ShardBytes ranges(Store store, String key, long size) {
        return new ShardBytes() {
            @Override
            public long size() {
                return size;
            }

            @Override
            public byte[] read(long offset, int length) throws IOException {
                return store.getRange(key, offset, length)
                        .orElseThrow(() -> new java.nio.file.NoSuchFileException(store.describe() + ": shard " + key + " disappeared while being read"));
            }
        };
    }
}
