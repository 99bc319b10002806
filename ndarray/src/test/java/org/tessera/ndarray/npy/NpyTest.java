package org.tessera.ndarray.npy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.conformance.Comparison;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Order;

/** .npy and .npz against files written by real NumPy (see resources/npy/make_fixtures.py). */
class NpyTest {
    private static final Path FIXTURES = Path.of("src/test/resources/npy");

    @TempDir
    Path directory;

    @Test
    void everyFixtureWrittenByNumpyReadsWithItsDtypeShapeAndValues() throws IOException {
        JsonNode expected = new ObjectMapper().readTree(FIXTURES.resolve("expected.json").toFile());
        int checked = 0;
        for (var entry : (Iterable<Map.Entry<String, JsonNode>>) expected::fields) {
            NDArray array = Npy.read(FIXTURES.resolve(entry.getKey()));
            assertNull(Comparison.mismatch(entry.getValue(), array, 0), entry.getKey());
            checked++;
        }
        assertEquals(23, checked);
        assertTrue(Npy.read(FIXTURES.resolve("fortran.npy")).isFContiguous());
    }

    @Test
    void npzArchivesWrittenByNumpyReadStoredAndDeflated() throws IOException {
        for (String name : List.of("archive.npz", "archive_compressed.npz")) {
            Map<String, NDArray> arrays = Npz.read(FIXTURES.resolve(name));
            assertEquals(List.of("first", "second"), List.copyOf(arrays.keySet()));
            assertEquals(3, arrays.get("first").getLong(3));
            assertEquals(DType.FLOAT32, arrays.get("second").dtype());
            assertEquals(1.0, arrays.get("second").getDouble(1, 1));
        }
    }

