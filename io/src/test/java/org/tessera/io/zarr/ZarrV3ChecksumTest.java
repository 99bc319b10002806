package org.tessera.io.zarr;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.io.TestArrays.assertSameArray;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.io.TestArrays;
import org.tessera.io.codec.Crc32c;
import org.tessera.io.codec.Zstd;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.store.Store;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * Zarr v3's crc32c codec is checked on every read: one flipped bit anywhere in a stored chunk (its
 * data or its checksum) is a ZarrFormatException naming the store and the chunk key, and the
 * chunks beside it still read.
 */
class ZarrV3ChecksumTest {
    @TempDir
    Path directory;

    @Test
    void everyFlippedBitOfAChecksummedChunkIsCaughtWithTheStoreAndKeyNamed() throws IOException {
        Store store = DirectoryStore.open(directory);
        NDArray values = TestArrays.random(DType.INT32, 7, 10, 7);
        ZarrArray array = ZarrArray.create(store, "a", ArrayMetadataV3.of(new long[] {10, 7}, new long[] {4, 3}, DType.INT32, new Zstd(1, false), new Crc32c()));
        array.writeAll(values);
        String key = "a/c/1/2";
        byte[] intact = store.get(key).orElseThrow();
        SplittableRandom random = new SplittableRandom(11);
        // Every byte position (the checksum's four included), each with one random bit flipped.
        for (int position = 0; position < intact.length; position++) {
            byte[] corrupt = intact.clone();
            corrupt[position] ^= (byte) (1 << random.nextInt(8));
            store.set(key, corrupt);
            ZarrFormatException failure = assertThrows(ZarrFormatException.class, () -> ZarrArray.open(store, "a").readAll(), "bit flipped at byte " + position);
            String message = failure.getMessage();
            assertTrue(message.contains(store.describe()) && message.contains("chunk " + key) && message.contains("crc32c"), message);
        }
        // The chunks beside it are untouched: rows 0..3 hold chunks (0, *) only.
        assertSameArray(values.slice(0, 0, 1, 4), ZarrArray.open(store, "a").readRegion(new long[] {0, 0}, new long[] {4, 7}), "other chunks");
        store.set(key, intact);
        assertSameArray(values, ZarrArray.open(store, "a").readAll(), "restored chunk");
    }

    @Test
    void aFlippedBitInAChecksummedInnerChunkNamesTheShardAndTheInnerChunk() throws IOException {
        Store store = DirectoryStore.open(directory);
        NDArray values = TestArrays.random(DType.FLOAT64, 8, 8, 6);
        ZarrArray array = ZarrArray.create(store, "s", ArrayMetadataV3.sharded(new long[] {8, 6}, new long[] {8, 6}, new long[] {4, 3}, DType.FLOAT64, new Crc32c()));
        array.writeAll(values);
        byte[] shard = store.get("s/c/0/0").orElseThrow();
        // Inner chunks are 4 x 3 float64 = 96 bytes plus their 4-byte checksum, stored in C order from byte 0.
        shard[100 + 17] ^= 0x04;
        store.set("s/c/0/0", shard);
        ZarrArray reopened = ZarrArray.open(store, "s");
        ZarrFormatException failure = assertThrows(ZarrFormatException.class, () -> reopened.readRegion(new long[] {0, 3}, new long[] {1, 1}));
        String message = failure.getMessage();
        assertTrue(message.contains(store.describe()) && message.contains("chunk s/c/0/0") && message.contains("inner chunk [0, 1]")
                && message.contains("crc32c"), message);
        assertSameArray(values.slice(0, 4, 1, 4), reopened.readRegion(new long[] {4, 0}, new long[] {4, 6}), "the other inner chunks");
    }
}
