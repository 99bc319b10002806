package org.tessera.io.zarr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.io.StoreOptions;
import org.tessera.io.StoreReport;
import org.tessera.io.store.DirectoryStore;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;

/**
 * The path of the out-of-core headline run (bench's {@code ./tessera bench AtA}) on a small array:
 * A written to an uncompressed Zarr store in row blocks, read back, and {@code A.T @ A} computed
 * from the store with the threaded scheduler, compared with the product of A in memory.
 */
class OutOfCoreGramTest {
    @TempDir
    Path directory;

    @Test
    void gramMatrixFromTheStoreMatchesTheInMemoryProduct() throws IOException {
        long rows = 20_000;
        long columns = 50;
        long blockRows = 2_000;
        ChunkedArray generated = Creation.random(8, Creation.Distribution.UNIFORM, new long[] {rows, columns}, ChunkSpec.of(blockRows, columns));
        ArrayMetadataV2 metadata = ArrayMetadataV2.of(new long[] {rows, columns}, new long[] {blockRows, columns}, DType.FLOAT64).withCompressor(null);
        Path store = directory.resolve("A.zarr");
        StoreReport report = Zarr.toZarr(generated, DirectoryStore.open(store), "", metadata, StoreOptions.defaults());
        assertEquals(rows / blockRows, report.chunksWritten());

        ChunkedArray a = Zarr.fromZarr(store);
        assertArrayEquals(new long[] {blockRows, columns}, a.chunkSize());
        NDArray gram = a.T().matmul(a).compute(new ThreadedScheduler());

        NDArray inMemory = generated.compute();
        NDArray expected = NDArrays.matmul(inMemory.transpose(), inMemory);
        assertArrayEquals(new long[] {columns, columns}, gram.shape());
        double trace = 0;
        for (long row = 0; row < columns; row++) {
            trace += gram.getDouble(row, row);
            for (long column = 0; column < columns; column++) {
                double want = expected.getDouble(row, column);
                // The blocked product adds the partial products in a different order than one GEMM does.
                assertEquals(want, gram.getDouble(row, column), 1e-12 * Math.abs(want), "element (" + row + ", " + column + ")");
            }
        }
        double meanSquare = trace / (rows * columns);
        assertTrue(Math.abs(meanSquare - 1.0 / 3.0) < 1e-2, "mean of x^2 for x uniform in [0, 1): " + meanSquare);
    }
}
