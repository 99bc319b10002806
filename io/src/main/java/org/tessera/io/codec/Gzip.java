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
        try (InputStream input = new GZIPInputStream(new ByteArrayInputStream(data), 1 << 16)) {
            return input.readAllBytes();
        } catch (IOException corrupt) {
            throw new IOException("gzip: cannot decode " + data.length + " bytes: " + corrupt.getMessage(), corrupt);
        }
    }

    /** GZIPOutputStream with a level: the JDK class exposes its Deflater only to subclasses. */
    private static final class LeveledGzipOutputStream extends GZIPOutputStream {
        LeveledGzipOutputStream(ByteArrayOutputStream output, int level) throws IOException {
            super(output, 1 << 16);
            def.setLevel(level);
        }
    }
}
