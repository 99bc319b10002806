/**
 * Zarr arrays and groups, format 2 and format 3, over a {@link org.tessera.io.store.Store}.
 *
 * <p>The model: an array is metadata plus a grid of stored chunks, each under its own key. {@link
 * org.tessera.io.zarr.ArrayMetadata} (one record per format) knows everything that differs between
 * the formats: the JSON document, the chunk keys, and the bytes of a chunk. {@link
 * org.tessera.io.zarr.ZarrArray} above it reads regions and writes chunks the same way for both.
 *
 * <p>Invariants: a chunk is written with one atomic store write; a chunk that is absent reads as
 * the fill value; edge chunks are stored at full chunk shape, padded with the fill value, as
 * zarr-python stores them. What is supported: the dtypes Tessera has (bool, signed and unsigned
 * integers, float16/32/64, complex64/128) in either byte order; C and F order (v2); "." and "/"
 * key separators; compressors null, gzip, zlib, zstd and blosc (v2); codecs bytes, transpose, gzip,
 * zstd, blosc, crc32c and sharding_indexed (v3). Filters (v2) and other codecs are refused with a
 * {@link org.tessera.io.zarr.ZarrFormatException} that names them.
 *
 * <p>Example: a v2 array of shape (7, 5) in chunks of (3, 2) has a 3 x 3 grid; chunk (2, 2) has key
 * {@code "2.2"}, holds rows 6..6 and column 4 of the array, and is stored as 3 x 2 elements, five of
 * them fill values.
 */
package org.tessera.io.zarr;
