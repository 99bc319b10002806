package org.tessera.array.sorting;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.BlockGrid;
import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.array.reduction.LayerMemory;
import org.tessera.array.reduction.TreeReduction;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.layout.Shapes;

/**
 * Dask's {@code topk} and {@code argtopk}: the k largest values along an axis (the |k| smallest
 * for a negative k), largest first (smallest first for negative k), and their positions. Every
 * block keeps its own best |k| along the axis; groups of {@code splitEvery} partials are joined
 * and cut to |k| again until one remains, so a task holds at most {@code splitEvery * |k|} values
 * per line. Ties keep the earlier position first; NaN sorts above every number, as in NumPy.
 */
public final class TopK {
    private TopK() {
    }

    /** The k largest (negative k: smallest) values along the last axis. */
    public static ChunkedArray topk(ChunkedArray x, int k) {
        return topk(x, k, -1, TreeReduction.DEFAULT_SPLIT_EVERY);
    }

    public static ChunkedArray topk(ChunkedArray x, int k, int axis, int splitEvery) {
        return build(x, k, axis, splitEvery, false);
    }

    /** The int64 positions along the axis of the values {@link #topk} returns, in the same order. */
    public static ChunkedArray argtopk(ChunkedArray x, int k) {
        return argtopk(x, k, -1, TreeReduction.DEFAULT_SPLIT_EVERY);
    }

    public static ChunkedArray argtopk(ChunkedArray x, int k, int axis, int splitEvery) {
        return build(x, k, axis, splitEvery, true);
    }

    private static ChunkedArray build(ChunkedArray x, int k, int axis, int splitEvery, boolean positions) {
        String label = positions ? "argtopk" : "topk";
        if (x.ndim() == 0) {
            throw new IllegalArgumentException(label + ": needs at least one axis, got a 0-d array");
        }
        int normalized = axis < 0 ? axis + x.ndim() : axis;
        if (normalized < 0 || normalized >= x.ndim()) {
            throw new IllegalArgumentException(label + ": axis " + axis + " is out of bounds for an array of shape " + Shapes.format(x.shape()));
        }
        long[] shape = x.chunks().requireKnownShape(label);
        long count = Math.abs((long) k);
        if (k == 0 || count > shape[normalized]) {
            throw new IllegalArgumentException(label + ": k = " + k + " must be non-zero and at most the length " + shape[normalized] + " of axis " + normalized
                    + " of an array of shape " + Shapes.format(shape));
        }
        if (splitEvery < 2) {
            throw new IllegalArgumentException(label + ": splitEvery must be at least 2, got " + splitEvery);
        }
        long[] offsets = x.chunks().offsets(normalized);
        TaskFunction chunkStep = TaskFunction.named(label + "-chunk", arguments -> {
            NDArray block = Blocks.dense(arguments.get(0), "top k");
            long offset = (Long) arguments.get(1);
            NDArray lineShape = NDArrays.arange(block.shape(normalized));
            long[] broadcastShape = new long[block.ndim()];
            Arrays.fill(broadcastShape, 1);
            broadcastShape[normalized] = block.shape(normalized);
            NDArray places = NDArrays.add(lineShape.reshape(broadcastShape), offset).broadcastTo(block.shape()).copy();
            return best(block, places, k, normalized);
        });
        TaskFunction combineStep = TaskFunction.named(label + "-combine", arguments -> {
            List<NDArray> values = new ArrayList<>();
            List<NDArray> places = new ArrayList<>();
            for (Object partial : (List<?>) arguments.get(0)) {
                values.add(((NDArray[]) partial)[0]);
                places.add(((NDArray[]) partial)[1]);
            }
            return best(NDArrays.concatenate(values, normalized), NDArrays.concatenate(places, normalized), k, normalized);
        });
        int component = positions ? 1 : 0;
        TaskFunction pick = TaskFunction.cheap(label + "-result", arguments -> ((NDArray[]) arguments.get(0))[component]);

        String token = Tokens.token(label, x.name(), k, normalized, splitEvery);
        int[] counts = x.numBlocks();
        String chunkName = label + "-chunk-" + token;
        Map<Key, Task> chunkTasks = new LinkedHashMap<>();
        BlockGrid.forEach(counts, index -> chunkTasks.put(Key.of(chunkName, index), Task.call(chunkStep, x.key(index), offsets[index[normalized]])));
        HighLevelGraph graph = x.graph().with(new MaterializedLayer(chunkName, chunkTasks), Set.of(x.name()));
        // A partial holds the best |k| of each line (fewer in a shorter block) and their int64 places.
        long item = x.dtype().byteSize();
        long partialItem = item + Long.BYTES;
        long[] kept = Arrays.stream(x.chunks().axis(normalized)).map(length -> Math.min(length, count)).toArray();
        graph = LayerMemory.arrays(graph, chunkName, alongAxis(x.chunks(), normalized, kept), partialItem, 2,
                new LayerMemory.PerBlock(x.chunks(), BEST_BYTES_PER_ELEMENT + 2.0 * item, 3, 0));
        String previous = chunkName;
        int along = counts[normalized];
        int depth = 0;
        // best() over the joined partials: their join, and its temporaries per joined element.
        double bestTimes = 1 + (BEST_BYTES_PER_ELEMENT + 2.0 * item) / partialItem;
        while (along > 1) {
            String combineName = label + "-combine" + depth++ + "-" + token;
            int groups = (along + splitEvery - 1) / splitEvery;
            int[] groupCounts = counts.clone();
            groupCounts[normalized] = groups;
            Map<Key, Task> combineTasks = new LinkedHashMap<>();
            String source = previous;
            int sourceCount = along;
            BlockGrid.forEach(groupCounts, index -> {
                List<Object> members = new ArrayList<>();
                int[] member = index.clone();
                for (int position = index[normalized] * splitEvery; position < Math.min(sourceCount, (index[normalized] + 1) * splitEvery); position++) {
                    member[normalized] = position;
                    members.add(Key.of(source, member));
                }
                combineTasks.put(Key.of(combineName, index), Task.call(combineStep, members));
            });
            graph = graph.with(new MaterializedLayer(combineName, combineTasks), Set.of(previous));
            long[] combined = new long[groups];
            for (int group = 0; group < groups; group++) {
                long members = 0;
                for (int position = group * splitEvery; position < Math.min(sourceCount, (group + 1) * splitEvery); position++) {
                    members += kept[position];
                }
                combined[group] = Math.min(members, count);
            }
            // A group joins up to splitEvery partials, each at most as long as the combined one along the axis.
            graph = LayerMemory.arrays(graph, combineName, alongAxis(x.chunks(), normalized, combined), partialItem, 2,
                    Working.ofResult(splitEvery * bestTimes + 3));
            kept = combined;
            previous = combineName;
            along = groups;
        }
        int[] outputCounts = counts.clone();
        outputCounts[normalized] = 1;
        String name = label + "-" + token;
        Map<Key, Task> resultTasks = new LinkedHashMap<>();
        String last = previous;
        BlockGrid.forEach(outputCounts, index -> resultTasks.put(Key.of(name, index), Task.call(pick, Key.of(last, index))));
        long[][] lengths = new long[x.ndim()][];
        for (int dimension = 0; dimension < lengths.length; dimension++) {
            lengths[dimension] = dimension == normalized ? new long[] {count} : x.chunks().axis(dimension);
        }
        // The result picks one array of the last partial: nothing allocated.
        return new ChunkedArray(Footprints.declare(graph.with(new MaterializedLayer(name, resultTasks), Set.of(previous)), name, Working.none()),
                name, Chunks.of(lengths), positions ? DType.INT64 : x.dtype());
    }

