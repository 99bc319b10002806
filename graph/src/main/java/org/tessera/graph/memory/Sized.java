package org.tessera.graph.memory;

/** A value that knows how many bytes it holds: arrays implement it so schedulers can budget them. */
public interface Sized {
    long byteSize();
}
