package org.tessera.io.zarr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.io.TestArrays.assertSameArray;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.tessera.io.TestArrays;
import org.tessera.io.codec.Blosc;
import org.tessera.io.codec.Crc32c;
import org.tessera.io.codec.Gzip;
import org.tessera.io.codec.Zstd;
import org.tessera.io.store.MemoryStore;
import org.tessera.io.store.Store;
import org.tessera.io.zarr.ArrayCodec.Bytes;
import org.tessera.io.zarr.ArrayCodec.Compression;
import org.tessera.io.zarr.ArrayCodec.Sharding;
import org.tessera.io.zarr.ArrayCodec.Transpose;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * Zarr v3. zarr-python 3 cannot be installed on the machines this project runs on (Debian ships
 * zarr 2.13, whose "v3" is an abandoned draft), so the format is checked two ways: round trips
 * through Tessera, and documents and chunk bytes built by hand in these tests from the
 * specification (each hand-made fixture says what it encodes), which a v3 reader must accept.
 */
class ZarrV3Test {

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] littleEndianInts(int... values) {
        ByteBuffer buffer = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int value : values) {
            buffer.putInt(value);
        }
        return buffer.array();
    }

    private static NDArray ints(long[] shape, int... values) {
        NDArray array = NDArray.zeros(DType.INT32, shape);
        for (int position = 0; position < values.length; position++) {
            array.ravel().setLong(values[position], position);
        }
        return array;
    }

    @Test
    void readsAHandMadeArrayWithTheDefaultKeyEncodingAndAMissingChunk() throws IOException {
        // int32, shape [5] in chunks of [2], raw little-endian bytes, fill value 7; chunk c/1 was never written.
        Store store = new MemoryStore();
        store.set("a/zarr.json", utf8("""
                {"zarr_format": 3, "node_type": "array", "shape": [5], "data_type": "int32",
                 "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
                 "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
                 "fill_value": 7, "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
                 "attributes": {"answer": 42}, "dimension_names": ["x"]}"""));
        store.set("a/c/0", littleEndianInts(1, 2));
        store.set("a/c/2", littleEndianInts(5, 99));
        ZarrArray array = ZarrArray.open(store, "a");
        assertEquals(42, array.attributes().get("answer"));
        assertEquals(List.of("x"), ((ArrayMetadataV3) array.metadata()).dimensionNames());
        assertSameArray(ints(new long[] {5}, 1, 2, 7, 7, 5), array.readAll(), "default keys");
    }

    @Test
    void readsHandMadeBigEndianTransposedAndGzippedChunksWithVersion2Keys() throws IOException {
        // int32, shape [2, 3] in one chunk; transpose [1, 0], then big-endian bytes, then gzip; key "0.0" ("v2" encoding).
        // The stored elements are the transposed array [[1, 4], [2, 5], [3, 6]] in C order.
        Store store = new MemoryStore();
        store.set("t/zarr.json", utf8("""
                {"zarr_format": 3, "node_type": "array", "shape": [2, 3], "data_type": "int32",
                 "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 3]}},
                 "chunk_key_encoding": {"name": "v2", "configuration": {"separator": "."}},
                 "fill_value": 0,
                 "codecs": [{"name": "transpose", "configuration": {"order": [1, 0]}},
                            {"name": "bytes", "configuration": {"endian": "big"}},
                            {"name": "gzip", "configuration": {"level": 1}}],
                 "attributes": {}}"""));
        ByteBuffer bigEndian = ByteBuffer.allocate(24).order(ByteOrder.BIG_ENDIAN);
        for (int value : new int[] {1, 4, 2, 5, 3, 6}) {
            bigEndian.putInt(value);
        }
        ByteArrayOutputStream gzipped = new ByteArrayOutputStream();
        try (GZIPOutputStream output = new GZIPOutputStream(gzipped)) {
            output.write(bigEndian.array());
        }
        store.set("t/0.0", gzipped.toByteArray());
        assertSameArray(ints(new long[] {2, 3}, 1, 2, 3, 4, 5, 6), ZarrArray.open(store, "t").readAll(), "transposed");
    }

    @Test
    void readsAHandMadeShardWithAnEmptyInnerChunkAndAChecksummedIndex() throws IOException {
        // int32, shape [4, 4], one shard of [4, 4] holding inner chunks of [2, 2]. Inner chunk (0, 1) holds only
        // the fill value -1 and is absent: its index entry is (2^64 - 1, 2^64 - 1). The index (4 pairs of uint64,
        // little-endian) ends the shard, followed by its CRC-32C, little-endian.
        Store store = new MemoryStore();
        store.set("s/zarr.json", utf8("""
                {"zarr_format": 3, "node_type": "array", "shape": [4, 4], "data_type": "int32",
                 "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 4]}},
                 "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
                 "fill_value": -1,
                 "codecs": [{"name": "sharding_indexed", "configuration": {
                     "chunk_shape": [2, 2],
                     "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
                     "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
                     "index_location": "end"}}],
                 "attributes": {}}"""));
        byte[] chunk00 = littleEndianInts(0, 1, 4, 5);
        byte[] chunk10 = littleEndianInts(8, 9, 12, 13);
        byte[] chunk11 = littleEndianInts(10, 11, 14, 15);
        ByteBuffer index = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        index.putLong(0).putLong(16);
        index.putLong(-1L).putLong(-1L);
        index.putLong(16).putLong(16);
        index.putLong(32).putLong(16);
        CRC32C crc = new CRC32C();
        crc.update(index.array());
        ByteBuffer shard = ByteBuffer.allocate(48 + 64 + 4).order(ByteOrder.LITTLE_ENDIAN);
        shard.put(chunk00).put(chunk10).put(chunk11).put(index.array()).putInt((int) crc.getValue());
        store.set("s/c/0/0", shard.array());

        ZarrArray array = ZarrArray.open(store, "s");
        assertSameArray(ints(new long[] {4, 4}, 0, 1, -1, -1, 4, 5, -1, -1, 8, 9, 10, 11, 12, 13, 14, 15), array.readAll(), "hand-made shard");
        assertSameArray(ints(new long[] {2, 2}, 5, -1, 9, 10), array.readRegion(new long[] {1, 1}, new long[] {2, 2}), "region across inner chunks");
        // The same document written back by Tessera gives the same bytes.
        ZarrArray copy = ZarrArray.create(store, "copy", array.metadata());
        copy.writeAll(array.readAll());
        assertArrayEquals(shard.array(), store.get("copy/c/0/0").orElseThrow());
    }

    @Test
    void aCorruptShardIndexFailsItsChecksumWithTheKeyNamed() throws IOException {
        Store store = new MemoryStore();
        ZarrArray array = ZarrArray.create(store, "s", ArrayMetadataV3.sharded(new long[] {4}, new long[] {4}, new long[] {2}, DType.INT16));
        array.writeAll(TestArrays.random(DType.INT16, 3, 4));
        byte[] shard = store.get("s/c/0").orElseThrow();
        shard[shard.length - 10] ^= 1;
        store.set("s/c/0", shard);
        ZarrFormatException error = assertThrows(ZarrFormatException.class, array::readAll);
        assertTrue(error.getCause() != null && error.getCause().getMessage().contains("crc32c") || error.getMessage().contains("crc32c"), error.getMessage());
    }

    @Test
    void crc32cMatchesTheStandardCheckValue() throws IOException {
        // CRC-32C of "123456789" is 0xE3069283 (RFC 3720, appendix B.4), appended little-endian.
        byte[] encoded = new Crc32c().encode(utf8("123456789"), 1);
        assertArrayEquals(new byte[] {(byte) 0x83, (byte) 0x92, 0x06, (byte) 0xE3}, java.util.Arrays.copyOfRange(encoded, 9, 13));
    }

    @Test
    void fillValuesInEveryFormTheSpecificationAllows() throws IOException {
        assertEquals(FillValue.of(DType.FLOAT32, Double.NaN), FillValue.parse(ZarrJson.MAPPER.readTree("\"0x7fc00000\""), DType.FLOAT32, "test"));
        assertEquals(FillValue.of(DType.FLOAT64, Double.NEGATIVE_INFINITY), FillValue.parse(ZarrJson.MAPPER.readTree("\"-Infinity\""), DType.FLOAT64, "test"));
        assertEquals(FillValue.ofComplex(DType.COMPLEX64, Double.NaN, 2), FillValue.parse(ZarrJson.MAPPER.readTree("[\"NaN\", 2.0]"), DType.COMPLEX64, "test"));
        assertEquals(FillValue.ofLong(DType.UINT64, -1L), FillValue.parse(ZarrJson.MAPPER.readTree("18446744073709551615"), DType.UINT64, "test"));
        assertEquals(FillValue.ofLong(DType.BOOL, 1), FillValue.parse(ZarrJson.MAPPER.readTree("true"), DType.BOOL, "test"));
        ZarrFormatException error = assertThrows(ZarrFormatException.class,
                () -> FillValue.parse(ZarrJson.MAPPER.readTree("\"blue\""), DType.FLOAT64, "x/zarr.json"));
        assertTrue(error.getMessage().contains("x/zarr.json") && error.getMessage().contains("blue"), error.getMessage());
    }

    static List<ArrayMetadataV3> roundTripLayouts(DType dtype) {
        long[] shape = {10, 7};
        return List.of(
                ArrayMetadataV3.of(shape, new long[] {4, 3}, dtype),
                ArrayMetadataV3.of(shape, new long[] {4, 3}, dtype, new Gzip(5)),
                ArrayMetadataV3.of(shape, new long[] {3, 7}, dtype, new Zstd(3, true)),
                ArrayMetadataV3.of(shape, new long[] {5, 5}, dtype, new Blosc("lz4", 5, Blosc.Shuffle.BYTE, 0, 0), new Crc32c())
                        .withChunkKeyEncoding(ChunkKeyEncoding.version2(".")),
                ArrayMetadataV3.of(shape, new long[] {4, 4}, dtype).withCodecs(List.of(new Transpose(new int[] {1, 0}), new Bytes(Endian.BIG),
                        new Compression(new Zstd(1, false)))),
                ArrayMetadataV3.sharded(shape, new long[] {4, 6}, new long[] {2, 3}, dtype, new Zstd(1, false)),
                ArrayMetadataV3.sharded(shape, new long[] {8, 8}, new long[] {4, 2}, dtype, new Blosc("zstd", 3, Blosc.Shuffle.BIT, 0, 0))
                        .withFillValue(FillValue.of(dtype, 3)),
                ArrayMetadataV3.of(shape, new long[] {4, 6}, dtype).withCodecs(List.of(new Sharding(new long[] {2, 3},
                        List.of(new Bytes(Endian.BIG), new Compression(new Gzip(1))), List.of(new Bytes(Endian.LITTLE)), false))),
                // A shard of shards: the inner codec list may itself shard.
                ArrayMetadataV3.of(shape, new long[] {8, 6}, dtype).withCodecs(List.of(Sharding.of(new long[] {4, 6},
                        List.of(Sharding.of(new long[] {2, 3}, List.of(new Bytes(Endian.LITTLE))))))));
    }

    @Test
    void everyLayoutAndDtypeRoundTripsThroughTheStoreAndItsJson() throws IOException {
        Store store = new MemoryStore();
        int seed = 0;
        for (DType dtype : DType.values()) {
            for (ArrayMetadataV3 metadata : roundTripLayouts(dtype)) {
                String path = "a" + seed;
                NDArray values = TestArrays.random(dtype, seed++, 10, 7);
                ZarrArray.create(store, path, metadata, Map.of("dtype", dtype.numpyName()), false).writeAll(values);
                ZarrArray reopened = ZarrArray.open(store, path);
                assertEquals(metadata, reopened.metadata(), path);
                assertEquals(dtype.numpyName(), reopened.attributes().get("dtype"));
                assertSameArray(values, reopened.readAll(), path + " " + metadata);
                SplittableRandom random = new SplittableRandom(seed);
                for (int trial = 0; trial < 5; trial++) {
                    long[] start = {random.nextLong(10), random.nextLong(7)};
                    long[] regionShape = {1 + random.nextLong(10 - start[0]), 1 + random.nextLong(7 - start[1])};
                    assertSameArray(values.slice(0, start[0], 1, regionShape[0]).slice(1, start[1], 1, regionShape[1]),
                            reopened.readRegion(start, regionShape), path + " region");
                }
            }
        }
    }

    @Test
    void innerChunksHoldingOnlyTheFillValueAreLeftOutOfTheShard() throws IOException {
        Store store = new MemoryStore();
        ZarrArray array = ZarrArray.create(store, "x", ArrayMetadataV3.sharded(new long[] {8}, new long[] {8}, new long[] {2}, DType.FLOAT64));
        NDArray values = NDArray.zeros(DType.FLOAT64, 8);
        values.setDouble(2.5, 3);
        array.writeAll(values);
        // One stored inner chunk of 16 bytes, plus an index of 4 entries (64 bytes) and its checksum.
        assertEquals(16 + 64 + 4, store.get("x/c/0").orElseThrow().length);
        assertSameArray(values, array.readAll(), "sparse shard");
    }

    @Test
    void groupsNestAndKeepTheirAttributesInZarrJson() throws IOException {
        Store store = new MemoryStore();
        ZarrGroup root = ZarrGroup.create(store, "", 3, Map.of("title", "v3"));
        ZarrGroup child = root.createGroup("child").withAttributes(Map.of("level", 1));
        child.createArray("values", ArrayMetadataV3.of(new long[] {3}, new long[] {2}, DType.INT8));
        assertEquals(List.of("child"), ZarrGroup.open(store, "").memberNames());
        assertEquals(List.of("values"), root.group("child").memberNames());
        assertEquals(Map.of("level", 1), root.group("child").attributes());
        assertEquals("v3", ZarrGroup.open(store, "").attributes().get("title"));
        String json = new String(store.get("child/zarr.json").orElseThrow(), StandardCharsets.UTF_8);
        assertTrue(json.contains("\"node_type\" : \"group\""), json);
        assertThrows(IllegalArgumentException.class, () -> root.createArray("v2", ArrayMetadataV2.of(new long[] {1}, new long[] {1}, DType.INT8)));
    }

    @Test
    void unsupportedPartsOfTheFormatAreRefusedByName() throws IOException {
        Store store = new MemoryStore();
        store.set("x/zarr.json", utf8("""
                {"zarr_format": 3, "node_type": "array", "shape": [4], "data_type": "int32",
                 "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
                 "fill_value": 0, "codecs": [{"name": "bytes"}, {"name": "lz4"}], "attributes": {}}"""));
        ZarrFormatException codec = assertThrows(ZarrFormatException.class, () -> ZarrArray.open(store, "x"));
        assertTrue(codec.getMessage().contains("\"lz4\"") && codec.getMessage().contains("x/zarr.json"), codec.getMessage());
        store.set("y/zarr.json", utf8("""
                {"zarr_format": 3, "node_type": "array", "shape": [4], "data_type": "string",
                 "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
                 "fill_value": "", "codecs": [{"name": "bytes"}], "attributes": {}}"""));
        ZarrFormatException type = assertThrows(ZarrFormatException.class, () -> ZarrArray.open(store, "y"));
        assertTrue(type.getMessage().contains("\"string\""), type.getMessage());
        IllegalArgumentException shards = assertThrows(IllegalArgumentException.class,
                () -> ArrayMetadataV3.sharded(new long[] {10}, new long[] {5}, new long[] {2}, DType.INT8));
        assertTrue(shards.getMessage().contains("[5]") && shards.getMessage().contains("[2]"), shards.getMessage());
        assertFalse(ZarrNodes.exists(store, "z"));
    }
}
