package org.tessera.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.io.TestArrays;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.npy.Npy;

/** toHdf5 writes files that Tessera reads back and that h5py reads (the h5py step is skipped where h5py is absent). */
class Hdf5WriteTest {
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final List<DType> WRITABLE = List.of(DType.INT8, DType.INT16, DType.INT32, DType.INT64, DType.UINT8, DType.UINT16,
            DType.UINT32, DType.UINT64, DType.FLOAT32, DType.FLOAT64);

    @TempDir
    Path directory;

    private Map<String, NDArray> values() {
        Map<String, NDArray> values = new LinkedHashMap<>();
        long seed = 1;
        for (DType dtype : WRITABLE) {
            values.put("/" + dtype.toString().toLowerCase(java.util.Locale.ROOT), TestArrays.random(dtype, seed++, 9, 7));
        }
        values.put("/groups/inner/volume", TestArrays.random(DType.FLOAT64, 42, 4, 5, 6));
        values.put("/groups/vector", TestArrays.random(DType.INT32, 43, 11));
        return values;
    }

    private static Map<String, ChunkedArray> chunked(Map<String, NDArray> values) {
        Map<String, ChunkedArray> arrays = new LinkedHashMap<>();
        values.forEach((path, array) -> arrays.put(path, Creation.asarray(array, ChunkSpec.size(4))));
        return arrays;
    }

    @Test
    void contiguousFilesReadBackExactly() throws IOException {
        Map<String, NDArray> values = values();
        Path file = directory.resolve("contiguous.h5");
        Hdf5.toHdf5(file, chunked(values), Hdf5WriteOptions.contiguous(), ChunkedArray.defaultScheduler());
        assertReadsBack(file, values, Hdf5Dataset.Layout.CONTIGUOUS);
    }

    @Test
    void chunkedFilesWithShuffleAndGzipReadBackExactly() throws IOException {
        Map<String, NDArray> matrices = new LinkedHashMap<>(values());
        matrices.keySet().removeIf(path -> path.startsWith("/groups"));
        Path file = directory.resolve("chunked.h5");
        Hdf5.toHdf5(file, chunked(matrices), Hdf5WriteOptions.chunked(4, 3).withShuffle().withGzip(4), ChunkedArray.defaultScheduler());
        assertReadsBack(file, matrices, Hdf5Dataset.Layout.CHUNKED);

        // Chunks longer than the dataset are clipped to it, as HDF5 requires of fixed-size datasets.
        NDArray volume = TestArrays.random(DType.FLOAT32, 9, 4, 5, 6);
        Path volumeFile = directory.resolve("volume.h5");
        Hdf5.toHdf5(Creation.asarray(volume, ChunkSpec.size(3)), volumeFile, "/a/b/volume", Hdf5WriteOptions.chunked(2, 3, 100).withGzip(1));
        try (Hdf5Dataset dataset = Hdf5.open(volumeFile, "/a/b/volume")) {
            org.junit.jupiter.api.Assertions.assertArrayEquals(new long[] {2, 3, 6}, dataset.chunkShape().orElseThrow());
            TestArrays.assertSameArray(volume, dataset.readAll(), "volume");
        }
    }

    private static void assertReadsBack(Path file, Map<String, NDArray> values, Hdf5Dataset.Layout layout) throws IOException {
        for (Map.Entry<String, NDArray> entry : values.entrySet()) {
            try (Hdf5Dataset dataset = Hdf5.open(file, entry.getKey())) {
                assertEquals(layout, dataset.layout(), entry.getKey());
                TestArrays.assertSameArray(entry.getValue(), dataset.readAll(), file.getFileName() + ":" + entry.getKey());
                TestArrays.assertSameArray(entry.getValue(), Hdf5.fromHdf5(dataset, ChunkSpec.size(2)).compute(),
                        file.getFileName() + ":" + entry.getKey() + " in blocks of 2");
            }
        }
    }

