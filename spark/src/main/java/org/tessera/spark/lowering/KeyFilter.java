package org.tessera.spark.lowering;

import java.io.Serial;
import java.util.Set;

import org.apache.spark.api.java.function.Function;
import org.tessera.graph.Key;
import org.tessera.spark.serialization.EncodedBlock;

/** Keeps the blocks of the given keys: a filter keeps each block in its partition, so it shuffles nothing. */
record KeyFilter(Set<Key> keys) implements Function<EncodedBlock, Boolean> {
    @Serial
    private static final long serialVersionUID = 1L;

    KeyFilter {
        keys = Set.copyOf(keys);
    }

    @Override
    public Boolean call(EncodedBlock block) {
        return keys.contains(block.key());
    }
}
