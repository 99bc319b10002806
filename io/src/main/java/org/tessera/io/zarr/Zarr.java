package org.tessera.io.zarr;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.io.ChunkedStore;
import org.tessera.io.StoreOptions;
import org.tessera.io.StoreReport;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.store.HttpStore;
import org.tessera.io.store.Store;
import org.tessera.io.store.Stores;

/**
 * Zarr arrays as chunked arrays: open, read as a {@link ChunkedArray}, and store one into a Zarr
 * array, as Dask's {@code from_zarr} and {@code to_zarr}.
 *
 * <pre>{@code
 * ChunkedArray x = Zarr.fromZarr(Path.of("data.zarr"));          // one block per stored chunk
 * Zarr.toZarr(x.multiply(2), Path.of("twice.zarr"), 1000, 1000);  // v2, Blosc lz4, like zarr-python
 * ChunkedArray y = Zarr.fromZarr(URI.create("https://example.org/data.zarr"));  // read over HTTP(S)
 * Zarr.toZarr(y.sum(0), URI.create("s3://bucket/sums.zarr"), 1000);             // write to S3
 * }</pre>
 *
 * <p>A {@link URI} names a store by its scheme ({@link Stores#open(URI)}): {@code s3} is an object
 * store ({@link org.tessera.io.store.S3Store}, configured as the AWS tools are), {@code http} and
 * {@code https} read it with GET and range requests ({@link HttpStore}, read-only, with no listing,
 * so a group's children cannot be listed), and {@code file} is a {@link DirectoryStore}.
 */
public final class Zarr {
    private Zarr() {
    }

    /** The array stored in {@code directory} (a directory holding {@code .zarray} or {@code zarr.json}). */
    public static ZarrArray open(Path directory) throws IOException {
        return ZarrArray.open(DirectoryStore.open(directory), "");
    }

    /** The array at {@code path} inside the hierarchy in {@code directory}. */
    public static ZarrArray open(Path directory, String path) throws IOException {
        return ZarrArray.open(DirectoryStore.open(directory), path);
    }

    public static ZarrGroup openGroup(Path directory) throws IOException {
        return ZarrGroup.open(DirectoryStore.open(directory), "");
    }

    /** The array stored at {@code location}, an {@code s3}, {@code http}, {@code https} or {@code file} URI. */
    public static ZarrArray open(URI location) throws IOException {
        return ZarrArray.open(store(location), "");
    }

    /** The array at {@code path} inside the hierarchy at {@code location}, an {@code s3}, {@code http}, {@code https} or {@code file} URI. */
    public static ZarrArray open(URI location, String path) throws IOException {
        return ZarrArray.open(store(location), path);
    }

    /** The group stored at {@code location}, an {@code s3}, {@code http}, {@code https} or {@code file} URI. */
    public static ZarrGroup openGroup(URI location) throws IOException {
        return ZarrGroup.open(store(location), "");
    }

    private static Store store(URI location) {
        return Stores.open(location);
    }

    /** A chunked array with one block per stored chunk; each block reads only its chunk. */
    public static ChunkedArray fromZarr(Path directory) throws IOException {
        return fromZarr(open(directory));
    }

    /** A chunked array with one block per stored chunk of the array at {@code location} ({@code s3}, {@code http}, {@code https} or {@code file}). */
    public static ChunkedArray fromZarr(URI location) throws IOException {
        return fromZarr(open(location));
    }

    public static ChunkedArray fromZarr(ZarrArray array) {
        return fromZarr(array, ChunkSpec.of(array.chunkShape()));
    }

    /** A chunked array in blocks given by {@code spec}; each block reads the chunks its region overlaps, and only those. */
    public static ChunkedArray fromZarr(ZarrArray array, ChunkSpec spec) {
        return Creation.fromStoredChunks(array, spec, array.chunkShape(), decodedCopies(array.metadata()));
    }

