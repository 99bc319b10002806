package org.tessera.io.codec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/** The zlib format (RFC 1950) at a deflate level from 0 to 9: numcodecs' "zlib". */
public record Zlib(int level) implements ByteCodec {
    public Zlib {
        requireLevel("zlib", level);
    }

    static void requireLevel(String codec, int level) {
        if (level < 0 || level > 9) {
            throw new IllegalArgumentException(codec + ": level must be between 0 and 9, got " + level);
        }
    }

    @Override
    public byte[] encode(byte[] data, int itemSize) {
        Deflater deflater = new Deflater(level);
        try {
            deflater.setInput(data);
            deflater.finish();
            ByteArrayOutputStream output = new ByteArrayOutputStream(data.length / 2 + 64);
            byte[] buffer = new byte[1 << 16];
            while (!deflater.finished()) {
                output.write(buffer, 0, deflater.deflate(buffer));
            }
            return output.toByteArray();
        } finally {
            deflater.end();
        }
    }

    @Override
    public byte[] decode(byte[] data) throws IOException {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(data);
            ByteArrayOutputStream output = new ByteArrayOutputStream(data.length * 3 + 64);
            byte[] buffer = new byte[1 << 16];
            while (!inflater.finished()) {
                int count = inflater.inflate(buffer);
                if (count == 0 && !inflater.finished() && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IOException("zlib: the " + data.length + " input bytes end before the compressed stream does");
                }
                output.write(buffer, 0, count);
            }
            return output.toByteArray();
        } catch (DataFormatException corrupt) {
            throw new IOException("zlib: cannot decode " + data.length + " bytes: " + corrupt.getMessage(), corrupt);
        } finally {
            inflater.end();
        }
    }
}
