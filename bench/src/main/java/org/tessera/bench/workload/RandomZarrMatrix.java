package org.tessera.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.io.StoreOptions;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.store.Store;
import org.tessera.io.zarr.ArrayMetadataV2;
import org.tessera.io.zarr.Zarr;
import org.tessera.io.zarr.ZarrArray;
import org.tessera.ndarray.dtype.DType;

/**
 * The matrix of the out-of-core runs ({@code ./tessera bench AtA} and {@code ./tessera demo}): a
 * float64 matrix, uniform in [0, 1) from a fixed seed, stored as an uncompressed Zarr v2 array in
 * blocks of whole rows.
 *
 * <p>Chunks are stored uncompressed: the mantissas of random doubles are random bytes, so even
 * Blosc with byte shuffle gains only on the exponent bytes, and decompression would take cores
 * from the product that these runs measure.
 */
public record RandomZarrMatrix(long rows, long columns, long blockRows, long seed) {

    public RandomZarrMatrix {
        if (rows < 1 || columns < 1 || blockRows < 1) {
            throw new IllegalArgumentException("rows, columns and block rows must be positive, got " + rows + ", " + columns + ", " + blockRows);
        }
    }

    /** A matrix of about {@code bytes} bytes with {@code columns} columns, in blocks of at most {@code blockRows} rows. */
    public static RandomZarrMatrix ofBytes(long bytes, long columns, long blockRows, long seed) {
        long rows = Math.max(1, bytes / (columns * Double.BYTES));
        return new RandomZarrMatrix(rows, columns, Math.min(blockRows, rows), seed);
    }

    public long[] shape() {
        return new long[] {rows, columns};
    }

    public long[] chunkShape() {
        return new long[] {blockRows, columns};
    }

    /** The bytes of the whole matrix in memory (and on disk, since it is stored uncompressed). */
    public long bytes() {
        return rows * columns * Double.BYTES;
    }

    /** The floating-point operations of {@code A.T @ A}: 2 N M^2. */
    public double gramFlops() {
        return 2.0 * rows * columns * columns;
    }

    public ArrayMetadataV2 metadata() {
        return ArrayMetadataV2.of(shape(), chunkShape(), DType.FLOAT64).withCompressor(null);
    }

    /** The matrix as a lazy chunked array, before it is stored. */
    public ChunkedArray generator() {
        return Creation.random(seed, Creation.Distribution.UNIFORM, shape(), ChunkSpec.of(chunkShape()));
    }

    /** Writes the matrix to a new Zarr store at {@code store} (replacing what is there) and returns the seconds it took. */
    public double write(Path store, StoreOptions options) throws IOException {
        if (Files.exists(store)) {
            DirectoryTrees.delete(store);
        }
        long start = System.nanoTime();
        Zarr.toZarr(generator(), DirectoryStore.open(store), "", metadata(), options);
        return (System.nanoTime() - start) / 1e9;
    }

    /**
     * Writes the matrix as the Zarr array at the root of {@code store} (an S3 prefix, say),
     * replacing the Zarr node there with every key under it, and returns the seconds it took.
     */
    public double write(Store store, StoreOptions options) throws IOException {
        long start = System.nanoTime();
        Zarr.store(generator(), ZarrArray.create(store, "", metadata(), java.util.Map.of(), true), options);
        return (System.nanoTime() - start) / 1e9;
    }

    /**
     * Whether the root of {@code store} already holds this matrix completely: the same metadata and
     * every chunk written; false where the store cannot list its keys to count the chunks.
     */
    public boolean isHeldBy(Store store) {
        try {
            ZarrArray existing = ZarrArray.open(store, "");
            return existing.metadata().equals(metadata())
                    && store.list("").stream().filter(key -> !key.startsWith(".") && !key.contains("/")).count() == Math.ceilDiv(rows, blockRows);
        } catch (IOException | RuntimeException unreadable) {
            return false;
        }
    }

    /** Whether {@code store} already holds this matrix completely: the same metadata and every chunk written. */
    public boolean isHeldBy(Path store) {
        if (!Files.isDirectory(store)) {
            return false;
        }
        try {
            ZarrArray existing = Zarr.open(store);
            if (!existing.metadata().equals(metadata())) {
                return false;
            }
            try (Stream<Path> files = Files.list(store)) {
                return files.filter(file -> !file.getFileName().toString().startsWith(".")).count() == Math.ceilDiv(rows, blockRows);
            }
        } catch (IOException | RuntimeException unreadable) {
            return false;
        }
    }
}
