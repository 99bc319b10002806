package org.tessera.graph.memory;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;

/** The fallback codec: Java serialization, for any {@link Serializable} value. */
public final class SerializationCodec implements SpillCodec {

    @Override
    public String name() {
        return "java-serialization";
    }

    @Override
    public boolean accepts(Object value) {
        return value == null || value instanceof Serializable;
    }

    @Override
    public void write(Object value, DataOutputStream output) throws IOException {
        ObjectOutputStream objects = new ObjectOutputStream(output);
        objects.writeObject(value);
        objects.flush();
    }

    @Override
    public Object read(DataInputStream input) throws IOException {
        try {
            return new ObjectInputStream(input).readObject();
        } catch (ClassNotFoundException missing) {
            throw new InvalidClassException("a spilled value's class is not on the class path: " + missing.getMessage());
        }
    }
}