    @ParameterizedTest
    @EnumSource(DType.class)
    void everyDtypeRoundTripsInBothOrdersAndByteOrders(DType dtype) throws IOException {
        NDArray source = NDArrays.arange(-6, 6, 1).reshape(3, 4).astype(dtype);
        for (NDArray layout : List.of(source, source.copy(Order.F), source.transpose().slice(0, 0, 2, 2))) {
            for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
                Path file = directory.resolve(dtype + ".npy");
                Npy.write(file, layout, order);
                NDArray back = Npy.read(file);
                assertArrayEquals(layout.shape(), back.shape());
                for (long row = 0; row < layout.shape(0); row++) {
                    for (long column = 0; column < layout.shape(1); column++) {
                        assertEquals(layout.getComplex(row, column), back.getComplex(row, column), dtype + " " + order);
                    }
                }
            }
        }
    }

    @Test
    void filesWrittenByTesseraAreReadByNumpy() throws Exception {
        Path file = directory.resolve("written.npy");
        Npy.write(file, NDArrays.arange(12).reshape(3, 4).astype(DType.FLOAT32).transpose());
        Path archive = directory.resolve("written.npz");
        Map<String, NDArray> arrays = new LinkedHashMap<>();
        arrays.put("a", NDArrays.array(1L, 2L, 3L));
        Npz.write(archive, arrays, true);
        String printed = python("import numpy as np; a = np.load('" + file + "'); z = np.load('" + archive + "');"
                + " print(a.dtype, a.shape, a.flags.f_contiguous, a[1, 2], z['a'].sum())");
        assertEquals("float32 (4, 3) True 9.0 6", printed.strip());
    }

    @Test
    void aReadOnlyMapIsNotWriteableAndAReadWriteMapWritesTheFile() throws Exception {
        Path file = directory.resolve("mapped.npy");
        Npy.write(file, NDArrays.arange(0.0, 6.0, 1.0).reshape(2, 3));
        NDArray readOnly = Npy.map(file, FileChannel.MapMode.READ_ONLY);
        assertFalse(readOnly.isWriteable());
        assertEquals(5.0, readOnly.getDouble(1, 2));
        assertThrows(UnsupportedOperationException.class, () -> readOnly.setDouble(1, 0, 0));

        NDArray writable = Npy.map(file, FileChannel.MapMode.READ_WRITE);
        writable.setDouble(-7.5, 0, 1);
        assertEquals(-7.5, Npy.read(file).getDouble(0, 1));
        assertEquals("-7.5", python("import numpy as np; print(np.load('" + file + "')[0, 1])").strip());
    }

    @Test
    void aFileWrittenByNumpyIsMappedWrittenThroughAndReadBackByNumpy() throws Exception {
        Path file = directory.resolve("fortran.npy");
        Files.copy(FIXTURES.resolve("fortran.npy"), file);
        NDArray mapped = Npy.map(file, FileChannel.MapMode.READ_WRITE);
        assertTrue(mapped.isFContiguous());
        assertEquals(6.0, mapped.getDouble(1, 2));
        mapped.setDouble(-1.25, 2, 3);
        assertEquals("-1.25 True", python("import numpy as np; a = np.load('" + file + "'); print(a[2, 3], a.flags.f_contiguous)").strip());
        NDArray privateCopy = Npy.map(file, FileChannel.MapMode.PRIVATE);
        privateCopy.setDouble(99.0, 0, 0);
        assertEquals(0.0, Npy.read(file).getDouble(0, 0));
    }

    @Test
    void aCreatedFileOfMoreThanTwoToTheThirtyOneElementsIsMappedAndWrittenAtItsEnd() throws IOException {
        Path file = directory.resolve("large.npy");
        long length = (1L << 31) + 5;
        NDArray mapped = Npy.create(file, DType.INT8, new long[] {length}, Order.C);
        mapped.setLong(42, length - 1);
        mapped.setLong(-1, 1L << 31);
        NDArray again = Npy.map(file, FileChannel.MapMode.READ_ONLY);
        assertEquals(length, again.size());
        assertEquals(42, again.getLong(length - 1));
        assertEquals(-1, again.getLong(1L << 31));
    }

    @Test
    void badFilesGiveErrorsNamingTheFileAndTheProblem() throws IOException {
        Path notNpy = directory.resolve("bad.npy");
        Files.writeString(notNpy, "hello world", StandardCharsets.US_ASCII);
        IOException badMagic = assertThrows(IOException.class, () -> Npy.read(notNpy));
        assertTrue(badMagic.getMessage().contains("bad.npy") && badMagic.getMessage().contains("magic"), badMagic.getMessage());

        Path truncated = directory.resolve("truncated.npy");
        byte[] whole = Files.readAllBytes(FIXTURES.resolve("float64.npy"));
        Files.write(truncated, java.util.Arrays.copyOf(whole, whole.length - 3));
        IOException shortData = assertThrows(IOException.class, () -> Npy.read(truncated));
        assertTrue(shortData.getMessage().contains("truncated"), shortData.getMessage());

        Path strings = directory.resolve("strings.npy");
        byte[] header = new NpyHeader(DType.INT8, ByteOrder.LITTLE_ENDIAN, false, new long[] {1}, 0).encode();
        String text = new String(header, StandardCharsets.ISO_8859_1).replace("'|i1'", "'<U1'");
        Files.write(strings, text.getBytes(StandardCharsets.ISO_8859_1));
        IOException unsupported = assertThrows(IOException.class, () -> Npy.read(strings));
        assertTrue(unsupported.getMessage().contains("<U1") && unsupported.getMessage().contains("strings.npy"), unsupported.getMessage());

        IllegalArgumentException bigEndianMap = assertThrows(IllegalArgumentException.class,
                () -> Npy.map(FIXTURES.resolve("big_float64.npy"), FileChannel.MapMode.READ_ONLY));
        assertTrue(bigEndianMap.getMessage().contains("big-endian"), bigEndianMap.getMessage());
    }

    private static String python(String program) throws Exception {
        Process process;
        try {
            process = new ProcessBuilder("python3", "-c", program).redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("python3 is not installed: " + e.getMessage());
            throw e;
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        Assumptions.assumeFalse(output.contains("No module named 'numpy'"), "numpy is not installed");
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
