/**
 * The key-to-bytes store that chunk formats are written on, narrow on purpose (get, ranged get,
 * set, contains, delete, list), as zarr-python's store and N5's key-value access are.
 *
 * <p>Invariant: a value is replaced atomically. Chunked writers rely on it to promise that an
 * interrupted store leaves every chunk either absent or complete, and that resuming means writing
 * the keys that are absent. {@link org.tessera.io.store.DirectoryStore} gets it from a temporary
 * file renamed over the key; {@link org.tessera.io.store.MemoryStore} from a concurrent map.
 * {@link org.tessera.io.store.HttpStore} reads a store published over HTTP(S) and cannot be written.
 *
 * <p>Example: {@code DirectoryStore.open(Path.of("data.zarr")).set("x/0.0", bytes)} writes
 * {@code data.zarr/x/.0.0.1f2e….partial}, then renames it to {@code data.zarr/x/0.0}.
 */
package org.tessera.io.store;
