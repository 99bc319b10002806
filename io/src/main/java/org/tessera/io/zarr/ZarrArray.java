package org.tessera.io.zarr;

import java.io.IOException;
import java.io.Serial;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import com.fasterxml.jackson.databind.JsonNode;

import org.tessera.array.RegionSource;
import org.tessera.io.ChunkSink;
import org.tessera.io.store.Store;
import org.tessera.io.store.StoreKeys;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * A Zarr array (format 2 or 3) in a {@link Store}: its metadata, its attributes, and reads and
 * writes of chunks and regions. A chunk that is not in the store reads as the fill value.
 *
 * <p>It is a {@link RegionSource}, so {@code Creation.fromSource} (or {@link Zarr#fromZarr}) makes a
 * chunked array whose blocks each read their own region, and a {@link ChunkSink}, so
 * {@code ChunkedStore.store} writes a chunked array into it chunk by chunk. Each chunk write is
 * one atomic {@link Store#set}. Writing a region that covers parts of chunks reads, changes and
 * rewrites those chunks, so concurrent region writes must not share a chunk; chunk writes never do.
 *
 * <p>The metadata and attributes are read once, when the array is opened.
 */
public final class ZarrArray implements RegionSource, ChunkSink {
    @Serial
    private static final long serialVersionUID = 1L;

    private final Store store;
    private final String path;
    private final ArrayMetadata metadata;
    private final Map<String, Object> attributes;

    private ZarrArray(Store store, String path, ArrayMetadata metadata, Map<String, Object> attributes) {
        this.store = store;
        this.path = path;
        this.metadata = metadata;
        this.attributes = new LinkedHashMap<>(attributes);
    }

    /**
     * Creates an array at {@code path} ("" for the store's root), and groups at the ancestors that
     * have no node. An existing array or group at the path is an error unless {@code overwrite},
     * which deletes everything under the path first.
     */
    public static ZarrArray create(Store store, String path, ArrayMetadata metadata, Map<String, ?> attributes, boolean overwrite) throws IOException {
        String node = StoreKeys.normalizePath(path);
        if (ZarrNodes.exists(store, node)) {
            if (!overwrite) {
                throw new FileAlreadyExistsException(store.describe() + ": a Zarr node already exists at path \"" + node + "\"");
            }
            ZarrNodes.deleteNode(store, node);
        }
        ZarrNodes.createMissingParents(store, node, metadata.zarrFormat());
        ZarrArray array = new ZarrArray(store, node, metadata, new LinkedHashMap<String, Object>(attributes));
        array.writeMetadata();
        return array;
    }

    public static ZarrArray create(Store store, String path, ArrayMetadata metadata) throws IOException {
        return create(store, path, metadata, Map.of(), false);
    }

    /** Opens the array at {@code path}, of either format (v3 is tried when there is no {@code .zarray}). */
    public static ZarrArray open(Store store, String path) throws IOException {
        String node = StoreKeys.normalizePath(path);
        Optional<byte[]> version2 = store.get(StoreKeys.join(node, ".zarray"));
        if (version2.isPresent()) {
            String where = store.describe() + ": " + StoreKeys.join(node, ".zarray");
            ArrayMetadataV2 metadata = ArrayMetadataV2.parse(ZarrJson.parse(version2.get(), where), where);
            Optional<byte[]> attributes = store.get(StoreKeys.join(node, ".zattrs"));
            Map<String, Object> values = attributes.isPresent()
                    ? ZarrJson.toMap(ZarrJson.parse(attributes.get(), store.describe() + ": " + StoreKeys.join(node, ".zattrs"))) : Map.of();
            return new ZarrArray(store, node, metadata, values);
        }
        Optional<byte[]> version3 = store.get(StoreKeys.join(node, "zarr.json"));
        if (version3.isPresent()) {
            String where = store.describe() + ": " + StoreKeys.join(node, "zarr.json");
            JsonNode json = ZarrJson.parse(version3.get(), where);
            return new ZarrArray(store, node, ArrayMetadataV3.parse(json, where), ZarrJson.attributes(json, where));
        }
        throw new NoSuchFileException(store.describe() + ": no Zarr array at path \"" + node + "\" (neither .zarray nor zarr.json)");
    }

    private void writeMetadata() throws IOException {
        switch (metadata) {
            case ArrayMetadataV2 version2 -> {
                store.set(StoreKeys.join(path, ".zarray"), ZarrJson.write(version2.toJson()));
                if (!attributes.isEmpty()) {
                    store.set(StoreKeys.join(path, ".zattrs"), ZarrJson.write(ZarrJson.fromMap(attributes)));
                }
            }
            case ArrayMetadataV3 version3 -> store.set(StoreKeys.join(path, "zarr.json"), ZarrJson.write(version3.toJson(attributes)));
        }
    }

    public Store store() {
        return store;
    }

    /** The array's path in its store ("" for the root). */
    public String path() {
        return path;
    }

    public ArrayMetadata metadata() {
        return metadata;
    }

    /** The attributes as read when opened (a copy). */
    public Map<String, Object> attributes() {
        return new LinkedHashMap<>(attributes);
    }

    /** This array with its attributes replaced, written to the store ({@code .zattrs} or {@code zarr.json}). */
    public ZarrArray withAttributes(Map<String, ?> newAttributes) throws IOException {
        ZarrArray updated = new ZarrArray(store, path, metadata, new LinkedHashMap<>(newAttributes));
        switch (metadata) {
            case ArrayMetadataV2 version2 -> store.set(StoreKeys.join(path, ".zattrs"), ZarrJson.write(ZarrJson.fromMap(newAttributes)));
            case ArrayMetadataV3 version3 -> updated.writeMetadata();
        }
        return updated;
    }

    @Override
    public long[] shape() {
        return metadata.shape();
    }

    @Override
    public DType dtype() {
        return metadata.dtype();
    }

    @Override
    public long[] chunkShape() {
        return metadata.chunkShape();
    }

    /** The stored chunks along each axis. */
    public int[] chunkCounts() {
        return metadata.chunkCounts();
    }

    /** The store key of chunk {@code chunkIndex}. */
    public String chunkKey(int... chunkIndex) {
        int[] counts = metadata.chunkCounts();
        if (chunkIndex.length != counts.length) {
            throw new IllegalArgumentException("chunk index " + Arrays.toString(chunkIndex) + " has " + chunkIndex.length + " positions for an array of "
                    + counts.length + " axes");
        }
        for (int axis = 0; axis < counts.length; axis++) {
            if (chunkIndex[axis] < 0 || chunkIndex[axis] >= counts[axis]) {
                throw new IndexOutOfBoundsException("chunk index " + Arrays.toString(chunkIndex) + " is outside the chunk grid " + Arrays.toString(counts)
                        + " of " + describe());
            }
        }
        return StoreKeys.join(path, metadata.chunkKey(chunkIndex));
    }

    @Override
    public boolean hasChunk(int[] chunkIndex) throws IOException {
        return store.contains(chunkKey(chunkIndex));
    }

    /** Chunk {@code chunkIndex} at its full stored shape (edge chunks include their padding); the fill value when absent. */
    public NDArray readChunk(int... chunkIndex) throws IOException {
        String key = chunkKey(chunkIndex);
        // Read through a mapping, as a region is: a codec that decodes into memory then reads the file in place.
        try (Arena arena = Arena.ofConfined()) {
            Optional<MemorySegment> bytes = store.map(key, arena);
            return bytes.isPresent()
                    ? metadata.decodeChunkRegion(bytes.get(), new long[metadata.chunkShape().length], metadata.chunkShape(), store.describe() + ": chunk " + key)
                    : metadata.fillValue().fill(metadata.chunkShape());
        }
    }

    @Override
    public void writeChunk(int[] chunkIndex, NDArray values) throws IOException {
        String key = chunkKey(chunkIndex);
        long[] chunkShape = metadata.chunkShape();
        long[] inside = insideShape(chunkIndex);
        long[] given = values.shape();
        NDArray chunk;
        if (Arrays.equals(given, chunkShape)) {
            chunk = values;
        } else if (Arrays.equals(given, inside)) {
            // Edge chunks are stored whole; the part outside the array holds the fill value, as zarr-python writes it.
            chunk = metadata.fillValue().fill(chunkShape);
            NDArray corner = chunk;
            for (int axis = 0; axis < inside.length; axis++) {
                corner = corner.slice(axis, 0, 1, inside[axis]);
            }
            corner.assign(values);
        } else {
            throw new IllegalArgumentException("chunk " + key + " of " + describe() + " takes values of shape " + Arrays.toString(inside)
                    + (Arrays.equals(inside, chunkShape) ? "" : " or " + Arrays.toString(chunkShape)) + ", got " + Arrays.toString(given));
        }
        try {
            if (metadata instanceof ArrayMetadataV2 v2 && v2.encodesInto()) {
                v2.encodeChunkInto(chunk, encoded -> store.set(key, encoded));
            } else {
                store.set(key, metadata.encodeChunk(chunk));
            }
        } catch (IOException failure) {
            // One message that names the array, its store and the chunk (a full disk says only "No space left on device").
            throw new IOException(describe() + ": cannot write chunk " + key + ": " + failure.getMessage(), failure);
        }
    }

    /** The shape of the part of chunk {@code chunkIndex} inside the array. */
    private long[] insideShape(int[] chunkIndex) {
        long[] shape = metadata.shape();
        long[] chunkShape = metadata.chunkShape();
        long[] inside = new long[shape.length];
        for (int axis = 0; axis < shape.length; axis++) {
            inside[axis] = Math.min(chunkShape[axis], shape[axis] - chunkIndex[axis] * chunkShape[axis]);
        }
        return inside;
    }

    /** The region {@code [start, start + shape)} as a new array; reads only the chunks it overlaps. */
    public NDArray readRegion(long[] start, long[] regionShape) throws IOException {
        requireRegion(start, regionShape, metadata.shape());
        List<ChunkOverlap> overlaps = ChunkOverlap.of(start, regionShape, metadata.chunkShape());
        if (overlaps.size() == 1) {
            // One chunk holds the whole region: its decoded part is the answer, with no copy.
            return readOverlap(overlaps.getFirst());
        }
        NDArray result = NDArray.zeros(metadata.dtype(), regionShape);
        for (ChunkOverlap overlap : overlaps) {
            overlap.inRegion(result).assign(readOverlap(overlap));
        }
        return result;
    }

    /** The part of one chunk in a region: decoded from the chunk's bytes, read by ranges from a shard, or the fill value. */
    private NDArray readOverlap(ChunkOverlap overlap) throws IOException {
        String key = chunkKey(overlap.chunkIndex());
        String where = store.describe() + ": chunk " + key;
        if (!Arrays.equals(overlap.shape(), metadata.chunkShape()) && metadata instanceof ArrayMetadataV3 version3 && version3.codecs().soleSharding() != null) {
            OptionalLong size = store.size(key);
            return size.isEmpty() ? metadata.fillValue().fill(overlap.shape())
                    : version3.readShardRegion(ShardBytes.ranges(store, key, size.getAsLong()), overlap.inChunkStart(), overlap.shape(), where);
        }
        // The mapping is closed here: decoding copies what it needs out of it.
        try (Arena arena = Arena.ofConfined()) {
            Optional<MemorySegment> bytes = store.map(key, arena);
            return bytes.isPresent() ? metadata.decodeChunkRegion(bytes.get(), overlap.inChunkStart(), overlap.shape(), where)
                    : metadata.fillValue().fill(overlap.shape());
        }
    }

    /** The whole array in memory. */
    public NDArray readAll() throws IOException {
        return readRegion(new long[metadata.shape().length], metadata.shape());
    }

    /**
     * Writes {@code values} at {@code start}: chunks it covers completely are replaced, chunks it
     * covers in part are read, changed and rewritten.
     */
    public void writeRegion(long[] start, NDArray values) throws IOException {
        long[] regionShape = values.shape();
        requireRegion(start, regionShape, metadata.shape());
        for (ChunkOverlap overlap : ChunkOverlap.of(start, regionShape, metadata.chunkShape())) {
            NDArray part = overlap.inRegion(values);
            boolean wholeChunk = Arrays.stream(overlap.inChunkStart()).allMatch(position -> position == 0)
                    && Arrays.equals(overlap.shape(), insideShape(overlap.chunkIndex()));
            if (wholeChunk) {
                writeChunk(overlap.chunkIndex(), part);
            } else {
                NDArray chunk = readChunk(overlap.chunkIndex());
                overlap.inChunk(chunk).assign(part);
                writeChunk(overlap.chunkIndex(), chunk);
            }
        }
    }

    /** Writes the whole array from {@code values}, which must have its shape. */
    public void writeAll(NDArray values) throws IOException {
        if (!Arrays.equals(values.shape(), metadata.shape())) {
            throw new IllegalArgumentException("cannot write values of shape " + Arrays.toString(values.shape()) + " into " + describe()
                    + " of shape " + Arrays.toString(metadata.shape()));
        }
        writeRegion(new long[metadata.shape().length], values);
    }

    private void requireRegion(long[] start, long[] regionShape, long[] shape) {
        if (start.length != shape.length || regionShape.length != shape.length) {
            throw new IllegalArgumentException("region start " + Arrays.toString(start) + " and shape " + Arrays.toString(regionShape)
                    + " do not match the " + shape.length + " axes of " + describe());
        }
        for (int axis = 0; axis < shape.length; axis++) {
            if (start[axis] < 0 || regionShape[axis] < 0 || start[axis] + regionShape[axis] > shape[axis]) {
                throw new IndexOutOfBoundsException("region start " + Arrays.toString(start) + " shape " + Arrays.toString(regionShape)
                        + " is outside " + describe() + " of shape " + Arrays.toString(shape) + " on axis " + axis);
            }
        }
    }

    /** RegionSource: the region read from the store; an I/O failure is an UncheckedIOException naming the array. */
    @Override
    public NDArray read(long[] start, long[] regionShape) {
        try {
            return readRegion(start, regionShape);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot read region start " + Arrays.toString(start) + " shape " + Arrays.toString(regionShape)
                    + " of " + describe() + ": " + failure.getMessage(), failure);
        }
    }

    /** RegionSource: the store starts fetching the chunks the region overlaps (whole chunks; a shard's inner chunks are read by range when asked). */
    @Override
    public void prefetch(long[] start, long[] regionShape) {
        if (start.length != metadata.shape().length || regionShape.length != start.length) {
            return;
        }
        for (ChunkOverlap overlap : ChunkOverlap.of(start, regionShape, metadata.chunkShape())) {
            boolean partOfShard = !Arrays.equals(overlap.shape(), metadata.chunkShape()) && metadata instanceof ArrayMetadataV3 version3
                    && version3.codecs().soleSharding() != null;
            if (!partOfShard) {
                store.prefetch(chunkKey(overlap.chunkIndex()));
            }
        }
    }

    /**
     * RegionSource: slabs of a region inside one chunk, decoded alone where the chunk is raw or
     * Blosc (through a system c-blosc) and Zarr v2 in C order; empty otherwise.
     */
    @Override
    public Optional<RegionSource.SlabReader> slabs(long[] start, long[] regionShape) {
        requireRegion(start, regionShape, metadata.shape());
        return ChunkSlabs.of(store, path, metadata, start, regionShape);
    }

    @Override
    public boolean readsSlabs() {
        return ChunkSlabs.decodesSlabs(metadata);
    }

    /** A remote store fetches a whole chunk for every read of it. */
    @Override
    public boolean rereadsCheaply() {
        return !store.isRemote();
    }

    /** The same path, store and metadata give the same chunked-array names, as Dask tokenizes Zarr arrays. */
    @Override
    public Object identity() {
        return "zarr:" + store.describe() + ":" + path + ":" + metadata;
    }

    @Override
    public String describe() {
        return "Zarr v" + metadata.zarrFormat() + " array " + (path.isEmpty() ? "/" : "\"" + path + "\"") + " in " + store.describe();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ZarrArray that && store.equals(that.store) && path.equals(that.path) && metadata.equals(that.metadata);
    }

    @Override
    public int hashCode() {
        return store.hashCode() * 31 + path.hashCode();
    }

    @Override
    public String toString() {
        return describe() + " " + metadata;
    }
}