    /**
     * What best() allocates per element of the values it is given, besides copies of the values:
     * the places (made, then copied to lines), the stable order and its reversal, and the sort's own
     * buffer of positions.
     */
    private static final double BEST_BYTES_PER_ELEMENT = 5.0 * Long.BYTES;

    /** {@code chunks} with the lengths along {@code axis} replaced. */
    private static Chunks alongAxis(Chunks chunks, int axis, long[] lengths) {
        long[][] all = new long[chunks.ndim()][];
        for (int other = 0; other < all.length; other++) {
            all[other] = other == axis ? lengths : chunks.axis(other);
        }
        return Chunks.of(all);
    }

    /** The best |k| of {@code values} along {@code axis} (fewer if the axis is shorter), best first, with their places. */
    static NDArray[] best(NDArray values, NDArray places, int k, int axis) {
        NDArray lines = values.moveAxis(axis, -1);
        NDArray placeLines = places.moveAxis(axis, -1);
        long length = lines.shape(-1);
        long[] outerShape = Arrays.copyOf(lines.shape(), lines.ndim() - 1);
        long rows = 1;
        for (long extent : outerShape) {
            rows *= extent;
        }
        NDArray matrix = lines.copy().reshape(rows, length);
        NDArray placeMatrix = placeLines.copy().reshape(rows, length);
        NDArray order = stableOrder(matrix, k > 0);
        long keep = Math.min(Math.abs((long) k), length);
        NDArray chosen = order.slice(1, 0, 1, keep);
        NDArray rowIndex = NDArrays.arange(rows).reshape(rows, 1);
        NDArray bestValues = NDArrays.get(matrix, Index.of(rowIndex), Index.of(chosen));
        NDArray bestPlaces = NDArrays.get(placeMatrix, Index.of(rowIndex), Index.of(chosen));
        long[] resultShape = Arrays.copyOf(outerShape, outerShape.length + 1);
        resultShape[outerShape.length] = keep;
        return new NDArray[] {bestValues.reshape(resultShape).moveAxis(-1, axis).copy(), bestPlaces.reshape(resultShape).moveAxis(-1, axis).copy()};
    }

    /**
     * Per row, the positions in order of preference: ascending for the smallest; for the largest,
     * descending by value with ties in their original order (a stable sort of the reversed row, read backwards).
     */
    private static NDArray stableOrder(NDArray matrix, boolean largest) {
        if (!largest) {
            return NDArrays.argsort(matrix, 1, null);
        }
        long length = matrix.shape(1);
        NDArray reversed = matrix.slice(1, length - 1, -1, length);
        NDArray order = NDArrays.argsort(reversed, 1, null);
        NDArray backwards = order.slice(1, length - 1, -1, length);
        // Positions in the reversed row map back as length - 1 - position.
        return NDArrays.subtract(length - 1, backwards);
    }
}
