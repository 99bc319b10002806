package org.tessera.io.zarr;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import com.code_intelligence.jazzer.junit.FuzzTest;

import org.junit.jupiter.api.Test;
import org.tessera.io.Hostile;
import org.tessera.io.store.MemoryStore;

/**
 * Zarr metadata and chunks as a store hands them over. An input is a metadata document, a zero
 * byte, then the bytes of chunk (0, ..., 0) (JSON holds no zero byte); the array is opened and a
 * region of at most {@value #REGION} elements at its origin read, as a reader of a hostile store
 * would. Failures must be IOExceptions naming the metadata key or the chunk key. Seeds in
 * {@code ZarrFuzzTestInputs/<method>/} are zarr-python's fixtures and Tessera's own v3 arrays.
 */
class ZarrFuzzTest {
    private static final long REGION = 4096;

    /** A {@code .zarray} document, then a chunk. */
    @FuzzTest(maxDuration = "60s")
    void zarrV2(byte[] input) {
        byte[][] parts = Hostile.split(input, 2);
        MemoryStore store = new MemoryStore();
        store.set("a/.zarray", parts[0]);
        Hostile.read(() -> readOrigin(store, parts[1]), ".zarray", "chunk a/");
    }

    /** A {@code zarr.json} array document with its codec chain (sharding included), then a chunk or shard. */
    @FuzzTest(maxDuration = "60s")
    void zarrV3(byte[] input) {
        byte[][] parts = Hostile.split(input, 2);
        MemoryStore store = new MemoryStore();
        store.set("a/zarr.json", parts[0]);
        Hostile.read(() -> readOrigin(store, parts[1]), "zarr.json", "chunk a/");
    }

    /** A {@code .zgroup}, then a {@code .zattrs}; or, when the first part is not a v2 group, a v3 group's {@code zarr.json}. */
    @FuzzTest(maxDuration = "60s")
    void group(byte[] input) {
        byte[][] parts = Hostile.split(input, 2);
        MemoryStore version2 = new MemoryStore();
        version2.set("g/.zgroup", parts[0]);
        version2.set("g/.zattrs", parts[1]);
        Hostile.read(() -> ZarrGroup.open(version2, "g").attributes(), ".zgroup", ".zattrs");
        MemoryStore version3 = new MemoryStore();
        version3.set("g/zarr.json", parts[0]);
        Hostile.read(() -> ZarrGroup.open(version3, "g").attributes(), "zarr.json");
        // .zattrs beside an array: the attributes of an array are parsed when it is opened.
        MemoryStore array = new MemoryStore();
        array.set("a/.zarray", "{\"zarr_format\":2,\"shape\":[2],\"chunks\":[2],\"dtype\":\"<i4\",\"compressor\":null,\"fill_value\":0}".getBytes());
        array.set("a/.zattrs", parts[1]);
        Hostile.read(() -> ZarrArray.open(array, "a").attributes(), ".zattrs");
    }

    /** The array seeds are valid: each opens and its origin region reads, holding something other than the fill value. */
    @Test
    void seedsRead() throws Exception {
        for (String method : new String[] {"zarrV2", "zarrV3"}) {
            for (Path seed : Hostile.seeds(ZarrFuzzTest.class, method)) {
                byte[][] parts = Hostile.split(Files.readAllBytes(seed), 2);
                MemoryStore store = new MemoryStore();
                store.set(method.equals("zarrV2") ? "a/.zarray" : "a/zarr.json", parts[0]);
                readOrigin(store, parts[1]);
                ZarrArray array = ZarrArray.open(store, "a");
                var values = array.readRegion(new long[array.metadata().shape().length], Hostile.smallRegion(array.metadata().shape(), REGION));
                assertTrue(values.size() == 0 || !array.metadata().fillValue().matchesEveryElement(values), seed + " reads as all fill");
            }
        }
    }

    private static void readOrigin(MemoryStore store, byte[] chunk) throws java.io.IOException {
        ZarrArray array = ZarrArray.open(store, "a");
        ArrayMetadata metadata = array.metadata();
        store.set("a/" + metadata.chunkKey(new int[metadata.shape().length]), chunk);
        array.readRegion(new long[metadata.shape().length], Hostile.smallRegion(metadata.shape(), REGION));
    }
}
