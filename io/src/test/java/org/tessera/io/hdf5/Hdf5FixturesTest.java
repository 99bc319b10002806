package org.tessera.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.io.TestArrays;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.npy.Npy;

/**
 * Reads the h5py-made fixtures of src/test/resources/hdf5 (made by make_fixtures.py there) and
 * compares every dataset with the values NumPy saved beside them, whole and in blocks that cross
 * chunk boundaries.
 */
class Hdf5FixturesTest {

    static Path directory() {
        try {
            return Path.of(Hdf5FixturesTest.class.getResource("/hdf5/make_fixtures.py").toURI()).getParent();
        } catch (URISyntaxException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /** One case per expected/<file>/<dataset path>.npy. */
    record Case(String file, String dataset, Path expected) {
        @Override
        public String toString() {
            return file + ".h5:/" + dataset;
        }
    }

    static List<Case> cases() throws IOException {
        Path expected = directory().resolve("expected");
        try (Stream<Path> files = Files.walk(expected)) {
            return files.filter(path -> path.toString().endsWith(".npy")).sorted().map(path -> {
                Path relative = expected.relativize(path);
                String dataset = relative.subpath(1, relative.getNameCount()).toString().replace('\\', '/');
                return new Case(relative.getName(0).toString(), dataset.substring(0, dataset.length() - ".npy".length()), path);
            }).toList();
        }
    }

    @Test
    void everyFixtureFileHasExpectedValues() throws IOException {
        List<String> files = cases().stream().map(Case::file).distinct().sorted().toList();
        assertEquals(List.of("chunked_gzip", "chunked_shuffle_gzip", "contiguous", "fletcher32", "nested", "three_d", "userblock"), files);
        assertEquals(27, cases().size(), "cases: " + cases());
    }

    @ParameterizedTest
    @MethodSource("cases")
    void readsEveryDatasetWhole(Case fixture) throws IOException {
        NDArray expected = Npy.read(fixture.expected());
        try (Hdf5Dataset dataset = Hdf5.open(directory().resolve(fixture.file() + ".h5"), fixture.dataset())) {
            assertEquals(expected.dtype(), dataset.dtype(), fixture + ": dtype");
            assertArrayEquals(expected.shape(), dataset.shape(), fixture + ": shape");
            TestArrays.assertSameArray(expected, dataset.readAll(), fixture.toString());
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void readsEveryDatasetInSmallBlocks(Case fixture) throws IOException {
        NDArray expected = Npy.read(fixture.expected());
        // Blocks of 3 along every axis cross the chunk boundaries of every chunked fixture.
        ChunkedArray blocks = Hdf5.fromHdf5(directory().resolve(fixture.file() + ".h5"), fixture.dataset(),
                expected.ndim() == 0 ? ChunkSpec.auto() : ChunkSpec.size(3));
        TestArrays.assertSameArray(expected, blocks.compute(), fixture + " in blocks of 3");
    }

    @Test
    void readsARegionInsideOneChunkAndAcrossFour() throws IOException {
        NDArray expected = Npy.read(directory().resolve("expected/chunked_gzip/data.npy"));
        try (Hdf5Dataset dataset = Hdf5.open(directory().resolve("chunked_gzip.h5"), "/data")) {
            assertEquals(Hdf5Dataset.Layout.CHUNKED, dataset.layout());
            assertArrayEquals(new long[] {5, 4}, dataset.chunkShape().orElseThrow());
            assertEquals(List.of("deflate (id 1)"), dataset.filters());
            TestArrays.assertSameArray(slice(expected, 6, 2, 5, 2), dataset.read(new long[] {6, 5}, new long[] {2, 2}), "inside chunk (1, 1)");
            TestArrays.assertSameArray(slice(expected, 4, 3, 3, 2), dataset.read(new long[] {4, 3}, new long[] {3, 2}), "across four chunks");
            TestArrays.assertSameArray(slice(expected, 20, 3, 16, 1), dataset.read(new long[] {20, 16}, new long[] {3, 1}), "the corner edge chunk");
        }
    }

    @Test
    void readsPartialRowsOfAContiguousDataset() throws IOException {
        NDArray expected = Npy.read(directory().resolve("expected/three_d/volume_contiguous.npy"));
        try (Hdf5Dataset dataset = Hdf5.open(directory().resolve("three_d.h5"), "volume_contiguous")) {
            assertEquals(Hdf5Dataset.Layout.CONTIGUOUS, dataset.layout());
            NDArray region = dataset.read(new long[] {1, 2, 3}, new long[] {2, 3, 2});
            NDArray expectedRegion = expected.slice(0, 1, 1, 2).slice(1, 2, 1, 3).slice(2, 3, 1, 2);
            TestArrays.assertSameArray(expectedRegion, region, "volume_contiguous[1:3, 2:5, 3:5]");
            TestArrays.assertSameArray(expected.slice(0, 2, 1, 2), dataset.read(new long[] {2, 0, 0}, new long[] {2, 5, 6}), "whole planes 2..3");
        }
    }

    @Test
    void unwrittenChunksReadAsTheFillValue() throws IOException {
        try (Hdf5Dataset dataset = Hdf5.open(directory().resolve("chunked_gzip.h5"), "sparse")) {
            NDArray unwritten = dataset.read(new long[] {4, 0}, new long[] {4, 10});
            for (long row = 0; row < 4; row++) {
                for (long column = 0; column < 10; column++) {
                    assertEquals(-1.0, unwritten.getDouble(row, column));
                }
            }
        }
    }

    @Test
    void defaultBlocksAreWholeStoredChunks() throws IOException {
        ChunkedArray volume = Hdf5.fromHdf5(directory().resolve("three_d.h5"), "/volume", ChunkSpec.bytes("200B"));
        for (int axis = 0; axis < 3; axis++) {
            long chunk = new long[] {2, 3, 4}[axis];
            long[] lengths = volume.chunks().axis(axis);
            for (int block = 0; block < lengths.length - 1; block++) {
                assertEquals(0, lengths[block] % chunk, "axis " + axis + " blocks " + java.util.Arrays.toString(lengths));
            }
        }
        TestArrays.assertSameArray(Npy.read(directory().resolve("expected/three_d/volume.npy")), volume.compute(), "volume");
    }

    @Test
    void bigEndianDatasetsAreReadAsNativeArrays() throws IOException {
        try (Hdf5Dataset dataset = Hdf5.open(directory().resolve("contiguous.h5"), "int32_big")) {
            assertTrue(dataset.bigEndian());
            assertEquals(DType.INT32, dataset.dtype());
        }
        try (Hdf5Dataset dataset = Hdf5.open(directory().resolve("chunked_shuffle_gzip.h5"), "complex64_big")) {
            assertTrue(dataset.bigEndian());
            assertEquals(DType.COMPLEX64, dataset.dtype());
        }
    }

    @Test
    void aMissingDatasetNamesTheFileAndThePath() {
        Path file = directory().resolve("nested.h5");
        Hdf5Exception missing = assertThrows(Hdf5Exception.class, () -> Hdf5.open(file, "/a/b/nothing"));
        assertTrue(missing.getMessage().contains(file.toAbsolutePath().toString()) && missing.getMessage().contains("/a/b/nothing"), missing.getMessage());
        Hdf5Exception group = assertThrows(Hdf5Exception.class, () -> Hdf5.open(file, "/a/b"));
        assertTrue(group.getMessage().contains("/a/b is a group, not a dataset") && group.getMessage().contains("[c]"), group.getMessage());
        assertThrows(java.nio.file.NoSuchFileException.class, () -> Hdf5.open(directory().resolve("absent.h5"), "/x"));
    }

    @Test
    void anUnsupportedFilterNamesTheFileTheDatasetAndTheFilter() {
        Path file = directory().resolve("unsupported.h5");
        Hdf5Exception failure = assertThrows(Hdf5Exception.class, () -> Hdf5.fromHdf5(file, "scaleoffset"));
        String message = failure.getMessage();
        assertTrue(message.contains(file.toAbsolutePath().toString()) && message.contains("/scaleoffset") && message.contains("scaleoffset")
                && message.contains("id=6"), message);
    }

    @Test
    void anUnsupportedDatatypeNamesTheDataset() {
        Hdf5Exception failure = assertThrows(Hdf5Exception.class, () -> Hdf5.open(directory().resolve("unsupported.h5"), "text"));
        assertTrue(failure.getMessage().contains("/text") && failure.getMessage().contains("unsupported.h5"), failure.getMessage());
    }

    @Test
    void aRegionOutsideTheDatasetIsRefused() throws IOException {
        try (Hdf5Dataset dataset = Hdf5.open(directory().resolve("contiguous.h5"), "float64")) {
            IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> dataset.read(new long[] {5, 0}, new long[] {3, 5}));
            assertTrue(failure.getMessage().contains("[7, 5]") && failure.getMessage().contains("/float64"), failure.getMessage());
        }
    }

    @Test
    void aSerialisedDatasetReopensTheFileWhereItIsRead() throws Exception {
        Hdf5Dataset dataset = Hdf5.open(directory().resolve("nested.h5"), "a/b/c/values");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream output = new ObjectOutputStream(bytes)) {
            output.writeObject(dataset);
        }
        dataset.close();
        try (ObjectInputStream input = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()));
             Hdf5Dataset copy = (Hdf5Dataset) input.readObject()) {
            assertEquals(dataset.identity(), copy.identity());
            TestArrays.assertSameArray(Npy.read(directory().resolve("expected/nested/a/b/c/values.npy")), copy.readAll(), "deserialised copy");
        }
    }

    private static NDArray slice(NDArray array, long rowStart, long rows, long columnStart, long columns) {
        return array.slice(0, rowStart, 1, rows).slice(1, columnStart, 1, columns);
    }
}
