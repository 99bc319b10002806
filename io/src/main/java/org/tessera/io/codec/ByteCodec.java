package org.tessera.io.codec;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * A transformation of a chunk's bytes and its inverse: the compressors of Zarr v2 and the
 * bytes-to-bytes codecs of Zarr v3. A closed set: each format maps its JSON to one of these
 * records, and every record says in its name and parameters what a reader of the metadata sees.
 */
public sealed interface ByteCodec extends java.io.Serializable permits Gzip, Zlib, Zstd, Blosc, Crc32c {

    /** The encoded bytes; {@code itemSize} is the element size of the array, which Blosc shuffles by. */
    byte[] encode(byte[] data, int itemSize) throws IOException;

    /** The decoded bytes; corrupt input is an IOException naming the codec. */
    byte[] decode(byte[] data) throws IOException;

    /** Whether {@link #decodeInto} can decode straight into memory here (Blosc with a system c-blosc). */
    default boolean decodesInto() {
        return false;
    }

    /**
     * Decodes {@code data} straight into {@code target}, which must be exactly the decoded size,
     * without going through byte arrays; only where {@link #decodesInto()} says so. Corrupt input
     * is an IOException naming the codec.
     */
    default void decodeInto(MemorySegment data, MemorySegment target) throws IOException {
        throw new UnsupportedOperationException(this + " decodes through byte arrays only");
    }
}
