package org.tessera.spark.serialization;

import java.io.Serial;
import java.io.Serializable;

import org.tessera.graph.Key;

/**
 * One result as it travels between Spark tasks and sits in Spark storage: its key and its value
 * encoded by {@link BlockCodec}. The value stays bytes until a task reads it, so Spark moves and
 * caches a byte array, never an object graph.
 */
public final class EncodedBlock implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final Key key;
    private final byte[] bytes;

    public EncodedBlock(Key key, byte[] bytes) {
        this.key = key;
        this.bytes = bytes;
    }

    /** Encodes {@code value} as the result of {@code key}. */
    public static EncodedBlock of(Key key, Object value) {
        return new EncodedBlock(key, BlockCodec.encode(value));
    }

    public Key key() {
        return key;
    }

    /** The encoded value; not copied, the caller must not change it. */
    public byte[] bytes() {
        return bytes;
    }

    public Object decode() {
        return BlockCodec.decode(bytes, key);
    }

    @Override
    public String toString() {
        return "EncodedBlock[" + key + ", " + bytes.length + " bytes]";
    }
}
