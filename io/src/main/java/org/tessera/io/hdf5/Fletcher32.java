package org.tessera.io.hdf5;

import java.util.Arrays;

/**
 * HDF5's Fletcher-32 filter (filter id 3): the writer appends a 4-byte checksum of the filtered
 * chunk, little-endian; a reader checks it and removes it. jhdf's filter of that id passes the
 * bytes through unchecked and with the checksum still on, so Tessera decodes it here.
 *
 * <p>The checksum is the one HDF5 defines: the bytes are read as big-endian 16-bit words (an odd
 * last byte as the high byte of a word), two running sums over them are folded to 16 bits plus a
 * carry after every 360 words and at the end, and the result is {@code sum2 << 16 | sum1}. HDF5
 * before 1.6.3 stored the checksum with the two bytes of each half swapped; HDF5 accepts both
 * forms on read, and so does this.
 */
final class Fletcher32 {
    /** HDF5's filter id of Fletcher-32. */
    static final int FILTER_ID = 3;

    private Fletcher32() {
    }

    /** HDF5's Fletcher-32 of the first {@code length} bytes of {@code data}. */
    static int checksum(byte[] data, int length) {
        long sum1 = 0;
        long sum2 = 0;
        int words = length / 2;
        int position = 0;
        while (words > 0) {
            int block = Math.min(words, 360);
            words -= block;
            for (int word = 0; word < block; word++) {
                sum1 += (data[position] & 0xff) << 8 | (data[position + 1] & 0xff);
                sum2 += sum1;
                position += 2;
            }
            sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
            sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
        }
        if (length % 2 == 1) {
            sum1 += (data[position] & 0xff) << 8;
            sum2 += sum1;
            sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
            sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
        }
        sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
        sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
        return (int) (sum2 << 16 | sum1);
    }

    /**
     * The chunk's bytes without their checksum, once the checksum matches; {@code where} names the
     * file, dataset and chunk in the exception otherwise.
     */
    static byte[] verifyAndStrip(byte[] stored, String where) throws Hdf5Exception {
        return Arrays.copyOf(stored, verifiedLength(stored, stored.length, where));
    }

    /**
     * The length of the first {@code length} bytes of {@code stored} without their checksum, once
     * the checksum matches; {@code where} names the file, dataset and chunk in the exception otherwise.
     */
    static int verifiedLength(byte[] stored, int length, String where) throws Hdf5Exception {
        if (length < 4) {
            throw new Hdf5Exception(where + ": Fletcher-32: " + length + " bytes cannot hold the 4-byte checksum");
        }
        int data = length - 4;
        int kept = (stored[data] & 0xff) | (stored[data + 1] & 0xff) << 8 | (stored[data + 2] & 0xff) << 16 | (stored[data + 3] & 0xff) << 24;
        int computed = checksum(stored, data);
        int swapped = (computed & 0x00ff00ff) << 8 | (computed >>> 8) & 0x00ff00ff;
        if (kept != computed && kept != swapped) {
            throw new Hdf5Exception(String.format("%s: Fletcher-32 checksum mismatch: the chunk stores 0x%08x, but its %d bytes give 0x%08x (corrupt data)",
                    where, kept, data, computed));
        }
        return data;
    }
}
