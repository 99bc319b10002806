package org.tessera.spark.lowering;

import java.io.Serial;
import java.util.Iterator;
import java.util.NoSuchElementException;

import org.apache.spark.api.java.function.FlatMapFunction2;
import org.tessera.spark.serialization.EncodedBlock;

/** Partition i of two aligned data sets as one stream: how a stage gathers the blocks from all its inputs without a shuffle. */
final class ConcatenatePartitions implements FlatMapFunction2<Iterator<EncodedBlock>, Iterator<EncodedBlock>, EncodedBlock> {
    @Serial
    private static final long serialVersionUID = 1L;

    @Override
    public Iterator<EncodedBlock> call(Iterator<EncodedBlock> first, Iterator<EncodedBlock> second) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return first.hasNext() || second.hasNext();
            }

            @Override
            public EncodedBlock next() {
                if (first.hasNext()) {
                    return first.next();
                }
                if (second.hasNext()) {
                    return second.next();
                }
                throw new NoSuchElementException();
            }
        };
    }
}