    /**
     * The arrays of a chunk's size that decoding one chunk makes: one, plus one for a shard's inner
     * chunks assembled into it, plus one for each level of codecs that transposes (a copy into C order).
     */
    static int decodedCopies(ArrayMetadata metadata) {
        if (!(metadata instanceof ArrayMetadataV3 version3)) {
            return 1;
        }
        int copies = 1;
        List<ArrayCodec> codecs = version3.codecs().codecs();
        if (codecs.stream().anyMatch(ArrayCodec.Transpose.class::isInstance)) {
            copies++;
        }
        for (ArrayCodec codec : codecs) {
            if (codec instanceof ArrayCodec.Sharding sharding) {
                copies++;
                if (sharding.codecs().stream().anyMatch(ArrayCodec.Transpose.class::isInstance)) {
                    copies++;
                }
            }
        }
        return copies;
    }

    /**
     * Stores {@code array} as a new Zarr v2 array in {@code directory}, in chunks of
     * {@code chunkShape}, with zarr-python's defaults (Blosc lz4 with byte shuffle, fill value 0).
     * Fails if the directory already holds a Zarr node.
     */
    public static ZarrArray toZarr(ChunkedArray array, Path directory, long... chunkShape) throws IOException {
        return toNewZarr(array, DirectoryStore.open(directory), chunkShape);
    }

    /**
     * Stores {@code array} as a new Zarr v2 array at {@code location} ({@code s3} or {@code file}),
     * in chunks of {@code chunkShape}, with zarr-python's defaults; fails if a Zarr node is there.
     */
    public static ZarrArray toZarr(ChunkedArray array, URI location, long... chunkShape) throws IOException {
        return toNewZarr(array, store(location), chunkShape);
    }

    private static ZarrArray toNewZarr(ChunkedArray array, Store store, long[] chunkShape) throws IOException {
        ArrayMetadataV2 metadata = ArrayMetadataV2.of(array.chunks().requireKnownShape("toZarr"), chunkShape, array.dtype());
        toZarr(array, store, "", metadata, StoreOptions.defaults());
        return ZarrArray.open(store, "");
    }

    /**
     * Stores {@code array} into the Zarr array at {@code path} of {@code store}, described by
     * {@code metadata} (format 2 or 3; its shape must be the array's).
     *
     * <p>Without resume, the array is created (an existing node there is an error). With
     * {@link StoreOptions#resume()}, an existing array is reopened, must have exactly
     * {@code metadata}, and only its missing chunks are written; temporary files that an
     * interrupted writer left in a directory store are removed first, whether or not it got as
     * far as the array's metadata.
     */
    public static StoreReport toZarr(ChunkedArray array, Store store, String path, ArrayMetadata metadata, StoreOptions options) throws IOException {
        long[] shape = array.chunks().requireKnownShape("toZarr");
        if (!Arrays.equals(shape, metadata.shape())) {
            throw new IllegalArgumentException("cannot store an array of shape " + Arrays.toString(shape) + " as a Zarr array of shape "
                    + Arrays.toString(metadata.shape()));
        }
        ZarrArray target;
        String node = org.tessera.io.store.StoreKeys.normalizePath(path);
        if (options.resume() && store instanceof DirectoryStore directory) {
            // Also where the node is absent: a writer killed while it wrote the metadata left only a temporary file.
            directory.deletePartialWrites(node);
        }
        if (options.resume() && ZarrNodes.exists(store, node)) {
            target = ZarrArray.open(store, path);
            if (!target.metadata().equals(metadata)) {
                throw new IllegalArgumentException("cannot resume storing into " + target.describe() + ": it has metadata " + target.metadata()
                        + " but the store asks for " + metadata);
            }
        } else {
            target = ZarrArray.create(store, path, metadata, Map.of(), false);
        }
        return ChunkedStore.store(array, target, options);
    }

    /** Writes {@code array} into an existing Zarr array (see {@link ChunkedStore#store}). */
    public static StoreReport store(ChunkedArray array, ZarrArray target) throws IOException {
        return ChunkedStore.store(array, target, StoreOptions.defaults());
    }

    public static StoreReport store(ChunkedArray array, ZarrArray target, StoreOptions options) throws IOException {
        return ChunkedStore.store(array, target, options);
    }
}
