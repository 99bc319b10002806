package org.tessera.io.npy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.RegionSource;
import org.tessera.io.RegionSourceContract;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.npy.Npy;

class NpyFileSourceTest extends RegionSourceContract {
    @TempDir
    Path directory;

    @Override
    protected RegionSource sourceOf(NDArray values) throws Exception {
        Path file = Files.createTempFile(directory, "values", ".npy");
        Npy.write(file, values);
        return new NpyFileSource(file);
    }
}
