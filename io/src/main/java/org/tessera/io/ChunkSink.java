package org.tessera.io;

import java.io.IOException;
import java.io.Serializable;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * A destination written one chunk at a time on a regular grid: a Zarr array, later an HDF5
 * dataset. {@link ChunkedStore} gives every chunk to exactly one task, so implementations need no
 * locks; they must make each chunk write atomic (a reader sees the whole chunk or none of it).
 * Serializable because the writing tasks carry their sink.
 */
public interface ChunkSink extends Serializable {

    long[] shape();

    DType dtype();

    /** The shape of a chunk; chunks at the high edge of an axis hold only the part inside the array. */
    long[] chunkShape();

    /** Whether chunk {@code chunkIndex} has been written (completely: writes are atomic). */
    boolean hasChunk(int[] chunkIndex) throws IOException;

    /**
     * Writes chunk {@code chunkIndex} atomically. {@code values} has the shape of the part of the
     * chunk inside the array (smaller than {@link #chunkShape()} at the high edges) and this dtype.
     */
    void writeChunk(int[] chunkIndex, NDArray values) throws IOException;

    /** Names the sink in messages, e.g. "Zarr array temperature in directory /data/x.zarr". */
    String describe();
}
