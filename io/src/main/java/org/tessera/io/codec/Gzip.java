package org.tessera.io.codec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/** The gzip format (RFC 1952) at a deflate level from 0 to 9: numcodecs' and Zarr v3's "gzip". */
public record Gzip(int level) implements ByteCodec {
    public Gzip {
        Zlib.requireLevel("gzip", level);
    }

    @Override
    public byte[] encode(byte[] data, int itemSize) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(data.length / 2 + 64);
        try (GZIPOutputStream output = new LeveledGzipOutputStream(bytes, level)) {
            output.write(data);
        }
        return bytes.toByteArray();
    }

    @Override
    public byte[] decode(byte[] data) throws IOException {
        if (isZlibStream(data)) {
            // z5 (z5py) writes zlib streams (RFC 1950) under the id "gzip"; zarr-python rejects
            // them, but their two header bytes cannot start a gzip member, so they are read as zlib.
            try {
                return new Zlib(level).decode(data);
            } catch (IOException corrupt) {
                throw new IOException("gzip: the " + data.length + " bytes are a zlib stream (as z5 writes for gzip) that cannot be decoded: "
                        + corrupt.getMessage(), corrupt);
            }
        }
        try (InputStream input = new GZIPInputStream(new ByteArrayInputStream(data), 1 << 16)) {
            return input.readAllBytes();
        } catch (IOException corrupt) {
            throw new IOException("gzip: cannot decode " + data.length + " bytes: " + corrupt.getMessage(), corrupt);
        }
    }

    /**
     * Whether the bytes start with a zlib header: compression method 8 (deflate) with a window of
     * at most 32 KiB, and the two header bytes a multiple of 31 as big-endian 16-bit number. A
     * gzip member starts with 0x1f 0x8b, which is never such a header.
     */
    static boolean isZlibStream(byte[] data) {
        if (data.length < 2) {
            return false;
        }
        int method = data[0] & 0xff;
        int flags = data[1] & 0xff;
        return (method & 0x0f) == 8 && (method >>> 4) <= 7 && (method << 8 | flags) % 31 == 0;
    }

    /** GZIPOutputStream with a level: the JDK class exposes its Deflater only to subclasses. */
    private static final class LeveledGzipOutputStream extends GZIPOutputStream {
        LeveledGzipOutputStream(ByteArrayOutputStream output, int level) throws IOException {
            super(output, 1 << 16);
            def.setLevel(level);
        }
    }
}
