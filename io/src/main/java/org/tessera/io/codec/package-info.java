/**
 * Byte codecs: gzip and zlib from {@code java.util.zip}, zstd through zstd-jni, Blosc 1 through the
 * c-blosc JNI library, and Zarr v3's crc32c. Each is a record in the sealed {@link
 * org.tessera.io.codec.ByteCodec}, so a format that adds one must say how every switch handles it.
 *
 * <p>Codecs are values: two codecs with the same parameters are equal, which keeps array metadata
 * comparable (a resumed store checks that the metadata on disk is the one it would write).
 */
package org.tessera.io.codec;
