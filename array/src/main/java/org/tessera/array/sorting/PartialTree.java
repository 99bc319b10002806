package org.tessera.array.sorting;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.LayerFootprint;
import org.tessera.array.plan.Working;
import org.tessera.array.reduction.LayerMemory;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * A reduction of every block of an array (flattened, in C order of the block grid) into one value
 * by a tree: a per-block step, then combine steps that each take at most {@code splitEvery}
 * partials, as Dask's tree reductions do. Partials and the result are NDArrays.
 */
final class PartialTree {
    private PartialTree() {
    }

    /**
     * The one-block array, of the given shape and dtype, that the tree computes (a length may be
     * {@link Chunks#UNKNOWN} when the caller reads the value of its one key, as unique does).
     *
     * @param chunkStep   the partial of one block: called with the block
     * @param combineStep one partial from a list of partials
     */
    static ChunkedArray reduce(String label, ChunkedArray x, TaskFunction chunkStep, TaskFunction combineStep, int splitEvery,
                               long[] outputShape, DType dtype, Partials sizes) {
        if (splitEvery < 2) {
            throw new IllegalArgumentException(label + ": splitEvery must be at least 2, got " + splitEvery);
        }
        String token = Tokens.token(label, x.name(), splitEvery);
        String chunkName = label + "-chunk-" + token;
        Map<Key, Task> chunkTasks = new java.util.LinkedHashMap<>();
        List<Key> level = new ArrayList<>();
        List<Key> blocks = x.flatKeys();
        long[] elements = new long[blocks.size()];
        long[] bounds = new long[blocks.size()];
        int position = 0;
        for (Key key : blocks) {
            Key partial = Key.of(chunkName, position);
            chunkTasks.put(partial, Task.call(chunkStep, key));
            level.add(partial);
            elements[position] = LayerMemory.elements(x.chunks(), key);
            bounds[position] = sizes.chunkPartial(elements[position]);
            position++;
        }
        HighLevelGraph graph = x.graph().with(new MaterializedLayer(chunkName, chunkTasks), Set.of(x.name()));
        long[] chunkBounds = bounds;
        graph = LayerMemory.tasks(graph, chunkName, key -> chunkBounds[key.index(0)] + LayerFootprint.HEADER_BYTES,
                key -> sizes.chunkWorking(elements[key.index(0)]));
        String previousName = chunkName;
        int depth = 0;
        while (level.size() > 1) {
            String combineName = label + "-combine" + depth++ + "-" + token;
            Map<Key, Task> combineTasks = new java.util.LinkedHashMap<>();
            List<Key> next = new ArrayList<>();
            long[] joined = new long[(level.size() + splitEvery - 1) / splitEvery];
            for (int start = 0; start < level.size(); start += splitEvery) {
                Key combined = Key.of(combineName, next.size());
                combineTasks.put(combined, Task.call(combineStep, new ArrayList<Object>(level.subList(start, Math.min(level.size(), start + splitEvery)))));
                for (int member = start; member < Math.min(level.size(), start + splitEvery); member++) {
                    joined[next.size()] += bounds[member];
                }
                next.add(combined);
            }
            graph = graph.with(new MaterializedLayer(combineName, combineTasks), Set.of(previousName));
            long[] combinedBounds = Arrays.stream(joined).map(sizes::combined).toArray();
            graph = LayerMemory.tasks(graph, combineName, key -> combinedBounds[key.index(0)] + LayerFootprint.HEADER_BYTES,
                    key -> sizes.combineWorking(joined[key.index(0)], combinedBounds[key.index(0)]));
            bounds = combinedBounds;
            previousName = combineName;
            level = next;
        }
        String name = label + "-" + token;
        Map<Key, Task> result = Map.of(Key.of(name, new int[outputShape.length]), Task.call(IDENTITY, level.getFirst()));
        long[][] lengths = new long[outputShape.length][];
        long[][] bounded = new long[outputShape.length][];
        for (int axis = 0; axis < lengths.length; axis++) {
            lengths[axis] = new long[] {outputShape[axis]};
            // A length known only once computed is at most the last partial's, in elements.
            bounded[axis] = new long[] {outputShape[axis] == Chunks.UNKNOWN ? bounds[0] / Math.max(1, dtype.byteSize()) : outputShape[axis]};
        }
        // The result is the last partial itself: nothing allocated.
        graph = Footprints.declareBounded(graph.with(new MaterializedLayer(name, result), Set.of(previousName)), name, Working.none(),
                Chunks.of(bounded));
        return new ChunkedArray(graph, name, Chunks.of(lengths), dtype);
    }

    /**
     * Bounds of what the tree's tasks return and allocate, in bytes. A chunk step's partial holds at
     * most {@code chunkFixed + chunkPerElement} per element of its block, a combined partial at most
     * what it joins, and no partial more than {@code limit}; a chunk step allocates
     * {@code workingPerElement} per element of its block and {@code workingFixed} besides its
     * partial, a combine its partials joined and {@code combineTimes} that again.
     */
    record Partials(long chunkFixed, double chunkPerElement, long limit, double workingPerElement, long workingFixed, double combineTimes)
            implements java.io.Serializable {
        @java.io.Serial
        private static final long serialVersionUID = 1L;

        long chunkPartial(long elements) {
            return Math.min(limit, chunkFixed + (long) Math.ceil(chunkPerElement * elements));
        }

        long chunkWorking(long elements) {
            return (long) Math.ceil(workingPerElement * elements) + workingFixed;
        }

        long combined(long joined) {
            return Math.min(limit, joined);
        }

        long combineWorking(long joined, long combined) {
            return (long) Math.ceil(joined * (1 + combineTimes)) + combined;
        }
    }

    private static final TaskFunction IDENTITY = TaskFunction.cheap("tree-result", arguments -> (NDArray) arguments.get(0));

    /** The partials a combine step was given. */
    static List<NDArray> partials(List<Object> arguments) {
        List<NDArray> partials = new ArrayList<>();
        for (Object partial : (List<?>) arguments.get(0)) {
            partials.add((NDArray) partial);
        }
        return partials;
    }
}
