package org.tessera.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import io.jhdf.HdfFile;
import io.jhdf.api.dataset.ChunkedDataset;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.io.TestArrays;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.npy.Npy;

/**
 * HDF5's Fletcher-32 filter on the h5py-made {@code fletcher32.h5} (see make_fixtures.py): the
 * checksum is checked and removed (the values themselves are compared by Hdf5FixturesTest), and a
 * chunk whose bytes or checksum were changed is refused with the file, dataset and chunk named.
 */
class Fletcher32Test {
    private static final Path FIXTURE = Hdf5FixturesTest.directory().resolve("fletcher32.h5");

    @TempDir
    Path temporary;

    /** The stored (filtered, checksummed) bytes of one chunk, as the file holds them. */
    private static byte[] storedChunk(String dataset, int... origin) {
        try (HdfFile file = new HdfFile(FIXTURE)) {
            ByteBuffer raw = ((ChunkedDataset) file.getDatasetByPath(dataset)).getRawChunkBuffer(origin);
            byte[] bytes = new byte[raw.remaining()];
            raw.get(bytes);
            return bytes;
        }
    }

    /** A copy of the fixture with the stored bytes of one chunk replaced by {@code replacement} of the same length. */
    private Path copyWithChunk(byte[] original, byte[] replacement) throws IOException {
        byte[] file = Files.readAllBytes(FIXTURE);
        int at = indexOf(file, original);
        assertTrue(at >= 0 && indexOf(java.util.Arrays.copyOfRange(file, at + 1, file.length), original) < 0, "the chunk's bytes occur once");
        System.arraycopy(replacement, 0, file, at, replacement.length);
        Path copy = temporary.resolve("fletcher32-changed.h5");
        Files.write(copy, file);
        return copy;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int start = 0; start + needle.length <= haystack.length; start++) {
            for (int offset = 0; offset < needle.length; offset++) {
                if (haystack[start + offset] != needle[offset]) {
                    continue outer;
                }
            }
            return start;
        }
        return -1;
    }

    @Test
    void theStoredChunksCarryTheChecksumHdf5Computed() {
        // 25 x 20 float64 is 4000 bytes; h5py stored 4 more, the checksum this class computes.
        byte[] stored = storedChunk("float64", 25, 20);
        assertEquals(4004, stored.length);
        int kept = ByteBuffer.wrap(stored, 4000, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        assertEquals(kept, Fletcher32.checksum(stored, 4000));
        byte[] odd = storedChunk("uint8_odd", 5, 3);
        assertEquals(19, odd.length);
        assertEquals(ByteBuffer.wrap(odd, 15, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(), Fletcher32.checksum(odd, 15));
    }

    @Test
    void aFlippedBitInAChunkNamesTheFileTheDatasetAndTheChunk() throws IOException {
        byte[] original = storedChunk("float64", 25, 20);
        byte[] changed = original.clone();
        changed[1234] ^= 0x10;
        Path copy = copyWithChunk(original, changed);
        try (Hdf5Dataset dataset = Hdf5.open(copy, "float64")) {
            Hdf5Exception failure = causeOf(assertThrows(java.io.UncheckedIOException.class, dataset::readAll));
            String message = failure.getMessage();
            assertTrue(message.contains(copy.toAbsolutePath().toString()) && message.contains("/float64") && message.contains("[25, 20]")
                    && message.contains("Fletcher-32 checksum mismatch"), message);
            // The chunks beside it are intact and still read.
            NDArray expected = Npy.read(Hdf5FixturesTest.directory().resolve("expected/fletcher32/float64.npy"));
            TestArrays.assertSameArray(expected.slice(0, 0, 1, 25).slice(1, 0, 1, 45), dataset.read(new long[] {0, 0}, new long[] {25, 45}), "first row of chunks");
        }
    }

    @Test
    void aChangedChecksumUnderGzipIsRefusedToo() throws IOException {
        byte[] original = storedChunk("shuffle_gzip", 0, 0);
        byte[] changed = original.clone();
        changed[changed.length - 1] ^= 0x01;
        Path copy = copyWithChunk(original, changed);
        try (Hdf5Dataset dataset = Hdf5.open(copy, "shuffle_gzip")) {
            Hdf5Exception failure = causeOf(assertThrows(java.io.UncheckedIOException.class, () -> dataset.read(new long[] {0, 0}, new long[] {2, 2})));
            assertTrue(failure.getMessage().contains("/shuffle_gzip") && failure.getMessage().contains("[0, 0]")
                    && failure.getMessage().contains("Fletcher-32"), failure.getMessage());
        }
    }

    @Test
    void theByteSwappedChecksumOfHdf5Before163IsAccepted() throws IOException {
        // HDF5 1.6.2 and older stored the two bytes of each 16-bit half swapped; HDF5 reads both forms.
        byte[] original = storedChunk("float64", 0, 0);
        byte[] swapped = original.clone();
        int end = swapped.length;
        swapped[end - 4] = original[end - 3];
        swapped[end - 3] = original[end - 4];
        swapped[end - 2] = original[end - 1];
        swapped[end - 1] = original[end - 2];
        Path copy = copyWithChunk(original, swapped);
        NDArray expected = Npy.read(Hdf5FixturesTest.directory().resolve("expected/fletcher32/float64.npy"));
        try (Hdf5Dataset dataset = Hdf5.open(copy, "float64")) {
            TestArrays.assertSameArray(expected, dataset.readAll(), "with a byte-swapped checksum");
        }
    }

    @Test
    void anOddLengthUsesItsLastByteAsTheHighByteOfAWord() {
        // One word 0x0102 and the odd byte 0x03 as 0x0300: sum1 = 0x0402, sum2 = 0x0102 + 0x0402 = 0x0504.
        assertEquals(0x0504_0402, Fletcher32.checksum(new byte[] {1, 2, 3}, 3));
        assertArrayEquals(new byte[] {1, 2, 3}, assertDoesNotThrowStrip(new byte[] {1, 2, 3, 0x02, 0x04, 0x04, 0x05}));
    }

    /** Reads through the region-source interface are unchecked; the Hdf5Exception is their cause. */
    private static Hdf5Exception causeOf(java.io.UncheckedIOException failure) {
        assertTrue(failure.getCause() instanceof Hdf5Exception, String.valueOf(failure.getCause()));
        return (Hdf5Exception) failure.getCause();
    }

    private static byte[] assertDoesNotThrowStrip(byte[] stored) {
        try {
            return Fletcher32.verifyAndStrip(stored, "test");
        } catch (Hdf5Exception failure) {
            throw new AssertionError(failure);
        }
    }
}
