package org.tessera.graph.optimize;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
 * Fuses a blockwise layer into the materialized layer that is its only reader, when that reader
 * reads every block exactly once and has at least {@link #MIN_READER_TASKS} tasks: each reader task
 * then computes the blocks it reads itself. The first level of a tree reduction over 100,000 tiny
 * blocks becomes 25,000 tasks that each compute four blocks and combine them, instead of 100,000
 * block tasks plus 25,000 combining ones: the blocks never become keys, so they are neither
 * materialized, ordered, scheduled nor held as results.
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

    /** The graph with each eligible blockwise layer fused into its reader; layers of {@code outputLayers} stay. */
    public static HighLevelGraph fuse(HighLevelGraph graph, Set<String> outputLayers) {
        HighLevelGraph current = graph;
        for (String name : List.copyOf(graph.layers().keySet())) {
            if (!(current.layers().get(name) instanceof BlockwiseLayer producer) || producer.restriction() != null || outputLayers.contains(name)) {
                continue;
            }
            Set<String> readers = current.dependents(name);
            if (readers.size() != 1 || !(current.layers().get(readers.iterator().next()) instanceof MaterializedLayer reader)
                    || reader.size() < MIN_READER_TASKS) {
                continue;
            }
            Map<Key, Task> fused = inlineInto(reader, producer);
            if (fused != null) {
                current = replace(current, producer, reader, new MaterializedLayer(reader.name(), fused));
            }
        }
        return current;
    }

    /** The reader's tasks with the producer's tasks in place of references to them; null unless each block is read exactly once. */
    private static Map<Key, Task> inlineInto(MaterializedLayer reader, BlockwiseLayer producer) {
        BlockGrid grid = new BlockGrid(producer, producer.taskBuilder());
        Map<Key, Task> fused = LinkedHashMap.newLinkedHashMap(reader.tasks().size());
        for (Map.Entry<Key, Task> entry : reader.tasks().entrySet()) {
            Task task = inline(entry.getValue(), producer, grid);
            if (task == null) {
                return null;
            }
            fused.put(entry.getKey(), task);
        }
        return grid.readCount == producer.size() ? fused : null;
    }

    /** {@code task} with each reference to a producer block replaced by its task; null if a block is read twice. */
    private static Task inline(Task task, BlockwiseLayer producer, BlockGrid grid) {
        return switch (task) {
            case Task.Literal literal -> literal;
            case Task.Ref ref -> !ref.key().name().equals(producer.name()) ? ref : grid.markRead(ref.key()) ? grid.taskOf.apply(ref.key()) : null;
            case Task.TaskList list -> {
                List<Task> items = inlineAll(list.items(), producer, grid);
                yield items == null ? null : new Task.TaskList(items);
            }
            case Task.Call call -> {
                List<Task> arguments = inlineAll(call.arguments(), producer, grid);
                yield arguments == null ? null : new Task.Call(call.function(), arguments);
            }
        };
    }

    private static List<Task> inlineAll(List<Task> tasks, BlockwiseLayer producer, BlockGrid grid) {
        List<Task> inlined = new ArrayList<>(tasks.size());
        for (Task task : tasks) {
            Task one = inline(task, producer, grid);
            if (one == null) {
                return null;
            }
            inlined.add(one);
        }
        return inlined;
    }

    /** The graph without {@code producer}, with {@code fused} in place of {@code reader} and reading what both read. */
    private static HighLevelGraph replace(HighLevelGraph graph, Layer producer, Layer reader, Layer fused) {
        Set<String> fusedInputs = new LinkedHashSet<>(graph.dependencies(reader.name()));
        fusedInputs.remove(producer.name());
        fusedInputs.addAll(graph.dependencies(producer.name()));
        HighLevelGraph rebuilt = HighLevelGraph.empty();
        for (Layer layer : graph.layers().values()) {
            if (layer.name().equals(producer.name())) {
                continue;
            }
            boolean isReader = layer.name().equals(reader.name());
            rebuilt = rebuilt.with(isReader ? fused : layer, isReader ? fusedInputs : graph.dependencies(layer.name()));
        }
        return rebuilt;
    }

    /** Which blocks of a blockwise layer have been read, by their position in C order, and their tasks. */
    private static final class BlockGrid {
        private final int[] counts;
        private final Function<Key, Task> taskOf;
        private final BitSet read = new BitSet();
        private long readCount;

        BlockGrid(BlockwiseLayer layer, Function<Key, Task> taskOf) {
            this.counts = layer.outputIndices().chars().map(letter -> layer.blockCounts().get((char) letter)).toArray();
            this.taskOf = taskOf;
        }

        /** Records a read of {@code key}; false if it was read before or is not a block of the layer. */
        boolean markRead(Key key) {
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
    }
}
