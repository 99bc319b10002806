package org.tessera.io.hdf5;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import io.jhdf.HdfFile;

/**
 * Opens HDF5 files for jhdf. A file of up to 2 GiB is handed over mapped into memory, where jhdf
 * reads every structure as a slice of the mapping: a header that claims more bytes than the file
 * holds then fails at once. Through a file channel jhdf first allocates what the header claims
 * and reads it in a loop that makes no progress at the end of the file: fuzzing found a 124-byte
 * file that made it allocate 1.1 GB and loop for 81 seconds. Larger files go through the channel.
 *
 * <p>Chunk data is not read through the mapping (see {@link Opened#mapping}): pages of a mapped
 * file that were read stay in the process's resident memory until the mapping goes, which is when
 * the collector finds its last buffer, so three opens of a 1.7 GB file held 5 GB.
 */
final class Hdf5Files {
    private Hdf5Files() {
    }

    /**
     * An open file, and the mapping jhdf reads it through, or null where it reads through a channel:
     * a buffer jhdf gives for bytes of the file is then a slice of this mapping, whose distance
     * from the mapping's start is the bytes' position in the file.
     */
    record Opened(HdfFile hdf, MemorySegment mapping) {
    }

    static Opened open(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size <= Integer.MAX_VALUE) {
                // The mapping outlives the channel, and is released with the last buffer that views it.
                java.nio.MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
                // Before jhdf has it: jhdf moves the buffer's position to slice it.
                MemorySegment whole = MemorySegment.ofBuffer(mapped);
                return new Opened(HdfFile.fromByteBuffer(mapped), whole);
            }
        }
        return new Opened(new HdfFile(file), null);
    }
}
