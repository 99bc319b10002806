package org.tessera.io.zarr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.io.TestArrays.assertSameArray;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.store.Store;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.npy.Npy;

/**
 * Reads every array that zarr-python wrote in {@code src/test/resources/zarr/v2} (made by
 * {@code make_fixtures.py}, listed in its manifest) and compares it, byte for byte, with the values
 * the script saved as .npy. These tests need no Python: the fixtures are committed.
 */
class ZarrFixturesTest {
    private static final Store FIXTURES = DirectoryStore.open(Fixtures.directory().resolve("v2"));

    static Stream<Arguments> fixtureArrays() throws IOException {
        JsonNode manifest = ZarrJson.parse(Files.readAllBytes(Fixtures.directory().resolve("manifest.json")), "manifest.json");
        List<Arguments> arrays = new ArrayList<>();
        for (JsonNode entry : manifest.get("arrays")) {
            arrays.add(Arguments.of(entry.get("path").asText(), entry.get("expected").asText(), entry.get("dtype").asText()));
        }
        return arrays.stream();
    }

    @ParameterizedTest(name = "{0} ({2})")
    @MethodSource("fixtureArrays")
    void readsWhatZarrPythonWroteExactly(String path, String expectedFile, String dtype) throws IOException {
        ZarrArray array = ZarrArray.open(FIXTURES, path);
        NDArray expected = Npy.read(Fixtures.directory().resolve("expected").resolve(expectedFile));
        assertEquals(dtype, ZarrDataTypes.version2Name(array.dtype(), ((ArrayMetadataV2) array.metadata()).endian().byteOrder()));
        assertSameArray(expected, array.readAll(), path);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtureArrays")
    void readsRegionsThatCrossChunkBoundaries(String path, String expectedFile, String dtype) throws IOException {
        ZarrArray array = ZarrArray.open(FIXTURES, path);
        NDArray expected = Npy.read(Fixtures.directory().resolve("expected").resolve(expectedFile));
        long[] shape = array.shape();
        SplittableRandom random = new SplittableRandom(path.hashCode());
        for (int trial = 0; trial < 10; trial++) {
            long[] start = new long[shape.length];
            long[] regionShape = new long[shape.length];
            NDArray expectedRegion = expected;
            for (int axis = 0; axis < shape.length; axis++) {
                start[axis] = random.nextLong(shape[axis]);
                regionShape[axis] = 1 + random.nextLong(shape[axis] - start[axis]);
                expectedRegion = expectedRegion.slice(axis, start[axis], 1, regionShape[axis]);
            }
            assertSameArray(expectedRegion, array.readRegion(start, regionShape), path + " region at " + java.util.Arrays.toString(start));
        }
    }

    @Test
    void missingChunksAreNotStoredAndReadAsTheFillValue() throws IOException {
        ZarrArray array = ZarrArray.open(FIXTURES, "float64_nan_fill_missing");
        assertTrue(array.hasChunk(new int[] {0, 0}));
        assertFalse(array.hasChunk(new int[] {2, 1}));
        NDArray missing = array.readChunk(2, 1);
        assertTrue(Double.isNaN(missing.getDouble(0, 0)));
        assertEquals(FillValue.of(org.tessera.ndarray.dtype.DType.FLOAT64, Double.NaN), array.metadata().fillValue());
    }

    @Test
    void readsNestedGroupsAndTheirAttributes() throws IOException {
        ZarrGroup root = ZarrGroup.open(FIXTURES, "");
        assertEquals(2, root.zarrFormat());
        assertEquals("Tessera fixtures", root.attributes().get("title"));
        assertEquals(42, root.attributes().get("answer"));
        assertTrue(root.memberNames().contains("nested"));
        assertTrue(root.memberNames().contains("float64_blosc_lz4"));
        ZarrGroup nested = root.group("nested");
        assertEquals(List.of("deeper"), nested.memberNames());
        assertEquals(List.of("a", "b"), nested.attributes().get("tags"));
        assertTrue(Double.isNaN((Double) nested.attributes().get("nan")));
        ZarrGroup deeper = nested.group("deeper");
        assertEquals(Map.of("level", 2, "description", "a group inside a group"), deeper.attributes());
        ZarrArray values = deeper.array("values");
        assertEquals("metres", values.attributes().get("units"));
        assertEquals(0.5, values.attributes().get("scale"));
        assertEquals("nested/deeper/values", values.path());
    }

    @Test
    void parsesEveryCompressorConfigurationZarrPythonWrote() throws IOException {
        assertEquals(new org.tessera.io.codec.Blosc("zstd", 3, org.tessera.io.codec.Blosc.Shuffle.BIT, 0, 0),
                ((ArrayMetadataV2) ZarrArray.open(FIXTURES, "int32_blosc_zstd_bitshuffle").metadata()).compressor());
        assertEquals(new org.tessera.io.codec.Gzip(5), ((ArrayMetadataV2) ZarrArray.open(FIXTURES, "int16_gzip").metadata()).compressor());
        assertEquals(new org.tessera.io.codec.Zstd(3, false), ((ArrayMetadataV2) ZarrArray.open(FIXTURES, "complex128_zstd").metadata()).compressor());
        assertEquals(null, ((ArrayMetadataV2) ZarrArray.open(FIXTURES, "uint16_none").metadata()).compressor());
        assertEquals("/", ((ArrayMetadataV2) ZarrArray.open(FIXTURES, "int64_nested_separator").metadata()).dimensionSeparator());
    }
}
