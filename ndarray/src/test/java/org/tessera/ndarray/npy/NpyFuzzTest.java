package org.tessera.ndarray.npy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.code_intelligence.jazzer.junit.FuzzTest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Hostile {@code .npy} and {@code .npz} bytes read into arrays. Reading either succeeds or throws
 * an IOException whose message names the source; any other exception, an OutOfMemoryError from a
 * header that claims a huge shape, or a hang is a finding. Seeds in
 * {@code NpyFuzzTestInputs/<method>/} are files NumPy wrote.
 */
class NpyFuzzTest {
    private static final Path NPZ = temporaryFile();

    @FuzzTest(maxDuration = "60s")
    void npy(byte[] input) {
        try {
            Npy.readFrom(new ByteArrayInputStream(input), "hostile.npy");
        } catch (IOException expected) {
            assertTrue(String.valueOf(expected.getMessage()).contains("hostile.npy"), expected::getMessage);
        }
    }

    @FuzzTest(maxDuration = "60s")
    void npz(byte[] input) throws IOException {
        Files.write(NPZ, input);
        try {
            Npz.read(NPZ);
        } catch (IOException expected) {
            assertTrue(String.valueOf(expected.getMessage()).contains(NPZ.toString()), expected::getMessage);
        }
    }

    /** The seeds are files NumPy wrote: each reads (the crash-* inputs that fuzzing found are left out). */
    @Test
    void seedsRead() throws Exception {
        Path inputs = Path.of(NpyFuzzTest.class.getResource("NpyFuzzTestInputs").toURI());
        for (String method : new String[] {"npy", "npz"}) {
            try (var files = Files.list(inputs.resolve(method))) {
                for (Path seed : files.filter(file -> !file.getFileName().toString().startsWith("crash-")).toList()) {
                    if (method.equals("npy")) {
                        Npy.read(seed);
                    } else {
                        assertFalse(Npz.read(seed).isEmpty(), seed.toString());
                    }
                }
            }
        }
    }

    @AfterAll
    static void deleteFile() throws IOException {
        Files.deleteIfExists(NPZ);
    }

    private static Path temporaryFile() {
        try {
            return Files.createTempFile("tessera-fuzz-", ".npz");
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }
}
