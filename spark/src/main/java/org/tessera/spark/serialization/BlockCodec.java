package org.tessera.spark.serialization;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;

import org.tessera.graph.Key;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.npy.Npy;

/**
 * Encodes task results for Spark. An NDArray, the common case, is written as {@code .npy} data
 * (NumPy's header with dtype, shape and order, then the raw element bytes: no boxing, no Java
 * serialization); any other value goes through {@link ArraySerialization}, which still writes the
 * NDArrays inside it (a list of blocks, an array of partial sums) as {@code .npy} data.
 *
 * <p>Format: one tag byte ({@code 'N'} for an NDArray, {@code 'J'} for anything else), then the data.
 */
public final class BlockCodec {
    private static final byte NDARRAY = 'N';
    private static final byte OBJECT = 'J';

    private BlockCodec() {
    }

    public static byte[] encode(Object value) {
        if (value instanceof NDArray array) {
            try {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.toIntExact(Math.min(Integer.MAX_VALUE - 1024, array.byteSize() + 256)));
                bytes.write(NDARRAY);
                Npy.writeTo(bytes, array, ByteOrder.LITTLE_ENDIAN);
                return bytes.toByteArray();
            } catch (IOException impossible) {
                throw new UncheckedIOException("writing an array to memory failed", impossible);
            }
        }
        return ArraySerialization.serialize(value, OBJECT);
    }

    /** The value of {@code bytes}; {@code key} names the block in errors. */
    public static Object decode(byte[] bytes, Key key) {
        if (bytes.length == 0) {
            throw new IllegalArgumentException("block " + key + " arrived as 0 bytes");
        }
        return switch (bytes[0]) {
            case NDARRAY -> {
                try {
                    ByteArrayInputStream input = new ByteArrayInputStream(bytes, 1, bytes.length - 1);
                    yield Npy.readFrom(input, "block " + key);
                } catch (IOException corrupt) {
                    throw new UncheckedIOException("block " + key + " could not be decoded: " + corrupt.getMessage(), corrupt);
                }
            }
            case OBJECT -> ArraySerialization.deserialize(bytes, 1, "block " + key);
            default -> throw new IllegalArgumentException("block " + key + " starts with tag " + bytes[0] + ", which is neither 'N' nor 'J'");
        };
    }
}
