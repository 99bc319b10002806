package org.tessera.io.zarr;

import java.io.IOException;
import java.io.Serializable;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * What a reader must know about a Zarr array: shape, the regular grid of stored chunks, dtype,
 * fill value, how a chunk index becomes a key, and how a chunk becomes bytes and back. One record
 * per format version; everything above this interface (regions, chunked arrays, stores) is the
 * same for both.
 *
 * <p>The stored chunk of a sharded v3 array is the shard: it is what one key holds, so it is the
 * unit that one writing task owns.
 */
public sealed interface ArrayMetadata extends Serializable permits ArrayMetadataV2, ArrayMetadataV3 {

    long[] shape();

    /** The shape of one stored chunk (a shard for sharded v3 arrays); edge chunks are stored whole, padded with the fill value. */
    long[] chunkShape();

    DType dtype();

    FillValue fillValue();

    /** 2 or 3. */
    int zarrFormat();

    /** The key of a chunk relative to the array's path: {@code "1.0"}, {@code "1/0"} or {@code "c/1/0"}. */
    String chunkKey(int[] chunkIndex);

    /** The key of the metadata document relative to the array's path: {@code ".zarray"} or {@code "zarr.json"}. */
    String metadataKey();

    /** The bytes to store for a chunk of exactly {@link #chunkShape()}. */
    byte[] encodeChunk(NDArray chunk) throws IOException;

    /** A new array of {@link #chunkShape()} from stored bytes; {@code where} names the key in messages. */
    NDArray decodeChunk(byte[] bytes, String where) throws IOException;

    /**
     * The region {@code [start, start + shape)} of a chunk from its stored bytes. Formats that can
     * decode part of a chunk (sharding) override this; the default decodes it all.
     */
    /**
     * {@link #decodeChunkRegion(byte[], long[], long[], String)} from stored bytes in a segment,
     * which may be a mapped file unmapped after this call: the result never refers to it. Formats
     * that store chunks as plain bytes decode them straight from the segment; the default copies
     * it into an array first.
     */
    default NDArray decodeChunkRegion(MemorySegment bytes, long[] start, long[] shape, String where) throws IOException {
        return decodeChunkRegion(bytes.toArray(ValueLayout.JAVA_BYTE), start, shape, where);
    }

    default NDArray decodeChunkRegion(byte[] bytes, long[] start, long[] shape, String where) throws IOException {
        return regionOf(decodeChunk(bytes, where), start, shape);
    }

    /** The view of {@code chunk} from {@code start} of {@code shape}. */
    static NDArray regionOf(NDArray chunk, long[] start, long[] shape) {
        NDArray region = chunk;
        for (int axis = 0; axis < start.length; axis++) {
            region = region.slice(axis, start[axis], 1, shape[axis]);
        }
        return region;
    }

    /** The number of stored chunks along each axis. */
    default int[] chunkCounts() {
        long[] shape = shape();
        long[] chunkShape = chunkShape();
        int[] counts = new int[shape.length];
        for (int axis = 0; axis < shape.length; axis++) {
            counts[axis] = chunkShape[axis] == 0 ? 0 : Math.toIntExact((shape[axis] + chunkShape[axis] - 1) / chunkShape[axis]);
        }
        return counts;
    }

    /** Checks shape and chunk shape together; used by both records' constructors. */
    static void requireGrid(long[] shape, long[] chunkShape) {
        if (shape.length != chunkShape.length) {
            throw new IllegalArgumentException("chunk shape " + Arrays.toString(chunkShape) + " has " + chunkShape.length
                    + " axes but the array shape " + Arrays.toString(shape) + " has " + shape.length);
        }
        for (int axis = 0; axis < shape.length; axis++) {
            if (shape[axis] < 0 || chunkShape[axis] < 1) {
                throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " must not be negative and chunk shape "
                        + Arrays.toString(chunkShape) + " must be positive on every axis (axis " + axis + ")");
            }
            // Chunk indexes are ints (chunkCounts, chunk keys): a grid past that is refused here rather than overflowing later.
            if (shape[axis] / chunkShape[axis] + (shape[axis] % chunkShape[axis] == 0 ? 0 : 1) > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " in chunks of " + Arrays.toString(chunkShape)
                        + " has more than 2^31 - 1 chunks along axis " + axis);
            }
        }
    }
}
