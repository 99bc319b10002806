package org.tessera.io.zarr;

import java.io.IOException;
import java.io.Serial;

/** Metadata or chunk data that does not follow the Zarr format, or uses a part of it Tessera lacks. */
public class ZarrFormatException extends IOException {
    @Serial
    private static final long serialVersionUID = 1L;

    public ZarrFormatException(String message) {
        super(message);
    }

    public ZarrFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
