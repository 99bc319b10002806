package org.tessera.io.zarr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.io.TestArrays.assertSameArray;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.io.StoreOptions;
import org.tessera.io.TestArrays;
import org.tessera.io.codec.Blosc;
import org.tessera.io.codec.ByteCodec;
import org.tessera.io.codec.Gzip;
import org.tessera.io.codec.Zlib;
import org.tessera.io.codec.Zstd;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.store.MemoryStore;
import org.tessera.io.store.Store;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Order;
import org.tessera.ndarray.npy.Npy;

/** Zarr v2 arrays written by Tessera: read back by Tessera, and opened by real zarr-python when it is installed. */
class ZarrV2WriteTest {
    @TempDir
    Path directory;

    /** One array to write: its metadata, its values, and the region written (null for all). */
    record Case(String name, ArrayMetadataV2 metadata, NDArray values, long[] writtenStart, long[] writtenShape) {
    }

    private static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        ByteCodec[] compressors = {null, new Gzip(5), new Zlib(1), new Zstd(3, false), new Zstd(1, true), Blosc.defaults(),
                new Blosc("zstd", 3, Blosc.Shuffle.BIT, 0, 0), new Blosc("blosclz", 9, Blosc.Shuffle.NONE, 0, 0),
                new Blosc("lz4hc", 5, Blosc.Shuffle.AUTO, 0, 0), new Blosc("zlib", 1, Blosc.Shuffle.BYTE, 0, 0)};
        DType[] dtypes = DType.values();
        int seed = 0;
        for (ByteCodec compressor : compressors) {
            for (DType dtype : dtypes) {
                String name = dtype + "_" + (compressor == null ? "none" : compressor.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT) + seed);
                NDArray values = TestArrays.random(dtype, seed++, 7, 5);
                cases.add(new Case(name, ArrayMetadataV2.of(new long[] {7, 5}, new long[] {3, 2}, dtype).withCompressor(compressor), values, null, null));
            }
        }
        cases.add(new Case("bigendian_float64", ArrayMetadataV2.of(new long[] {5, 4}, new long[] {2, 3}, DType.FLOAT64).withEndian(Endian.BIG)
                .withCompressor(new Zlib(1)), TestArrays.random(DType.FLOAT64, 101, 5, 4), null, null));
        cases.add(new Case("bigendian_complex64", ArrayMetadataV2.of(new long[] {4}, new long[] {3}, DType.COMPLEX64).withEndian(Endian.BIG),
                TestArrays.random(DType.COMPLEX64, 102, 4), null, null));
        cases.add(new Case("bigendian_uint16_blosc", ArrayMetadataV2.of(new long[] {9}, new long[] {4}, DType.UINT16).withEndian(Endian.BIG),
                TestArrays.random(DType.UINT16, 103, 9), null, null));
        cases.add(new Case("fortran_order_int32", ArrayMetadataV2.of(new long[] {6, 7}, new long[] {4, 3}, DType.INT32).withOrder(Order.F),
                TestArrays.random(DType.INT32, 104, 6, 7), null, null));
        cases.add(new Case("nested_separator_int16", ArrayMetadataV2.of(new long[] {5, 5, 3}, new long[] {2, 2, 2}, DType.INT16).withDimensionSeparator("/"),
                TestArrays.random(DType.INT16, 105, 5, 5, 3), null, null));
        cases.add(new Case("scalar_float32", ArrayMetadataV2.of(new long[0], new long[0], DType.FLOAT32), TestArrays.random(DType.FLOAT32, 106), null, null));
        cases.add(new Case("nan_fill_missing", ArrayMetadataV2.of(new long[] {6, 6}, new long[] {4, 4}, DType.FLOAT64)
                .withFillValue(FillValue.of(DType.FLOAT64, Double.NaN)), TestArrays.random(DType.FLOAT64, 107, 6, 6), new long[] {0, 0}, new long[] {4, 4}));
        cases.add(new Case("infinity_fill_missing", ArrayMetadataV2.of(new long[] {5}, new long[] {2}, DType.FLOAT32)
                .withFillValue(FillValue.of(DType.FLOAT32, Double.NEGATIVE_INFINITY)), TestArrays.random(DType.FLOAT32, 108, 5), new long[] {1}, new long[] {2}));
        cases.add(new Case("complex_fill_missing", ArrayMetadataV2.of(new long[] {4, 4}, new long[] {2, 2}, DType.COMPLEX128)
                .withFillValue(FillValue.ofComplex(DType.COMPLEX128, 1.5, -2)), TestArrays.random(DType.COMPLEX128, 109, 4, 4), new long[] {1, 1}, new long[] {2, 3}));
        cases.add(new Case("uint64_max_fill_missing", ArrayMetadataV2.of(new long[] {3, 4}, new long[] {2, 2}, DType.UINT64)
                .withFillValue(FillValue.ofLong(DType.UINT64, -1L)), TestArrays.random(DType.UINT64, 110, 3, 4), new long[] {0, 0}, new long[] {2, 2}));
        cases.add(new Case("bool_true_fill_missing", ArrayMetadataV2.of(new long[] {9}, new long[] {4}, DType.BOOL)
                .withFillValue(FillValue.ofLong(DType.BOOL, 1)), TestArrays.random(DType.BOOL, 111, 9), new long[] {0}, new long[] {4}));
        cases.add(new Case("no_fill_value", ArrayMetadataV2.of(new long[] {3}, new long[] {2}, DType.INT8).withFillValue(FillValue.none(DType.INT8)),
                TestArrays.random(DType.INT8, 112, 3), null, null));
        return cases;
    }

    /** The values a reader must see: the written region, the fill value (zero when undefined) elsewhere. */
    private static NDArray expected(Case testCase) {
        if (testCase.writtenStart() == null) {
            return testCase.values();
        }
        NDArray expected = testCase.metadata().fillValue().fill(testCase.values().shape());
        NDArray target = expected;
        NDArray source = testCase.values();
        for (int axis = 0; axis < testCase.writtenStart().length; axis++) {
            target = target.slice(axis, testCase.writtenStart()[axis], 1, testCase.writtenShape()[axis]);
            source = source.slice(axis, testCase.writtenStart()[axis], 1, testCase.writtenShape()[axis]);
        }
        target.assign(source);
        return expected;
    }

    private static void write(ZarrArray array, Case testCase) throws IOException {
        if (testCase.writtenStart() == null) {
            array.writeAll(testCase.values());
            return;
        }
        NDArray part = testCase.values();
        for (int axis = 0; axis < testCase.writtenStart().length; axis++) {
            part = part.slice(axis, testCase.writtenStart()[axis], 1, testCase.writtenShape()[axis]);
        }
        array.writeRegion(testCase.writtenStart(), part);
    }

    @Test
    void everyDtypeCompressorAndLayoutReadsBackExactly() throws IOException {
        Store store = new MemoryStore();
        for (Case testCase : cases()) {
            ZarrArray written = ZarrArray.create(store, testCase.name(), testCase.metadata());
            write(written, testCase);
            ZarrArray reopened = ZarrArray.open(store, testCase.name());
            assertEquals(testCase.metadata(), reopened.metadata(), testCase.name());
            assertSameArray(expected(testCase), reopened.readAll(), testCase.name());
        }
    }

    @Test
    void zarrPythonReadsWhatTesseraWrote() throws Exception {
        ZarrPython.assumeAvailable();
        Path root = directory.resolve("written.zarr");
        Store store = DirectoryStore.open(root);
        ZarrGroup group = ZarrGroup.create(store, "", 2, Map.of("title", "written by Tessera", "numbers", List.of(1, 2.5)));
        ZarrGroup nested = group.createGroup("nested");
        nested.withAttributes(Map.of("level", 1));
        ArrayNode manifest = ZarrJson.MAPPER.createArrayNode();
        Path expectedDirectory = Files.createDirectories(directory.resolve("expected"));
        int index = 0;
        List<Case> readable = cases().stream()
                // numcodecs before 0.13 (Debian has 0.11) refuses zstd's "checksum" argument; newer ones read it.
                .filter(testCase -> !(testCase.metadata().compressor() instanceof Zstd zstd && zstd.checksum())).toList();
        for (Case testCase : readable) {
            // Every third array goes where no group was made: creating it makes the groups above it.
            String path = List.of("", "nested/", "made/on/demand/").get(index++ % 3) + testCase.name();
            ZarrArray array = ZarrArray.create(store, path, testCase.metadata());
            write(array, testCase);
            Npy.write(expectedDirectory.resolve(testCase.name() + ".npy"), expected(testCase));
            ObjectNode entry = manifest.addObject();
            entry.put("path", path).put("expected", expectedDirectory.resolve(testCase.name() + ".npy").toString())
                    .put("dtype", ZarrDataTypes.version2Name(testCase.metadata().dtype(), testCase.metadata().endian().byteOrder()));
        }
        ZarrArray withAttributes = ZarrArray.open(store, "nested/" + cases().get(1).name()).withAttributes(Map.of("units", "K"));
        Files.write(directory.resolve("manifest.json"), ZarrJson.write(manifest));
        String script = String.join("\n",
                "import json, sys, numpy as np, zarr",
                "root = zarr.open_group(sys.argv[1], mode='r')",
                "assert root.attrs['title'] == 'written by Tessera', dict(root.attrs)",
                "assert root.attrs['numbers'] == [1, 2.5]",
                "assert root['nested'].attrs['level'] == 1",
                "assert isinstance(root['made/on'], zarr.hierarchy.Group)",
                "assert root[sys.argv[3]].attrs['units'] == 'K'",
                "checked = 0",
                "for entry in json.load(open(sys.argv[2])):",
                "    array = root[entry['path']]",
                "    assert array.dtype.str == entry['dtype'], (entry, array.dtype.str)",
                "    values = array[...]",
                "    expected = np.load(entry['expected'])",
                "    assert values.shape == expected.shape, (entry, values.shape, expected.shape)",
                "    native = values.astype(values.dtype.newbyteorder('<'))",
                "    assert native.tobytes() == expected.tobytes(), (entry['path'], native, expected)",
                "    checked += 1",
                "print('checked', checked)");
        ZarrPython.Result result = ZarrPython.run(script, List.of(root.toString(), directory.resolve("manifest.json").toString(), withAttributes.path()));
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("checked " + readable.size()), result.output());
    }

    @Test
    void zarrPythonReadsAChunkedArrayStoredBlockByBlock() throws Exception {
        ZarrPython.assumeAvailable();
        ChunkedArray source = Creation.random(12, Creation.Distribution.UNIFORM, new long[] {50, 40}, ChunkSpec.of(20, 15));
        Path target = directory.resolve("chunked.zarr");
        ZarrArray stored = Zarr.toZarr(source, target, 16, 16);
        assertArrayEquals(new int[] {4, 3}, stored.chunkCounts());
        Npy.write(directory.resolve("chunked.npy"), source.compute());
        ZarrPython.Result result = ZarrPython.run(String.join("\n",
                "import sys, numpy as np, zarr",
                "z = zarr.open_array(sys.argv[1], mode='r')",
                "assert z.chunks == (16, 16) and z.shape == (50, 40), (z.chunks, z.shape)",
                "assert z.compressor.codec_id == 'blosc', z.compressor",
                "assert z.nchunks_initialized == 12, z.nchunks_initialized",
                "assert np.array_equal(z[...], np.load(sys.argv[2]))",
                "print('ok')"), List.of(target.toString(), directory.resolve("chunked.npy").toString()));
        assertEquals(0, result.exitCode(), result.output());
    }

    @Test
    void creatingOverAnExistingNodeIsRefusedUnlessOverwriting() throws IOException {
        Store store = new MemoryStore();
        ArrayMetadataV2 metadata = ArrayMetadataV2.of(new long[] {4}, new long[] {2}, DType.INT32);
        ZarrArray.create(store, "x", metadata).writeAll(TestArrays.random(DType.INT32, 1, 4));
        FileAlreadyExistsException error = assertThrows(FileAlreadyExistsException.class, () -> ZarrArray.create(store, "x", metadata));
        assertTrue(error.getMessage().contains("\"x\""), error.getMessage());
        ZarrArray replaced = ZarrArray.create(store, "x", metadata, Map.of(), true);
        assertTrue(!replaced.hasChunk(new int[] {0}));
    }

    @Test
    void badMetadataIsAZarrFormatExceptionNamingTheKeyAndTheField() throws IOException {
        Store store = new MemoryStore();
        Map<String, String> documents = new LinkedHashMap<>();
        documents.put("datetime", "{\"zarr_format\": 2, \"shape\": [2], \"chunks\": [2], \"dtype\": \"<M8[ns]\", \"compressor\": null, \"fill_value\": 0, \"order\": \"C\", \"filters\": null}");
        documents.put("filters", "{\"zarr_format\": 2, \"shape\": [2], \"chunks\": [2], \"dtype\": \"<f8\", \"compressor\": null, \"fill_value\": 0, \"order\": \"C\", \"filters\": [{\"id\": \"delta\", \"dtype\": \"<f8\"}]}");
        documents.put("lzma", "{\"zarr_format\": 2, \"shape\": [2], \"chunks\": [2], \"dtype\": \"<f8\", \"compressor\": {\"id\": \"lzma\"}, \"fill_value\": 0, \"order\": \"C\", \"filters\": null}");
        documents.put("shape", "{\"zarr_format\": 2, \"chunks\": [2], \"dtype\": \"<f8\", \"compressor\": null, \"fill_value\": 0, \"order\": \"C\", \"filters\": null}");
        documents.put("mismatch", "{\"zarr_format\": 2, \"shape\": [2, 2], \"chunks\": [2], \"dtype\": \"<f8\", \"compressor\": null, \"fill_value\": 0, \"order\": \"C\", \"filters\": null}");
        Map<String, String> expectedWords = Map.of("datetime", "<M8[ns]", "filters", "delta", "lzma", "\"lzma\"", "shape", "\"shape\"", "mismatch", "axes");
        for (var document : documents.entrySet()) {
            store.set(document.getKey() + "/.zarray", document.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            ZarrFormatException error = assertThrows(ZarrFormatException.class, () -> ZarrArray.open(store, document.getKey()));
            assertTrue(error.getMessage().contains(document.getKey() + "/.zarray") && error.getMessage().contains(expectedWords.get(document.getKey())),
                    error.getMessage());
        }
    }

    @Test
    void aChunkThatDecodesToTheWrongSizeNamesItsKeyAndBothSizes() throws IOException {
        Store store = new MemoryStore();
        ZarrArray array = ZarrArray.create(store, "x", ArrayMetadataV2.of(new long[] {4}, new long[] {4}, DType.FLOAT64).withCompressor(null));
        store.set("x/0", new byte[12]);
        ZarrFormatException error = assertThrows(ZarrFormatException.class, array::readAll);
        assertTrue(error.getMessage().contains("x/0") && error.getMessage().contains("12 bytes") && error.getMessage().contains("32"), error.getMessage());
    }

    @Test
    void aBloscChunkIsWrittenFromPooledNativeMemoryWithoutChunkSizedArrays() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Blosc.defaults().encodesInto(), "no system c-blosc here (apt-get install libblosc1)");
        long[] shape = {1000, 1000};
        ZarrArray array = ZarrArray.create(DirectoryStore.open(directory), "pooled", ArrayMetadataV2.of(shape, shape, DType.FLOAT64));
        NDArray first = TestArrays.random(DType.FLOAT64, 11, shape);
        NDArray second = TestArrays.random(DType.FLOAT64, 12, shape);
        array.writeChunk(new int[] {0, 0}, first);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        array.writeChunk(new int[] {0, 0}, second);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // An 8 MB chunk: through byte arrays, its raw bytes and the compressor's output took 10.5 MB.
        assertTrue(allocated < 1 << 20, "writing an 8 MB chunk allocated " + allocated + " bytes");
        assertSameArray(second, array.readAll(), "the chunk written from native memory");
        // The frame is an ordinary Blosc frame: the JNI library decodes it too.
        byte[] stored = Files.readAllBytes(directory.resolve("pooled").resolve("0.0"));
        byte[] decoded = Blosc.defaults().decode(stored);
        NDArray fromJni = NDArray.wrap(java.lang.foreign.MemorySegment.ofArray(decoded), 0, shape, new long[] {shape[1] * Double.BYTES, Double.BYTES},
                DType.FLOAT64, false);
        assertSameArray(second, fromJni, "the frame decoded by blosc-java");
    }

    @Test
    void storingAGeneratedArrayMakesEachBlockInTheWritingTasksScratch() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Blosc.defaults().encodesInto(), "no system c-blosc here (apt-get install libblosc1)");
        long[] shape = {2000, 1000};
        long[] chunks = {500, 1000};
        ChunkedArray values = Creation.random(3, Creation.Distribution.UNIFORM, shape, ChunkSpec.of(chunks));
        StoreOptions synchronous = StoreOptions.defaults().withScheduler(new org.tessera.graph.schedule.SynchronousScheduler());
        ZarrArray first = ZarrArray.create(DirectoryStore.open(directory.resolve("first")), "", ArrayMetadataV2.of(shape, chunks, DType.FLOAT64));
        Zarr.store(values, first, synchronous);
        ZarrArray second = ZarrArray.create(DirectoryStore.open(directory.resolve("second")), "", ArrayMetadataV2.of(shape, chunks, DType.FLOAT64));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        Zarr.store(values, second, synchronous);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // 16 MB in 4 MB blocks: each made whole on the heap, then copied out and compressed into byte arrays, took 46 MB.
        long arrayBytes = shape[0] * shape[1] * Double.BYTES;
        assertTrue(allocated < arrayBytes / 4, "storing " + arrayBytes + " bytes allocated " + allocated);
        assertSameArray(values.compute(), second.readAll(), "the stored values");
    }

    /**
     * A chunk whose memory holds its stored bytes (heap or native, C- or F-contiguous as the array
     * stores it) is compressed from there, any other laid out first: every way of holding the same
     * values stores the same frame, which reads back as those values.
     */
    @Test
    void everyMemoryOfAChunkStoresTheSameFrame() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Blosc.defaults().encodesInto(), "no system c-blosc here (apt-get install libblosc1)");
        long[] shape = {300, 200};
        NDArray values = TestArrays.random(DType.FLOAT64, 21, shape);
        NDArray nativeCopy = NDArray.zerosNative(DType.FLOAT64, shape);
        nativeCopy.assign(values);
        NDArray fortran = values.asfortranarray();
        NDArray transposedTwice = values.transpose().copy().transpose();
        Map<String, NDArray> holders = new LinkedHashMap<>();
        holders.put("heap", values);
        holders.put("native", nativeCopy);
        holders.put("fortran", fortran);
        holders.put("view", transposedTwice);
        holders.put("float32", values.astype(DType.FLOAT32));
        for (Order order : Order.values()) {
            for (Endian endian : new Endian[] {Endian.LITTLE, Endian.BIG}) {
                byte[] reference = null;
                for (Map.Entry<String, NDArray> holder : holders.entrySet()) {
                    String name = order + "_" + endian + "_" + holder.getKey();
                    ZarrArray array = ZarrArray.create(DirectoryStore.open(directory), name,
                            ArrayMetadataV2.of(shape, shape, DType.FLOAT64).withOrder(order).withEndian(endian));
                    array.writeChunk(new int[] {0, 0}, holder.getValue());
                    assertSameArray(holder.getValue().astype(DType.FLOAT64), array.readAll(), name);
                    byte[] stored = Files.readAllBytes(directory.resolve(name).resolve("0.0"));
                    if (!holder.getKey().equals("float32")) {
                        if (reference == null) {
                            reference = stored;
                        }
                        assertArrayEquals(reference, stored, name);
                    }
                }
            }
        }
    }
}
