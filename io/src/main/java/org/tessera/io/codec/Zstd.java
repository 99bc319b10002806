package org.tessera.io.codec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdInputStream;

/**
 * Zstandard frames (RFC 8878) through zstd-jni: numcodecs' and Zarr v3's "zstd". Levels run from
 * -131072 to 22; {@code checksum} adds the optional 32-bit content checksum to each frame.
 */
public record Zstd(int level, boolean checksum) implements ByteCodec {
    /** The most a frame can expand: a 128 KiB block stored as one repeated byte takes 4 bytes. */
    private static final long MAX_RATIO = (128 << 10) / 4;

    public Zstd {
        if (level < -131072 || level > 22) {
            throw new IllegalArgumentException("zstd: level must be between -131072 and 22, got " + level);
        }
    }

    @Override
    public byte[] encode(byte[] data, int itemSize) {
        try (ZstdCompressCtx context = new ZstdCompressCtx()) {
            return context.setLevel(level).setChecksum(checksum).compress(data);
        }
    }

    @Override
    public byte[] decode(byte[] data) throws IOException {
        if (data.length < 4) {
            throw new IOException("zstd: " + data.length + " bytes are too few for a frame's 4-byte magic number");
        }
        try {
            long contentSize = com.github.luben.zstd.Zstd.getFrameContentSize(data);
            // A frame that records its size (numcodecs and zarr-python write such frames) decodes in one call;
            // frames without it, or several frames, go through the stream decoder. The recorded size is only a
            // claim: the one-call buffer is allocated only for what the input could hold (a zstd block of at
            // most 128 KiB takes at least 4 bytes), so a forged header cannot ask for gigabytes.
            if (contentSize >= 0 && contentSize <= Integer.MAX_VALUE - 8 && contentSize <= MAX_RATIO * data.length) {
                byte[] decoded = com.github.luben.zstd.Zstd.decompress(data, (int) contentSize);
                if (decoded.length == contentSize) {
                    return decoded;
                }
            }
            try (InputStream input = new ZstdInputStream(new ByteArrayInputStream(data))) {
                return input.readAllBytes();
            }
        } catch (IOException | RuntimeException corrupt) {
            // zstd-jni reports some malformed frames with runtime exceptions other than ZstdException.
            throw new IOException("zstd: cannot decode " + data.length + " bytes: " + corrupt.getMessage(), corrupt);
        }
    }
}
