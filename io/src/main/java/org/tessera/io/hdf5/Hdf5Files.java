package org.tessera.io.hdf5;

import java.io.IOException;
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
 */
final class Hdf5Files {
    private Hdf5Files() {
    }

    static HdfFile open(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size <= Integer.MAX_VALUE) {
                // The mapping outlives the channel, and is released with the last buffer that views it.
                return HdfFile.fromByteBuffer(channel.map(FileChannel.MapMode.READ_ONLY, 0, size));
            }
        }
        return new HdfFile(file);
    }
}
