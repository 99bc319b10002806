package org.tessera.spark.lowering;

import java.io.Serial;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.FlatMapFunction2;
import org.tessera.graph.Key;
import org.tessera.spark.serialization.ArraySerialization;
import org.tessera.spark.serialization.BlockCodec;
import org.tessera.spark.serialization.EncodedBlock;

/**
 * Runs the tasks of one partition of a stage on an executor. Its inputs are the partition's list of
 * tasks (one serialized list) and the blocks they read (kept in place or moved here by the routes).
 * Results are produced one at a time, as Spark pulls them. Input blocks are pulled only as far as
 * the next task needs (blocks kept in place arrive in task order, so an elementwise chain holds one
 * block at a time); a block is decoded when first read, its bytes dropped then, and its value
 * dropped after its last reader in the partition ran.
 */
final class EvaluatePartition implements FlatMapFunction2<Iterator<byte[]>, Iterator<EncodedBlock>, EncodedBlock>,
        FlatMapFunction<Iterator<byte[]>, EncodedBlock> {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String layer;

    EvaluatePartition(String layer) {
        this.layer = layer;
    }

    /** A stage that reads no blocks (creation layers, literals). */
    @Override
    public Iterator<EncodedBlock> call(Iterator<byte[]> work) {
        return call(work, Collections.emptyIterator());
    }

    @Override
    public Iterator<EncodedBlock> call(Iterator<byte[]> work, Iterator<EncodedBlock> inputs) {
        if (!work.hasNext()) {
            throw new IllegalStateException("a partition of layer " + layer + " received no list of tasks");
        }
        @SuppressWarnings("unchecked")
        List<PlannedTask> tasks = (List<PlannedTask>) ArraySerialization.deserialize(work.next(), 0, "the tasks of a partition of layer " + layer);
        return new Evaluation(tasks, inputs);
    }

    /** The results of a partition's tasks, each computed when Spark asks for it. */
    private final class Evaluation implements Iterator<EncodedBlock> {
        private final List<PlannedTask> tasks;
        private final Iterator<EncodedBlock> inputs;
        private final Map<Key, byte[]> encoded = new HashMap<>();
        private final Map<Key, Object> decoded = new HashMap<>();
        private final Map<Key, Integer> readersLeft = new HashMap<>();
        private int next;

        Evaluation(List<PlannedTask> tasks, Iterator<EncodedBlock> inputs) {
            this.tasks = tasks;
            this.inputs = inputs;
            for (PlannedTask task : tasks) {
                task.task().dependencies().forEach(read -> readersLeft.merge(read, 1, Integer::sum));
            }
        }

        @Override
        public boolean hasNext() {
            return next < tasks.size();
        }

        @Override
        public EncodedBlock next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            PlannedTask planned = tasks.get(next++);
            // Outside the try: a failed shuffle fetch must reach Spark as it is, so that Spark
            // recomputes the lost blocks instead of counting a failure of this task.
            for (Key read : planned.task().dependencies()) {
                awaitInput(read, planned.key());
            }
            Object value;
            try {
                value = planned.task().evaluate(this::input);
            } catch (VirtualMachineError fatal) {
                // Out of memory and the like are Spark's to handle (it replaces the executor).
                throw fatal;
            } catch (Exception | Error failure) {
                throw new RemoteTaskFailure(planned.key(), planned.task().label(), failure);
            }
            for (Key read : planned.task().dependencies()) {
                if (readersLeft.merge(read, -1, Integer::sum) == 0) {
                    decoded.remove(read);
                    encoded.remove(read);
                }
            }
            try {
                return EncodedBlock.of(planned.key(), value);
            } catch (RuntimeException unencodable) {
                throw new RemoteTaskFailure(planned.key(), planned.task().label(), unencodable);
            }
        }

        /** Pulls input blocks until {@code read} has arrived, keeping the others that tasks still to run read. */
        private void awaitInput(Key read, Key reader) {
            while (!decoded.containsKey(read) && !encoded.containsKey(read)) {
                if (!inputs.hasNext()) {
                    throw new IllegalStateException("block " + read + ", read by " + reader + " of layer " + layer + ", did not reach its partition");
                }
                EncodedBlock block = inputs.next();
                if (readersLeft.getOrDefault(block.key(), 0) > 0 && !decoded.containsKey(block.key())) {
                    encoded.putIfAbsent(block.key(), block.bytes());
                }
            }
        }

        /** The value of an input that has arrived, decoded on first use (its bytes are dropped then). */
        private Object input(Key read) {
            if (decoded.containsKey(read)) {
                return decoded.get(read);
            }
            Object value = BlockCodec.decode(encoded.remove(read), read);
            decoded.put(read, value);
            return value;
        }
    }
}
