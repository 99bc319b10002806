package org.tessera.io.npy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.io.TestArrays.assertSameArray;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.io.TestArrays;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.npy.Npy;

class NpyStackTest {
    @TempDir
    Path directory;

    @Test
    void aStackRoundTripsWithItsChunksAlongTheStackingAxis() throws IOException {
        for (DType dtype : DType.values()) {
            NDArray values = TestArrays.random(dtype, dtype.ordinal(), 10, 4, 3);
            ChunkedArray array = Creation.asarray(values, ChunkSpec.of(3, 2, 2));
            Path stack = directory.resolve("stack-" + dtype);
            NpyStack.toNpyStack(stack, array, 0);
            for (int block = 0; block < 4; block++) {
                assertTrue(Files.exists(stack.resolve(block + ".npy")));
            }
            ChunkedArray read = NpyStack.fromNpyStack(stack);
            assertEquals("[[3, 3, 3, 1], [4], [3]]", read.chunks().toString().replace("(", "[").replace(")", "]").replace(",]", "]"));
            assertSameArray(values, read.compute(), dtype.toString());
        }
        NDArray values = TestArrays.random(DType.INT16, 9, 2, 9);
        NpyStack.toNpyStack(directory.resolve("last-axis"), Creation.asarray(values, ChunkSpec.of(1, 4)), -1);
        ChunkedArray read = NpyStack.fromNpyStack(directory.resolve("last-axis"));
        assertEquals(3, read.numBlocks()[1]);
        assertSameArray(values, read.compute(), "stacked along the last axis");
    }

    @Test
    void theInfoPickleRoundTripsBigIntegersAndByteOrders() throws IOException {
        StackInfo info = new StackInfo(new long[][] {{1L << 40, 3}, {7}}, DType.UINT16, ByteOrder.BIG_ENDIAN, 0);
        StackInfo read = StackInfo.fromPickle(info.toPickle(), "info");
        assertEquals(List.of(1L << 40, 3L), java.util.Arrays.stream(read.chunks()[0]).boxed().toList());
        assertEquals(DType.UINT16, read.dtype());
        assertEquals(ByteOrder.BIG_ENDIAN, read.byteOrder());
    }

    @Test
    void aPickleThatCallsAnythingButNumpyDtypeIsRefusedWithoutRunningIt() {
        // pickle.dumps of os.system('true') by reduce, protocol 2: GLOBAL 'posix system', then REDUCE.
        byte[] hostile = "\u0080\u0002cposix\nsystem\nX\u0004\u0000\u0000\u0000true\u0085R.".getBytes(StandardCharsets.ISO_8859_1);
        IOException error = assertThrows(IOException.class, () -> StackInfo.fromPickle(hostile, "evil/info"));
        assertTrue(error.getMessage().contains("evil/info") && error.getMessage().contains("system"), error.getMessage());
    }

    @Test
    void fromNpyReadsAMemoryMappedFileInBlocks() throws IOException {
        NDArray values = TestArrays.random(DType.FLOAT64, 5, 13, 6);
        Path file = directory.resolve("x.npy");
        Npy.write(file, values);
        ChunkedArray array = NpyStack.fromNpy(file, ChunkSpec.of(5, 4));
        assertEquals(6, array.chunks().totalBlocks());
        assertSameArray(values, array.compute(), "mapped");
        assertSameArray(values.slice(0, 10, 1, 3).slice(1, 4, 1, 2), array.block(2, 1).compute(), "block (2, 1)");

        Path bigEndian = directory.resolve("big.npy");
        Npy.write(bigEndian, values, ByteOrder.BIG_ENDIAN);
        assertSameArray(values, NpyStack.fromNpy(bigEndian, ChunkSpec.of(4, 4)).compute(), "big-endian file");
    }

    private static boolean daskAvailable() {
        try {
            Process check = new ProcessBuilder("/usr/bin/python3", "-c", "import dask.array, numpy").redirectErrorStream(true).start();
            return check.waitFor(60, TimeUnit.SECONDS) && check.exitValue() == 0;
        } catch (IOException | InterruptedException unavailable) {
            return false;
        }
    }

    private static String runPython(String script, String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("/usr/bin/python3", "-c", script));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "python timed out");
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), output);
        return output;
    }

    @Test
    void daskReadsTesseraStacksAndTesseraReadsDaskStacks() throws Exception {
        Assumptions.assumeTrue(daskAvailable(), "Dask is not installed for /usr/bin/python3; interoperability check skipped");
        NDArray values = TestArrays.random(DType.INT32, 11, 7, 5);
        NpyStack.toNpyStack(directory.resolve("tessera"), Creation.asarray(values, ChunkSpec.of(2, 5)), 0);
        Npy.write(directory.resolve("expected.npy"), values);
        String output = runPython(String.join("\n",
                "import sys, numpy as np, dask.array as da",
                "x = da.from_npy_stack(sys.argv[1])",
                "assert x.chunks == ((2, 2, 2, 1), (5,)), x.chunks",
                "assert x.dtype == np.int32, x.dtype",
                "assert (x.compute() == np.load(sys.argv[2])).all()",
                "y = da.from_array(np.arange(24, dtype='>f4').reshape(2, 3, 4), chunks=(1, 3, 3))",
                "da.to_npy_stack(sys.argv[3], y, axis=2)",
                "np.save(sys.argv[4], y.compute().astype('<f4'))",
                "print('ok')"),
                directory.resolve("tessera").toString(), directory.resolve("expected.npy").toString(),
                directory.resolve("dask").toString(), directory.resolve("dask-expected.npy").toString());
        assertTrue(output.contains("ok"), output);
        ChunkedArray fromDask = NpyStack.fromNpyStack(directory.resolve("dask"));
        assertEquals(2, fromDask.numBlocks()[2]);
        assertSameArray(Npy.read(directory.resolve("dask-expected.npy")), fromDask.compute(), "Dask's stack");
    }
}
