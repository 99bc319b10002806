package org.tessera.io.codec;

import java.io.IOException;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Zarr v3's "crc32c": appends the CRC-32C of the bytes, little-endian, and checks it on decode.
 * Shard indexes carry one by default, so that a torn index is caught rather than misread.
 */
public record Crc32c() implements ByteCodec {
    @Override
    public byte[] encode(byte[] data, int itemSize) {
        byte[] result = Arrays.copyOf(data, data.length + 4);
        int checksum = checksum(data, data.length);
        for (int position = 0; position < 4; position++) {
            result[data.length + position] = (byte) (checksum >>> (8 * position));
        }
        return result;
    }

    @Override
    public byte[] decode(byte[] data) throws IOException {
        if (data.length < 4) {
            throw new IOException("crc32c: " + data.length + " bytes cannot hold a 4-byte checksum");
        }
        int length = data.length - 4;
        int stored = 0;
        for (int position = 0; position < 4; position++) {
            stored |= (data[length + position] & 0xff) << (8 * position);
        }
        int computed = checksum(data, length);
        if (stored != computed) {
            throw new IOException(String.format("crc32c: checksum mismatch, stored 0x%08x but the %d bytes give 0x%08x", stored, length, computed));
        }
        return Arrays.copyOf(data, length);
    }

    private static int checksum(byte[] data, int length) {
        CRC32C crc = new CRC32C();
        crc.update(data, 0, length);
        return (int) crc.getValue();
    }
}
