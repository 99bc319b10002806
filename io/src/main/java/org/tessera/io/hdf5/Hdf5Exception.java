package org.tessera.io.hdf5;

import java.io.IOException;
import java.io.Serial;

/**
 * An HDF5 file or dataset that cannot be read or written as asked: a dataset path that names
 * nothing (or a group), a filter or datatype that Tessera cannot decode, a layout it does not know.
 * Messages name the file and the dataset path.
 */
public class Hdf5Exception extends IOException {
    @Serial
    private static final long serialVersionUID = 1L;

    public Hdf5Exception(String message) {
        super(message);
    }

    public Hdf5Exception(String message, Throwable cause) {
        super(message, cause);
    }
}
