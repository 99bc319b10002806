package org.tessera.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import io.jhdf.HdfFile;
import io.jhdf.api.dataset.ChunkedDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.ndarray.NDArray;

/**
 * Chunks that h5py filtered with shuffle and deflate (large_chunks.h5 of make_fixtures.py: 512 x 512
 * float64 in chunks of 256 x 256, values ((row * 512 + column) % 1000) / 4) are decoded into their
 * blocks through pooled buffers, and a corrupt one is named.
 */
class Hdf5ChunkDecodingTest {
    private static final long SIDE = 512;
    private static final long CHUNK = 256;

    private static Path file() {
        return Hdf5FixturesTest.directory().resolve("large_chunks.h5");
    }

    private static double value(long row, long column) {
        return ((row * SIDE + column) % 1000) / 4.0;
    }

    @Test
    void chunksReadAsH5pyWroteThem() throws Exception {
        try (Hdf5Dataset dataset = Hdf5.open(file(), "values")) {
            assertEquals(java.util.List.of("shuffle (id 2)", "deflate (id 1)"), dataset.filters());
            NDArray all = dataset.readAll();
            for (long row = 0; row < SIDE; row += 37) {
                for (long column = 0; column < SIDE; column += 13) {
                    assertEquals(value(row, column), all.getDouble(row, column), "element (" + row + ", " + column + ")");
                }
            }
            NDArray across = dataset.read(new long[] {250, 200}, new long[] {10, 100});
            assertEquals(value(255, 299), across.getDouble(5, 99));
            assertEquals(value(256, 256), across.getDouble(6, 56));
        }
    }

    @Test
    void aSumAllocatesLittleMoreThanItsBlocks() throws Exception {
        double expected = 0;
        for (long row = 0; row < SIDE; row++) {
            for (long column = 0; column < SIDE; column++) {
                expected += value(row, column);
            }
        }
        ChunkedArray sum = Hdf5.fromHdf5(file(), "values", ChunkSpec.of(CHUNK, CHUNK)).sum();
        sum.compute(new SynchronousScheduler());
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        double actual = sum.compute(new SynchronousScheduler()).getDouble();
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(expected, actual, expected * 1e-12);
        // The blocks are the dataset (2 MB); jhdf's pipeline allocated four to five chunk-sized arrays per chunk.
        long datasetBytes = SIDE * SIDE * Double.BYTES;
        assertTrue(allocated < datasetBytes * 3 / 2, "the sum allocated " + allocated + " bytes; its blocks hold " + datasetBytes);
    }

    @Test
    void aCorruptChunkNamesTheFileTheDatasetTheChunkAndTheFilter(@TempDir Path directory) throws Exception {
        Path corrupt = directory.resolve("corrupt.h5");
        Files.copy(file(), corrupt);
        long position;
        try (FileChannel channel = FileChannel.open(corrupt, StandardOpenOption.READ)) {
            MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
            long start = MemorySegment.ofBuffer(mapped).address();
            try (HdfFile hdf = HdfFile.fromByteBuffer(mapped)) {
                ByteBuffer raw = ((ChunkedDataset) hdf.getDatasetByPath("values")).getRawChunkBuffer(new int[] {256, 0});
                position = MemorySegment.ofBuffer(raw).address() - start;
            }
        }
        try (FileChannel channel = FileChannel.open(corrupt, StandardOpenOption.WRITE)) {
            // The zlib header's first byte: a compression method deflate does not know.
            channel.write(ByteBuffer.wrap(new byte[] {0x7f}), position);
        }
        try (Hdf5Dataset dataset = Hdf5.open(corrupt, "values")) {
            assertEquals(value(0, 0), dataset.read(new long[] {0, 0}, new long[] {1, 1}).getDouble(0, 0), "an intact chunk still reads");
            UncheckedIOException failure = assertThrows(UncheckedIOException.class, () -> dataset.read(new long[] {300, 10}, new long[] {2, 2}));
            String message = failure.getMessage();
            assertTrue(message.contains(corrupt.toString()) && message.contains("/values") && message.contains("chunk at [256, 0]")
                    && message.contains("deflate"), message);
        }
    }
}
