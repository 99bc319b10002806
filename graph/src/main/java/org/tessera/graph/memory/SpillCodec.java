package org.tessera.graph.memory;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * Writes a spilled value to disk and reads it back. A service-provider interface
 * ({@code META-INF/services/org.tessera.graph.memory.SpillCodec}): arrays register a codec that
 * writes raw bytes, faster than Java serialization, which is the fallback for everything else.
 */
public interface SpillCodec {

    /** A short stable name, written in front of each spilled value to pick the codec on reading. */
    String name();

    boolean accepts(Object value);

    void write(Object value, DataOutputStream output) throws IOException;

    Object read(DataInputStream input) throws IOException;
}
