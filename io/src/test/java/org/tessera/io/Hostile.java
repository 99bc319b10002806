package org.tessera.io;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The contract of every parser of outside bytes, as the fuzz tests check it: reading hostile bytes
 * either succeeds or throws an {@link IOException} (or, from a region source, which cannot throw
 * checked exceptions, an {@link UncheckedIOException} around one) whose message names what was
 * read: the file, the key or the codec. Any other exception propagates, so that Jazzer reports it
 * as a finding, and so does an OutOfMemoryError; the fuzz tests' time limits catch loops that do
 * not end.
 */
public final class Hostile {
    private Hostile() {}

    /** What a parse of hostile bytes does. */
    @FunctionalInterface
    public interface Read {
        void run() throws IOException;
    }

    /** Runs {@code read}; an IOException must name one of {@code subjects}; anything else escapes. */
    public static void read(Read read, String... subjects) {
        try {
            read.run();
        } catch (IOException expected) {
            requireNamed(expected, subjects);
        } catch (UncheckedIOException expected) {
            requireNamed(expected.getCause(), subjects);
        }
    }

    private static void requireNamed(IOException failure, String... subjects) {
        String message = String.valueOf(failure.getMessage());
        assertTrue(Arrays.stream(subjects).anyMatch(message::contains),
                () -> "the message does not name any of " + Arrays.toString(subjects) + ": " + message);
    }

    /** The parts of {@code input} split at its first {@code count - 1} zero bytes (JSON holds none): metadata, then data. */
    public static byte[][] split(byte[] input, int count) {
        byte[][] parts = new byte[count][];
        int start = 0;
        for (int part = 0; part < count; part++) {
            int end = start;
            while (part < count - 1 && end < input.length && input[end] != 0) {
                end++;
            }
            if (part == count - 1) {
                end = input.length;
            }
            parts[part] = Arrays.copyOfRange(input, Math.min(start, input.length), Math.min(end, input.length));
            start = end + 1;
        }
        return parts;
    }

    /**
     * A region at the origin of {@code shape} of at most {@code limit} elements: what a reader asks for,
     * so that a claimed shape of 10^12 elements is checked by reading a little of it.
     */
    public static long[] smallRegion(long[] shape, long limit) {
        long[] region = new long[shape.length];
        long elements = 1;
        for (int axis = shape.length - 1; axis >= 0; axis--) {
            region[axis] = Math.max(0, Math.min(shape[axis], limit / Math.max(elements, 1)));
            elements = Math.max(elements, elements * Math.max(region[axis], 1));
        }
        return region;
    }

    /**
     * The seeds of a fuzz target: the valid files of {@code <TestClass>Inputs/<method>/}, without the
     * crash-* inputs that fuzzing found, so that a test can check that each of them reads.
     */
    public static List<Path> seeds(Class<?> test, String method) {
        try {
            Path directory = Path.of(test.getResource(test.getSimpleName() + "Inputs/" + method).toURI());
            try (Stream<Path> files = Files.list(directory)) {
                List<Path> seeds = files.filter(file -> !file.getFileName().toString().startsWith("crash-")).sorted().toList();
                assertTrue(!seeds.isEmpty(), "no seeds in " + directory);
                return seeds;
            }
        } catch (IOException | URISyntaxException failure) {
            throw new IllegalStateException(failure);
        }
    }
}
