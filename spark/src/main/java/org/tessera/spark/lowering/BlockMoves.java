package org.tessera.spark.lowering;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.tessera.graph.Key;
import org.tessera.spark.serialization.EncodedBlock;

import scala.Tuple2;

/** Addresses each block that must move to the consumer partitions that read it (a block read in two partitions is sent twice). */
record BlockMoves(Map<Key, int[]> targets) implements PairFlatMapFunction<EncodedBlock, Integer, EncodedBlock> {
    @Serial
    private static final long serialVersionUID = 1L;

    static BlockMoves of(Map<Key, Set<Integer>> moves) {
        Map<Key, int[]> targets = new HashMap<>();
        moves.forEach((key, partitions) -> targets.put(key, partitions.stream().mapToInt(Integer::intValue).toArray()));
        return new BlockMoves(targets);
    }

    @Override
    public Iterator<Tuple2<Integer, EncodedBlock>> call(EncodedBlock block) {
        int[] partitions = targets.get(block.key());
        if (partitions == null) {
            return Collections.emptyIterator();
        }
        List<Tuple2<Integer, EncodedBlock>> addressed = new ArrayList<>(partitions.length);
        for (int partition : partitions) {
            addressed.add(new Tuple2<>(partition, block));
        }
        return addressed.iterator();
    }
}
