package org.tessera.io.npy;

import java.io.IOException;
import java.io.Serial;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.tessera.array.RegionSource;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.npy.Npy;

/**
 * A {@code .npy} file as a region source: the file is memory-mapped (read-only) on first use and
 * each read copies its region out, so a block holds only its own elements and never pins the
 * mapping. Big-endian files cannot be mapped as native arrays; they are read into memory once,
 * converted, on first use.
 */
final class NpyFileSource implements RegionSource {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long[] shape;
    private final DType dtype;
    private final long modifiedMillis;
    /** Not serialized: a task that travels maps the file again where it runs. */
    private transient volatile NDArray mapped;

    NpyFileSource(Path file) throws IOException {
        this.file = file.toAbsolutePath().toString();
        NDArray array = open(file);
        this.shape = array.shape();
        this.dtype = array.dtype();
        this.modifiedMillis = Files.getLastModifiedTime(file).toMillis();
        this.mapped = array;
    }

    private static NDArray open(Path file) throws IOException {
        try {
            return Npy.map(file, FileChannel.MapMode.READ_ONLY);
        } catch (IllegalArgumentException bigEndian) {
            return Npy.read(file);
        }
    }

    private NDArray array() {
        NDArray current = mapped;
        if (current == null) {
            try {
                current = open(Path.of(file));
            } catch (IOException failure) {
                throw new UncheckedIOException("cannot open " + file + ": " + failure.getMessage(), failure);
            }
            if (!Arrays.equals(current.shape(), shape) || current.dtype() != dtype) {
                throw new IllegalStateException(file + " changed: it now holds shape " + Arrays.toString(current.shape()) + " of " + current.dtype()
                        + ", not shape " + Arrays.toString(shape) + " of " + dtype);
            }
            mapped = current;
        }
        return current;
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public DType dtype() {
        return dtype;
    }

    @Override
    public NDArray read(long[] start, long[] regionShape) {
        NDArray region = array();
        for (int axis = 0; axis < start.length; axis++) {
            region = region.slice(axis, start[axis], 1, regionShape[axis]);
        }
        return region.copy();
    }

    /** The file and its modification time, so a rewritten file gives new array names. */
    @Override
    public Object identity() {
        return "npy:" + file + ":" + modifiedMillis;
    }
}
