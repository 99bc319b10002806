package org.tessera.io.zarr;

import java.nio.ByteOrder;

/** The byte order of stored elements; an enum because ByteOrder cannot be serialized with a task. */
public enum Endian {
    LITTLE,
    BIG;

    public ByteOrder byteOrder() {
        return this == BIG ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }

    public static Endian of(ByteOrder order) {
        return order == ByteOrder.BIG_ENDIAN ? BIG : LITTLE;
    }
}
