package org.tessera.io.hdf5;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import io.jhdf.object.message.FilterPipelineMessage;
import org.tessera.io.codec.IdleBuffers;

/**
 * The filters h5py writes by default, undone here over pooled buffers straight into a chunk's
 * memory: deflate (id 1, a zlib stream), byte shuffle (id 2) and Fletcher-32 (id 3). jhdf's
 * pipeline copies the stored bytes out of the file's mapping, inflates through a growing stream and
 * unshuffles into a fresh array, four or five chunk-sized arrays per chunk; here the stored bytes
 * and the inflated ones go to arrays kept for the next chunk, and the last stage writes into the
 * block. A dataset with any other filter goes through jhdf's pipeline.
 *
 * <p>HDF5's shuffle puts byte k of every element in the k-th of {@code elementSize} runs of the
 * chunk, the bytes that do not fill a whole element left as they were at the end; the element
 * size is the filter's first parameter.
 */
final class ChunkFilters {
    static final int DEFLATE = 1;
    static final int SHUFFLE = 2;

    /** Stored and intermediate chunk bytes, kept between chunks. */
    private static final IdleBuffers BUFFERS = IdleBuffers.arrays();
    private static final ValueLayout.OfLong LITTLE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private ChunkFilters() {
    }

    /** A pooled array for a chunk's stored bytes, to be passed to {@link #decode}, which gives it back. */
    static byte[] storedBuffer(int length) {
        return BUFFERS.borrow(length);
    }

    /** Whether every filter of {@code stages} is one this class undoes. */
    static boolean handles(List<FilterPipelineMessage.FilterInfo> stages) {
        return stages.stream().allMatch(stage -> stage.getId() == DEFLATE || stage.getId() == SHUFFLE || stage.getId() == Fletcher32.FILTER_ID);
    }

    /**
     * Undoes {@code stages} (in the order they were applied on write) on the first {@code length}
     * bytes of {@code stored} (a {@link #storedBuffer}, given back here), leaving exactly the
     * target's bytes in {@code target}; {@code where} names the file, dataset and chunk in errors.
     */
    static void decode(List<FilterPipelineMessage.FilterInfo> stages, byte[] stored, int length, MemorySegment target, String where)
            throws Hdf5Exception {
        byte[] current = stored;
        try {
            for (int position = stages.size() - 1; position >= 0; position--) {
                FilterPipelineMessage.FilterInfo stage = stages.get(position);
                switch (stage.getId()) {
                    case Fletcher32.FILTER_ID -> length = Fletcher32.verifiedLength(current, length, where);
                    case DEFLATE -> {
                        int inflated = Math.toIntExact(target.byteSize() + 4L * checksumsBefore(stages, position));
                        byte[] into = BUFFERS.borrow(inflated);
                        try {
                            inflate(current, length, into, inflated, where);
                        } catch (Hdf5Exception | RuntimeException failure) {
                            BUFFERS.giveBack(into);
                            throw failure;
                        }
                        BUFFERS.giveBack(current);
                        current = into;
                        length = inflated;
                    }
                    case SHUFFLE -> {
                        int elementSize = stage.getData().length > 0 ? stage.getData()[0] : 1;
                        if (position == 0) {
                            requireLength(length, target, where);
                            unshuffle(current, length, elementSize, target);
                            return;
                        }
                        byte[] into = BUFFERS.borrow(length);
                        unshuffle(current, length, elementSize, MemorySegment.ofArray(into));
                        BUFFERS.giveBack(current);
                        current = into;
                    }
                    default -> throw new IllegalArgumentException("filter id " + stage.getId() + " is not one that ChunkFilters undoes");
                }
            }
            requireLength(length, target, where);
            MemorySegment.copy(MemorySegment.ofArray(current), 0, target, 0, length);
        } finally {
            BUFFERS.giveBack(current);
        }
    }