    @Test
    void h5pyReadsWhatIsWritten() throws IOException, InterruptedException {
        Assumptions.assumeTrue(Files.isExecutable(PYTHON) && python("import h5py").exitCode == 0,
                "h5py is not installed (" + PYTHON + " -c 'import h5py'); the interoperability check is skipped");
        NDArray matrix = TestArrays.random(DType.FLOAT64, 7, 13, 6);
        NDArray counts = TestArrays.random(DType.UINT16, 8, 10);
        Path file = directory.resolve("for_h5py.h5");
        Hdf5.toHdf5(Creation.asarray(matrix, ChunkSpec.size(5)), file, "/group/matrix", Hdf5WriteOptions.chunked(4, 4).withShuffle().withGzip(6));
        Npy.write(directory.resolve("matrix.npy"), matrix);
        Path countsFile = directory.resolve("counts.h5");
        Hdf5.toHdf5(Creation.asarray(counts, ChunkSpec.size(3)), countsFile, "counts");
        Npy.write(directory.resolve("counts.npy"), counts);
        Result result = python("""
                import sys, h5py, numpy as np
                d = sys.argv[1]
                with h5py.File(d + '/for_h5py.h5', 'r') as f:
                    x = f['group/matrix']
                    assert x.chunks == (4, 4) and x.compression == 'gzip' and x.shuffle, (x.chunks, x.compression, x.shuffle)
                    assert x.dtype == np.float64, x.dtype
                    assert np.array_equal(x[...], np.load(d + '/matrix.npy'))
                with h5py.File(d + '/counts.h5', 'r') as f:
                    c = f['counts']
                    assert c.dtype == np.uint16 and c.chunks is None, (c.dtype, c.chunks)
                    assert np.array_equal(c[...], np.load(d + '/counts.npy'))
                print('ok')
                """, directory.toString());
        assertEquals(0, result.exitCode, result.output);
        assertTrue(result.output.contains("ok"), result.output);
    }

    @Test
    void aDtypeJhdfCannotWriteIsRefusedBeforeAnythingIsWritten() {
        Path file = directory.resolve("bool.h5");
        ChunkedArray flags = Creation.asarray(TestArrays.random(DType.BOOL, 1, 4), ChunkSpec.size(2));
        Hdf5Exception failure = assertThrows(Hdf5Exception.class, () -> Hdf5.toHdf5(flags, file, "/flags"));
        assertTrue(failure.getMessage().contains("bool") && failure.getMessage().contains("/flags"), failure.getMessage());
        assertFalse(Files.exists(file));
    }

    @Test
    void aFailedWriteLeavesTheEarlierFile() throws IOException {
        Path file = directory.resolve("kept.h5");
        NDArray first = TestArrays.random(DType.FLOAT64, 3, 5, 5);
        Hdf5.toHdf5(Creation.asarray(first, ChunkSpec.size(5)), file, "/x");
        ChunkedArray failing = Creation.fromSource(new RegionSource() {
            @Override
            public long[] shape() {
                return new long[] {5, 5};
            }

            @Override
            public DType dtype() {
                return DType.FLOAT64;
            }

            @Override
            public NDArray read(long[] start, long[] shape) {
                throw new IllegalStateException("block at " + java.util.Arrays.toString(start) + " failed");
            }

            @Override
            public Object identity() {
                return "failing source";
            }
        }, ChunkSpec.size(5));
        assertThrows(RuntimeException.class, () -> Hdf5.toHdf5(failing, file, "/x"));
        try (Hdf5Dataset dataset = Hdf5.open(file, "/x")) {
            TestArrays.assertSameArray(first, dataset.readAll(), "the file written first");
        }
        try (var listing = Files.list(directory)) {
            assertEquals(List.of("kept.h5"), listing.map(path -> path.getFileName().toString()).toList());
        }
    }

    private record Result(int exitCode, String output) {
    }

    private static Result python(String script, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(PYTHON.toString(), "-c", script));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("python did not finish in 120 s");
        }
        return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
