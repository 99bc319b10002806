package org.tessera.io.hdf5;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import io.jhdf.object.message.FilterPipelineMessage;
import org.tessera.io.codec.IdleBuffers;
import org.tessera.io.codec.Unshuffle;

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

    /**
     * HDF5's unshuffle of {@code shuffled[0, length)} into {@code target}'s first {@code length}
     * bytes: the runs of the whole elements, then the bytes after them as they are. Byte by byte,
     * the unshuffle took half as long as zlib's inflating of the same chunks (H1's file, 2000 x 2000
     * float64 chunks, JFR samples); as a transpose of words, a third.
     */
    static void unshuffle(byte[] shuffled, int length, int elementSize, MemorySegment target) {
        MemorySegment source = MemorySegment.ofArray(shuffled);
        int elements = elementSize > 1 ? length / elementSize : 0;
        if (elements <= 1) {
            MemorySegment.copy(source, 0, target, 0, length);
            return;
        }
        MemorySegment[] runs = new MemorySegment[elementSize];
        for (int part = 0; part < elementSize; part++) {
            runs[part] = source.asSlice((long) part * elements, elements);
        }
        Unshuffle.unshuffle(runs, 0, elements, target, 0);
        int whole = elements * elementSize;
        MemorySegment.copy(source, whole, target, whole, length - whole);
    }
}
