package org.tessera.graph.optimize;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.Layer;
import org.tessera.graph.layer.MaterializedLayer;

/**
 * Fuses a layer into the materialized layer that is its only reader, when that reader reads every
 * key of it exactly once and has at least {@link #MIN_READER_TASKS} tasks: each reader task then
 * computes what it reads itself. The first level of a tree reduction over 100,000 tiny blocks
 * becomes 25,000 tasks that each compute four blocks and combine them, and the levels above it
 * absorb the levels below while they have a thousand tasks or more: the blocks and most partials
 * never become keys, so they are neither materialized, ordered, scheduled nor held as results.
 *
 * <p>Like Dask's {@code fuse} with an average width above one, this trades parallelism for less
 * scheduling, so it only applies where parallelism is plentiful: a reader of a thousand tasks or
 * more still keeps every core busy. Readers with fewer tasks keep their inputs as tasks of their
 * own, so a reduction over a few large blocks still computes the blocks in parallel.
 */
public final class ReaderFusion {
    /** The fewest tasks a reader must have to absorb its inputs. */
    public static final int MIN_READER_TASKS = 1000;

    private ReaderFusion() {
    }

    /** The graph with each eligible layer fused into its reader, in order from the first; layers of {@code outputLayers} stay. */
    public static HighLevelGraph fuse(HighLevelGraph graph, Set<String> outputLayers) {
        HighLevelGraph current = graph;
        for (String name : List.copyOf(graph.layers().keySet())) {
            Layer producer = current.layers().get(name);
            if (producer == null || producer instanceof BlockwiseLayer blockwise && blockwise.restriction() != null || outputLayers.contains(name)) {
                continue;
            }
            Set<String> readers = current.dependents(name);
            if (readers.size() != 1 || !(current.layers().get(readers.iterator().next()) instanceof MaterializedLayer reader)
                    || reader.size() < MIN_READER_TASKS) {
                continue;
            }
            Map<Key, Task> fused = inlineInto(reader, producer);
            if (fused != null) {
                current = Rewrites.fuseLayer(current, producer.name(), new MaterializedLayer(reader.name(), fused), false);
            }
        }
        return current;
    }

    /** The reader's tasks with the producer's tasks in place of references to them; null unless each block is read exactly once. */
    private static Map<Key, Task> inlineInto(MaterializedLayer reader, Layer producer) {
        Reads reads = producer instanceof BlockwiseLayer blockwise ? new BlockGrid(blockwise) : new KeySet((MaterializedLayer) producer);
        Map<Key, Task> fused = LinkedHashMap.newLinkedHashMap(reader.tasks().size());
        for (Map.Entry<Key, Task> entry : reader.tasks().entrySet()) {
            Task task = inline(entry.getValue(), producer.name(), reads);
            if (task == null) {
                return null;
            }
            fused.put(entry.getKey(), task);
        }
        return reads.count() == producer.size() ? fused : null;
    }

    /** {@code task} with each reference to a producer key replaced by its task; null if a key is read twice. */
    private static Task inline(Task task, String producer, Reads reads) {
        // Type tests, as in Task: this runs once per computation, over every block, mostly before the JIT has compiled it.
        if (!Task.readsKeys(task)) {
            return task;
        }
        if (task instanceof Task.Ref ref) {
            return !ref.key().name().equals(producer) ? ref : reads.markRead(ref.key()) ? reads.taskOf(ref.key()) : null;
        }
        if (task instanceof Task.Call call) {
            List<Task> arguments = inlineAll(call.arguments(), producer, reads);
            return arguments == null ? null : new Task.Call(call.function(), arguments);
        }
        List<Task> items = inlineAll(((Task.TaskList) task).items(), producer, reads);
        return items == null ? null : new Task.TaskList(items);
    }

    private static List<Task> inlineAll(List<Task> tasks, String producer, Reads reads) {
        List<Task> inlined = new ArrayList<>(tasks.size());
        for (Task task : tasks) {
            Task one = inline(task, producer, reads);
            if (one == null) {
                return null;
            }
            inlined.add(one);
        }
        return inlined;
    }

    /** The producer's keys read so far, and their tasks. */
    private sealed interface Reads permits BlockGrid, KeySet {
        /** Records a read of {@code key}; false if it was read before or is not a key of the producer. */
        boolean markRead(Key key);

        long count();

        Task taskOf(Key key);
    }

    /** Reads of a blockwise layer, by block position in C order; its tasks are built as they are read. */
    private static final class BlockGrid implements Reads {
        private final int[] counts;
        private final Function<Key, Task> tasks;
        private final BitSet read = new BitSet();
        private long readCount;

        BlockGrid(BlockwiseLayer layer) {
            this.counts = layer.outputIndices().chars().map(letter -> layer.blockCounts().get((char) letter)).toArray();
            this.tasks = layer.taskBuilder();
        }

        @Override
        public boolean markRead(Key key) {
            if (key.rank() != counts.length) {
                return false;
            }
            long position = 0;
            for (int axis = 0; axis < counts.length; axis++) {
                int index = key.index(axis);
                if (index < 0 || index >= counts[axis]) {
                    return false;
                }
                position = position * counts[axis] + index;
            }
            if (position > Integer.MAX_VALUE || read.get((int) position)) {
                return false;
            }
            read.set((int) position);
            readCount++;
            return true;
        }

        @Override
        public long count() {
            return readCount;
        }

        @Override
        public Task taskOf(Key key) {
            return tasks.apply(key);
        }
    }

    /** Reads of a materialized layer (a level of a tree that a larger level above reads). */
    private static final class KeySet implements Reads {
        private final MaterializedLayer layer;
        private final Set<Key> read = new java.util.HashSet<>();

        KeySet(MaterializedLayer layer) {
            this.layer = layer;
        }

        @Override
        public boolean markRead(Key key) {
            return layer.contains(key) && read.add(key);
        }

        @Override
        public long count() {
            return read.size();
        }

        @Override
        public Task taskOf(Key key) {
            return layer.task(key);
        }
    }
}
