package org.tessera.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.io.StoreOptions;
import org.tessera.io.hdf5.Hdf5;
import org.tessera.io.hdf5.Hdf5WriteOptions;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.zarr.ArrayMetadataV3;
import org.tessera.io.zarr.Zarr;
import org.tessera.io.zarr.ZarrGroup;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.npy.Npy;

class InfoCommandTest {
    private static final ChunkedArray MATRIX = Creation.ones(new long[] {100, 60}, DType.FLOAT32, ChunkSpec.of(30, 25));

    @Test
    void describesAZarrV2Array(@TempDir Path directory) throws IOException {
        Path store = directory.resolve("x.zarr");
        Zarr.toZarr(MATRIX, store, 30, 25);
        CommandLineRun run = CommandLineRun.of("info", store.toString());
        assertEquals(0, run.status(), run.err());
        assertEquals("Zarr v2 array " + store, run.out().lines().findFirst().orElseThrow());
        assertTrue(run.out().contains("  shape       (100, 60)\n"), run.out());
        assertTrue(run.out().contains("  dtype       float32\n"), run.out());
        assertTrue(run.out().contains("  chunks      (30, 25)\n"), run.out());
        assertTrue(run.out().contains("  compressor  Blosc[compressorName=lz4"), run.out());
        assertTrue(run.out().contains("  in memory   24.0 kB\n"), run.out());
        assertTrue(run.out().contains("  blocks      12 (4 x 3)\n"), run.out());
        assertTrue(run.out().contains("  on disk     "), run.out());
    }

    @Test
    void listsTheArraysOfAZarrV3GroupAndDrawsTheFirst(@TempDir Path directory) throws IOException {
        Path store = directory.resolve("g.zarr");
        ZarrGroup root = ZarrGroup.create(DirectoryStore.open(store), "", 3);
        ZarrGroup inner = root.createGroup("inner");
        Zarr.toZarr(MATRIX, root.store(), "a", ArrayMetadataV3.of(MATRIX.shape(), new long[] {50, 60}, DType.FLOAT32), StoreOptions.defaults());
        Zarr.toZarr(Creation.arange(0, 60, 1, DType.FLOAT32, ChunkSpec.of(7)), inner.store(), "inner/b",
                ArrayMetadataV3.of(new long[] {60}, new long[] {7}, DType.FLOAT32), StoreOptions.defaults());
        Path svg = directory.resolve("grid.svg");
        CommandLineRun run = CommandLineRun.of("info", store.toString(), "--svg", svg.toString());
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().startsWith("Zarr v3 group " + store + ": 2 members (a, inner), 2 arrays in all"), run.out());
        assertTrue(run.out().contains("/a  (Zarr v3)\n  shape       (100, 60)\n"), run.out());
        assertTrue(run.out().contains("/inner/b  (Zarr v3)\n  shape       (60,)\n"), run.out());
        assertTrue(run.out().contains("  blocks      9 (9)\n"), run.out());
        assertTrue(Files.readString(svg).contains("<svg"), "the diagram is written");
    }

    @Test
    void describesEveryDatasetOfAnHdf5File(@TempDir Path directory) throws IOException {
        Path file = directory.resolve("data.h5");
        Hdf5.toHdf5(MATRIX, file, "/group/x", Hdf5WriteOptions.chunked(20, 30));
        CommandLineRun run = CommandLineRun.of("info", file.toString());
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().startsWith("HDF5 file " + file + ": 1 dataset, "), run.out());
        assertTrue(run.out().contains("/group/x  (HDF5 chunked)\n  shape       (100, 60)\n  dtype       float32\n  chunks      (20, 30)\n"), run.out());
        assertTrue(run.out().contains("  blocks      10 (5 x 2)\n"), run.out());
    }

    @Test
    void listsTheDatasetsOfAnHdf5FileDepthFirstInNameOrder(@TempDir Path directory) throws IOException {
        Path file = directory.resolve("many.h5");
        Map<String, ChunkedArray> datasets = new LinkedHashMap<>();
        datasets.put("/z", MATRIX);
        datasets.put("/b/inner", Creation.arange(0, 10, 1, DType.INT32, ChunkSpec.of(5)));
        datasets.put("/a", MATRIX);
        Hdf5.toHdf5(file, datasets, Hdf5WriteOptions.contiguous(), new SynchronousScheduler());
        assertEquals(List.of("/a", "/b/inner", "/z"), Hdf5.datasetPaths(file));
        CommandLineRun run = CommandLineRun.of("info", file.toString());
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("/b/inner  (HDF5 contiguous)\n  shape       (10,)\n  dtype       int32\n  chunks      none (contiguous)\n"), run.out());
    }

    @Test
    void describesANpyFileAsOneContiguousBlock(@TempDir Path directory) throws IOException {
        Path file = directory.resolve("x.npy");
        Npy.write(file, NDArrays.arange(24).reshape(2, 3, 4));
        CommandLineRun run = CommandLineRun.of("info", file.toString());
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("  shape       (2, 3, 4)\n  dtype       int64\n  chunks      none (contiguous)\n  compressor  none\n"), run.out());
        assertTrue(run.out().contains("  in memory   192 B\n"), run.out());
        assertTrue(run.out().contains("  blocks      1 (1 x 1 x 1)\n"), run.out());
    }

    @Test
    void aPathThatHoldsNoArrayIsAUsageError(@TempDir Path directory) throws IOException {
        CommandLineRun missing = CommandLineRun.of("info", directory.resolve("nothing").toString());
        assertEquals(2, missing.status());
        assertEquals("no such file or directory: " + directory.resolve("nothing"), missing.firstErrorLine());

        CommandLineRun plainDirectory = CommandLineRun.of("info", directory.toString());
        assertEquals(2, plainDirectory.status());
        assertEquals(directory + " is a directory but not a Zarr store: it has no .zarray, .zgroup or zarr.json", plainDirectory.firstErrorLine());

        Path text = Files.writeString(directory.resolve("notes.txt"), "not an array");
        CommandLineRun textFile = CommandLineRun.of("info", text.toString());
        assertEquals(2, textFile.status());
        assertTrue(textFile.firstErrorLine().startsWith(text + " is not a Zarr store, an HDF5 file or a .npy file"), textFile.err());
        assertTrue(textFile.err().contains("Usage: tessera info"), textFile.err());
    }
}
