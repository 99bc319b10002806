/**
 * Out-of-core data: chunked arrays read from stores and written into them with bounded memory.
 *
 * <p>Reading goes through the array module's {@link org.tessera.array.RegionSource}: any source
 * that reads a rectangular region (a Zarr array, a memory-mapped .npy file) becomes a chunked array
 * whose blocks each read only their region. Writing goes through a {@link org.tessera.io.ChunkSink},
 * a regular grid of chunks, each written atomically; {@link org.tessera.io.ChunkedStore} plans the
 * writing graph so that each chunk has exactly one writer and runs it on any scheduler.
 *
 * <p>Packages: {@code store} (the key-to-bytes store; a leaf), {@code codec} (byte codecs; a leaf),
 * this package (the sink contract and the store algorithm), {@code zarr} and {@code npy} (formats,
 * built on the leaves and this package).
 */
package org.tessera.io;
