package org.tessera.io.codec;

import java.io.IOException;

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
}
