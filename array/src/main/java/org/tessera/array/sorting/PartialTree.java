package org.tessera.array.sorting;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.Chunks;
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
                               long[] outputShape, DType dtype) {
        if (splitEvery < 2) {
            throw new IllegalArgumentException(label + ": splitEvery must be at least 2, got " + splitEvery);
        }
        String token = Tokens.token(label, x.name(), splitEvery);
        String chunkName = label + "-chunk-" + token;
        Map<Key, Task> chunkTasks = new java.util.LinkedHashMap<>();
        List<Key> level = new ArrayList<>();
        int position = 0;
        for (Key key : x.flatKeys()) {
            Key partial = Key.of(chunkName, position++);
            chunkTasks.put(partial, Task.call(chunkStep, key));
            level.add(partial);
        }
        HighLevelGraph graph = x.graph().with(new MaterializedLayer(chunkName, chunkTasks), Set.of(x.name()));
        String previousName = chunkName;
        int depth = 0;
        while (level.size() > 1) {
            String combineName = label + "-combine" + depth++ + "-" + token;
            Map<Key, Task> combineTasks = new java.util.LinkedHashMap<>();
            List<Key> next = new ArrayList<>();
            for (int start = 0; start < level.size(); start += splitEvery) {
                Key combined = Key.of(combineName, next.size());
                combineTasks.put(combined, Task.call(combineStep, new ArrayList<Object>(level.subList(start, Math.min(level.size(), start + splitEvery)))));
                next.add(combined);
            }
            graph = graph.with(new MaterializedLayer(combineName, combineTasks), Set.of(previousName));
            previousName = combineName;
            level = next;
        }
        String name = label + "-" + token;
        Map<Key, Task> result = Map.of(Key.of(name, new int[outputShape.length]), Task.call(IDENTITY, level.getFirst()));
        long[][] lengths = new long[outputShape.length][];
        for (int axis = 0; axis < lengths.length; axis++) {
            lengths[axis] = new long[] {outputShape[axis]};
        }
        return new ChunkedArray(graph.with(new MaterializedLayer(name, result), Set.of(previousName)), name, Chunks.of(lengths), dtype);
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
