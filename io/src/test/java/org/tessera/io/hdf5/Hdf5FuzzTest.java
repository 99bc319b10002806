package org.tessera.io.hdf5;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;

import com.code_intelligence.jazzer.junit.FuzzTest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.tessera.io.Hostile;

/**
 * A hostile HDF5 file: its superblock, object headers, chunk indexes and filters, as {@link Hdf5}
 * reads them. Every dataset the file lists (the first few) is opened and a region of at most
 * {@value #REGION} elements at its origin read. Failures must be IOExceptions naming the file.
 * Seeds in {@code Hdf5FuzzTestInputs/hdf5/} are small files that h5py wrote.
 */
class Hdf5FuzzTest {
    private static final long REGION = 4096;
    private static final Path FILE = temporaryFile();

    @FuzzTest(maxDuration = "60s")
    void hdf5(byte[] input) throws IOException {
        Files.write(FILE, input);
        String name = FILE.getFileName().toString();
        Hostile.read(() -> {
            List<String> paths = Hdf5.datasetPaths(FILE);
            for (String path : paths.subList(0, Math.min(paths.size(), 4))) {
                Hostile.read(() -> {
                    try (Hdf5Dataset dataset = Hdf5.open(FILE, path)) {
                        dataset.read(new long[dataset.shape().length], Hostile.smallRegion(dataset.shape(), REGION));
                    }
                }, name);
            }
        }, name);
    }

    /** The seeds are valid files: each lists a dataset, and every dataset reads whole. */
    @Test
    void seedsRead() throws IOException {
        for (Path seed : Hostile.seeds(Hdf5FuzzTest.class, "hdf5")) {
            List<String> paths = Hdf5.datasetPaths(seed);
            assertFalse(paths.isEmpty(), seed.toString());
            for (String path : paths) {
                try (Hdf5Dataset dataset = Hdf5.open(seed, path)) {
                    dataset.readAll();
                }
            }
        }
    }

    @AfterAll
    static void deleteFile() throws IOException {
        Files.deleteIfExists(FILE);
    }

    private static Path temporaryFile() {
        try {
            return Files.createTempFile("tessera-fuzz-", ".h5");
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }
}
