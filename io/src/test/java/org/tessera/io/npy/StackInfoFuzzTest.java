package org.tessera.io.npy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.tessera.io.Hostile;

/**
 * The {@code info} pickle of an npy stack, read as {@link NpyStack#fromNpyStack} reads it: parsed,
 * then its chunks turned into the chunked array's grid. Failures must be IOExceptions naming the
 * info file. Seeds in {@code StackInfoFuzzTestInputs/info/} are pickles that Python wrote.
 */
class StackInfoFuzzTest {
    private static final Path DIRECTORY = temporaryDirectory();

    @FuzzTest(maxDuration = "60s")
    void info(byte[] input) throws IOException {
        Files.write(DIRECTORY.resolve("info"), input);
        Hostile.read(() -> NpyStack.fromNpyStack(DIRECTORY), DIRECTORY.resolve("info").toString());
    }

    /** The seeds are Dask's info pickles: each parses, and writing it again parses to the same chunks. */
    @Test
    void seedsParse() throws IOException {
        for (Path seed : Hostile.seeds(StackInfoFuzzTest.class, "info")) {
            StackInfo info = StackInfo.fromPickle(Files.readAllBytes(seed), seed.toString());
            assertEquals(java.util.Arrays.deepToString(info.chunks()),
                    java.util.Arrays.deepToString(StackInfo.fromPickle(info.toPickle(), "again").chunks()), seed.toString());
        }
    }

    @AfterAll
    static void deleteDirectory() throws IOException {
        Files.deleteIfExists(DIRECTORY.resolve("info"));
        Files.deleteIfExists(DIRECTORY);
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("tessera-fuzz-stack-");
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }
}
