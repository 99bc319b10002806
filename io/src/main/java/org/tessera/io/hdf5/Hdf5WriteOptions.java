package org.tessera.io.hdf5;

import java.util.Arrays;

/**
 * How {@link Hdf5#toHdf5} lays a dataset out in the file.
 *
 * @param chunkShape the chunk shape, or null for a contiguous dataset (edge chunks are clipped to
 *                   the dataset's shape, which HDF5 requires of fixed-size datasets)
 * @param shuffle    the byte-shuffle filter before compression (chunked only), which groups the
 *                   bytes of equal significance and lets deflate find more repetition in numbers
 * @param gzipLevel  the deflate (gzip) level 1..9, or 0 for no compression (chunked only)
 */
public record Hdf5WriteOptions(long[] chunkShape, boolean shuffle, int gzipLevel) {
    public Hdf5WriteOptions {
        chunkShape = chunkShape == null ? null : chunkShape.clone();
        if (gzipLevel < 0 || gzipLevel > 9) {
            throw new IllegalArgumentException("a gzip level is 0 (none) to 9, got " + gzipLevel);
        }
        if (chunkShape == null && (shuffle || gzipLevel > 0)) {
            throw new IllegalArgumentException("HDF5 applies filters (shuffle, gzip) to chunks only; give a chunk shape");
        }
        if (chunkShape != null && Arrays.stream(chunkShape).anyMatch(length -> length < 1 || length > Integer.MAX_VALUE)) {
            throw new IllegalArgumentException("chunk lengths must be 1.." + Integer.MAX_VALUE + ", got " + Arrays.toString(chunkShape));
        }
    }

    /** One contiguous block of elements, unfiltered: what h5py writes by default. */
    public static Hdf5WriteOptions contiguous() {
        return new Hdf5WriteOptions(null, false, 0);
    }

    /** Chunks of {@code chunkShape}, unfiltered. */
    public static Hdf5WriteOptions chunked(long... chunkShape) {
        return new Hdf5WriteOptions(chunkShape, false, 0);
    }

    public Hdf5WriteOptions withGzip(int level) {
        return new Hdf5WriteOptions(chunkShape, shuffle, level);
    }

    public Hdf5WriteOptions withShuffle() {
        return new Hdf5WriteOptions(chunkShape, true, gzipLevel);
    }

    @Override
    public long[] chunkShape() {
        return chunkShape == null ? null : chunkShape.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Hdf5WriteOptions options && Arrays.equals(chunkShape, options.chunkShape) && shuffle == options.shuffle
                && gzipLevel == options.gzipLevel;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(chunkShape) + Boolean.hashCode(shuffle)) + gzipLevel;
    }

    @Override
    public String toString() {
        return chunkShape == null ? "contiguous" : "chunks " + Arrays.toString(chunkShape) + (shuffle ? ", shuffle" : "") + (gzipLevel > 0 ? ", gzip " + gzipLevel : "");
    }
}