    /** Fletcher-32 stages applied before {@code position} on write: their checksums are inside what that stage encoded. */
    private static int checksumsBefore(List<FilterPipelineMessage.FilterInfo> stages, int position) {
        int count = 0;
        for (int earlier = 0; earlier < position; earlier++) {
            count += stages.get(earlier).getId() == Fletcher32.FILTER_ID ? 1 : 0;
        }
        return count;
    }

    private static void requireLength(int length, MemorySegment target, String where) throws Hdf5Exception {
        if (length != target.byteSize()) {
            throw new Hdf5Exception(where + " decoded to " + length + " bytes, but the chunk holds " + target.byteSize());
        }
    }

    /** Inflates the zlib stream in {@code stored[0, length)} into exactly {@code expected} bytes of {@code into}. */
    private static void inflate(byte[] stored, int length, byte[] into, int expected, String where) throws Hdf5Exception {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(stored, 0, length);
            int written = 0;
            while (!inflater.finished()) {
                int count = inflater.inflate(into, written, expected - written);
                written += count;
                if (count == 0 && !inflater.finished()) {
                    // With the chunk's bytes all out, the stream may still have its end (and checksum) to read.
                    if (written == expected) {
                        if (inflater.inflate(new byte[1]) > 0) {
                            throw new Hdf5Exception(where + ": deflate: the " + length + " stored bytes inflate to more than the chunk's " + expected);
                        }
                        if (inflater.finished()) {
                            break;
                        }
                    }
                    throw new Hdf5Exception(where + ": deflate: the " + length + " stored bytes end after " + written + " of the chunk's "
                            + expected + " bytes (truncated data)");
                }
            }
            if (written != expected) {
                throw new Hdf5Exception(where + ": deflate: the " + length + " stored bytes inflate to " + written + " bytes, but the chunk holds "
                        + expected);
            }
        } catch (DataFormatException corrupt) {
            throw new Hdf5Exception(where + ": deflate: cannot inflate the " + length + " stored bytes: " + corrupt.getMessage(), corrupt);
        } finally {
            inflater.end();
        }
    }

    /** HDF5's unshuffle of {@code shuffled[0, length)} into {@code target}'s first {@code length} bytes. */
    static void unshuffle(byte[] shuffled, int length, int elementSize, MemorySegment target) {
        int elements = elementSize > 1 ? length / elementSize : 0;
        if (elements <= 1) {
            MemorySegment.copy(MemorySegment.ofArray(shuffled), 0, target, 0, length);
            return;
        }
        if (elementSize == Long.BYTES) {
            unshuffleWords(shuffled, elements, target);
        } else {
            for (int part = 0; part < elementSize; part++) {
                int run = part * elements;
                for (int element = 0; element < elements; element++) {
                    target.set(ValueLayout.JAVA_BYTE, (long) element * elementSize + part, shuffled[run + element]);
                }
            }
        }
        int whole = elements * elementSize;
        MemorySegment.copy(MemorySegment.ofArray(shuffled), whole, target, whole, length - whole);
    }

    /**
     * The unshuffle of 8-byte elements, eight elements at a time: the eight runs' next eight bytes
     * are read as eight words, an 8 x 8 byte matrix whose transpose (three rounds of swapping
     * halves, quarters and single bytes between rows) is the eight elements. Byte by byte, the
     * unshuffle took half as long as zlib's inflating of the same chunks (H1's file, 2000 x 2000
     * float64 chunks, JFR samples); this way it takes a third, about what moving the bytes costs.
     */
    private static void unshuffleWords(byte[] shuffled, int elements, MemorySegment target) {
        MemorySegment source = MemorySegment.ofArray(shuffled);
        int element = 0;
        for (; element + Long.BYTES <= elements; element += Long.BYTES) {
            long x0 = source.get(LITTLE_LONG, element);
            long x1 = source.get(LITTLE_LONG, (long) elements + element);
            long x2 = source.get(LITTLE_LONG, 2L * elements + element);
            long x3 = source.get(LITTLE_LONG, 3L * elements + element);
            long x4 = source.get(LITTLE_LONG, 4L * elements + element);
            long x5 = source.get(LITTLE_LONG, 5L * elements + element);
            long x6 = source.get(LITTLE_LONG, 6L * elements + element);
            long x7 = source.get(LITTLE_LONG, 7L * elements + element);
            // Word k holds byte k of elements element..element+7, element j in its byte j.
            long t;
            t = x0; x0 = t & LOW_HALVES | x4 << 32; x4 = t >>> 32 | x4 & HIGH_HALVES;
            t = x1; x1 = t & LOW_HALVES | x5 << 32; x5 = t >>> 32 | x5 & HIGH_HALVES;
            t = x2; x2 = t & LOW_HALVES | x6 << 32; x6 = t >>> 32 | x6 & HIGH_HALVES;
            t = x3; x3 = t & LOW_HALVES | x7 << 32; x7 = t >>> 32 | x7 & HIGH_HALVES;
            t = x0; x0 = t & LOW_QUARTERS | x2 << 16 & HIGH_QUARTERS; x2 = t >>> 16 & LOW_QUARTERS | x2 & HIGH_QUARTERS;
            t = x1; x1 = t & LOW_QUARTERS | x3 << 16 & HIGH_QUARTERS; x3 = t >>> 16 & LOW_QUARTERS | x3 & HIGH_QUARTERS;
            t = x4; x4 = t & LOW_QUARTERS | x6 << 16 & HIGH_QUARTERS; x6 = t >>> 16 & LOW_QUARTERS | x6 & HIGH_QUARTERS;
            t = x5; x5 = t & LOW_QUARTERS | x7 << 16 & HIGH_QUARTERS; x7 = t >>> 16 & LOW_QUARTERS | x7 & HIGH_QUARTERS;
            t = x0; x0 = t & LOW_BYTES | x1 << 8 & HIGH_BYTES; x1 = t >>> 8 & LOW_BYTES | x1 & HIGH_BYTES;
            t = x2; x2 = t & LOW_BYTES | x3 << 8 & HIGH_BYTES; x3 = t >>> 8 & LOW_BYTES | x3 & HIGH_BYTES;
            t = x4; x4 = t & LOW_BYTES | x5 << 8 & HIGH_BYTES; x5 = t >>> 8 & LOW_BYTES | x5 & HIGH_BYTES;
            t = x6; x6 = t & LOW_BYTES | x7 << 8 & HIGH_BYTES; x7 = t >>> 8 & LOW_BYTES | x7 & HIGH_BYTES;
            long at = (long) element * Long.BYTES;
            target.set(LITTLE_LONG, at, x0);
            target.set(LITTLE_LONG, at + 8, x1);
            target.set(LITTLE_LONG, at + 16, x2);
            target.set(LITTLE_LONG, at + 24, x3);
            target.set(LITTLE_LONG, at + 32, x4);
            target.set(LITTLE_LONG, at + 40, x5);
            target.set(LITTLE_LONG, at + 48, x6);
            target.set(LITTLE_LONG, at + 56, x7);
        }
        for (; element < elements; element++) {
            long value = 0;
            for (int part = 0; part < Long.BYTES; part++) {
                value |= (shuffled[part * elements + element] & 0xffL) << (8 * part);
            }
            target.set(LITTLE_LONG, (long) element * Long.BYTES, value);
        }
    }

    private static final long LOW_HALVES = 0x0000_0000_FFFF_FFFFL;
    private static final long HIGH_HALVES = 0xFFFF_FFFF_0000_0000L;
    private static final long LOW_QUARTERS = 0x0000_FFFF_0000_FFFFL;
    private static final long HIGH_QUARTERS = 0xFFFF_0000_FFFF_0000L;
    private static final long LOW_BYTES = 0x00FF_00FF_00FF_00FFL;
    private static final long HIGH_BYTES = 0xFF00_FF00_FF00_FF00L;
}
