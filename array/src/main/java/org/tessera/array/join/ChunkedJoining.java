package org.tessera.array.join;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.BlockGrid;
import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Metas;
import org.tessera.array.Tokens;
import org.tessera.array.blockwise.Cast;
import org.tessera.array.blockwise.ChunkUnification;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.chunks.UnknownChunksException;
import org.tessera.array.creation.LikeArrays;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.array.rechunk.Rechunk;
import org.tessera.array.reshape.Reshape;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.ArrayFamilies;
import org.tessera.ndarray.ArrayNamespace;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.dtype.Promotion;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.layout.Shapes;

/**
 * Joining chunked arrays, with Dask's output chunks: {@code concatenate} along an existing axis,
 * {@code stack} along a new one, and {@code block} from nested lists. No data moves: the inputs are
 * cast to the promoted dtype, aligned along the other axes (their chunks unified as blockwise
 * unifies them), and each output block is an input block ({@code concatenate}) or a view of one
 * with a new axis of length 1 ({@code stack}). Empty inputs are left out, as Dask leaves them out.
 */
public final class ChunkedJoining {
    private ChunkedJoining() {
    }

    /** The arrays joined along {@code axis} (negative counts from the end); the other lengths must match. */
    public static ChunkedArray concatenate(List<ChunkedArray> arrays, int axis) {
        if (arrays.isEmpty()) {
            throw new IllegalArgumentException("need at least one array to concatenate");
        }
        ChunkedArray first = arrays.getFirst();
        int ndim = first.ndim();
        if (ndim == 0) {
            throw new IllegalArgumentException("zero-dimensional arrays cannot be concatenated (the first array has shape ())");
        }
        int joinAxis = Shapes.normalizeAxis(axis, ndim);
        for (int position = 0; position < arrays.size(); position++) {
            ChunkedArray array = arrays.get(position);
            if (array.ndim() != ndim) {
                throw new ShapeMismatchException("all the input arrays must have same number of dimensions, but the array at index 0 has "
                        + ndim + " dimension(s) (shape " + format(first) + ") and the array at index " + position + " has " + array.ndim()
                        + " dimension(s) (shape " + format(array) + ")");
            }
            for (int other = 0; other < ndim; other++) {
                if (other != joinAxis && (array.shape(other) == Chunks.UNKNOWN || first.shape(other) == Chunks.UNKNOWN)) {
                    // Dask's concatenate without allow_unknown_chunksizes: the lengths must be known to match.
                    throw new UnknownChunksException("concatenate along axis " + joinAxis + " needs the length of axis " + other + " of chunks "
                            + (array.shape(other) == Chunks.UNKNOWN ? array : first).chunks());
                }
                if (other != joinAxis && array.shape(other) != first.shape(other)) {
                    throw new ShapeMismatchException("all the input array dimensions except for the concatenation axis must match exactly, "
                            + "but along dimension " + other + ", the array at index 0 has shape " + format(first)
                            + " and the array at index " + position + " has shape " + format(array));
                }
            }
        }
        if (arrays.size() == 1) {
            return first;
        }
        List<ChunkedArray> joined = nonEmpty(cast(inCommonFamily(arrays)));
        if (joined.size() == 1) {
            return joined.getFirst();
        }
        joined = aligned(joined, joinAxis);
        List<long[]> joinedLengths = new ArrayList<>();
        int[] offsets = new int[joined.size() + 1];
        for (int position = 0; position < joined.size(); position++) {
            long[] lengths = joined.get(position).chunks().axis(joinAxis);
            joinedLengths.add(lengths);
            offsets[position + 1] = offsets[position] + lengths.length;
        }
        long[][] outputLengths = new long[ndim][];
        for (int other = 0; other < ndim; other++) {
            outputLengths[other] = other == joinAxis ? concat(joinedLengths) : joined.getFirst().chunks().axis(other);
        }
        Chunks chunks = Chunks.of(outputLengths);
        List<String> names = joined.stream().map(ChunkedArray::name).toList();
        String name = Tokens.name("concatenate", names, joinAxis);
        Map<Key, Task> tasks = new LinkedHashMap<>();
        List<ChunkedArray> inputs = joined;
        BlockGrid.forEach(chunks.blockCounts(), index -> {
            int source = 0;
            while (index[joinAxis] >= offsets[source + 1]) {
                source++;
            }
            int[] inputIndex = index.clone();
            inputIndex[joinAxis] -= offsets[source];
            tasks.put(Key.of(name, index), Task.ref(inputs.get(source).key(inputIndex)));
        });
        return join(joined, new MaterializedLayer(name, tasks), chunks);
    }

    /** Arrays of one shape joined along a new axis at position {@code axis} of the result. */
    public static ChunkedArray stack(List<ChunkedArray> arrays, int axis) {
        if (arrays.isEmpty()) {
            throw new IllegalArgumentException("need at least one array to stack");
        }
        ChunkedArray first = arrays.getFirst();
        for (ChunkedArray array : arrays) {
            // An unknown length (-1) would pass as equal, or name a shape that does not exist.
            array.chunks().requireKnownShape("stack");
        }
        for (int position = 0; position < arrays.size(); position++) {
            if (!Arrays.equals(arrays.get(position).shape(), first.shape())) {
                throw new ShapeMismatchException("all input arrays must have the same shape, but the array at index 0 has shape "
                        + format(first) + " and the array at index " + position + " has shape " + format(arrays.get(position)));
            }
        }
        int ndim = first.ndim();
        int newAxis = Shapes.normalizeAxis(axis, ndim + 1);
        List<ChunkedArray> joined = aligned(nonEmpty(cast(arrays)), -1);
        long[][] outputLengths = new long[ndim + 1][];
        for (int other = 0; other < ndim; other++) {
            outputLengths[other < newAxis ? other : other + 1] = joined.getFirst().chunks().axis(other);
        }
        outputLengths[newAxis] = new long[joined.size()];
        Arrays.fill(outputLengths[newAxis], 1);
        Chunks chunks = Chunks.of(outputLengths);
        String name = Tokens.name("stack", joined.stream().map(ChunkedArray::name).toList(), newAxis);
        Map<Key, Task> tasks = new LinkedHashMap<>();
        ExpandDims expand = new ExpandDims(newAxis);
        BlockGrid.forEach(chunks.blockCounts(), index -> {
            int[] inputIndex = new int[ndim];
            for (int other = 0; other < ndim; other++) {
                inputIndex[other] = index[other < newAxis ? other : other + 1];
            }
            tasks.put(Key.of(name, index), Task.call(expand, joined.get(index[newAxis]).key(inputIndex)));
        });
        return join(joined, new MaterializedLayer(name, tasks), chunks);
    }

    /**
     * NumPy's {@code block}: the innermost lists are concatenated along the last axis, the lists
     * holding them along the second to last, and so on; arrays with fewer axes than the result get
     * leading axes of length 1. Items are ChunkedArrays or (nested) lists of them.
     *
     * @throws IllegalArgumentException when a list is empty or the lists nest to different depths
     */
    public static ChunkedArray block(List<?> nested) {
        int depth = listDepth(nested, "arrays");
        int ndim = Math.max(depth, largestNdim(nested));
        return blockLevel(nested, ndim - depth, ndim);
    }

    private static ChunkedArray blockLevel(Object item, int axis, int ndim) {
        if (item instanceof ChunkedArray array) {
            return atLeast(array, ndim);
        }
        List<ChunkedArray> parts = new ArrayList<>();
        for (Object element : (List<?>) item) {
            parts.add(blockLevel(element, axis + 1, ndim));
        }
        return concatenate(parts, axis);
    }

    /** The depth of nesting, the same for every item, or an exception naming the item that differs. */
    private static int listDepth(Object item, String path) {
        if (item instanceof ChunkedArray) {
            return 0;
        }
        if (!(item instanceof List<?> list)) {
            throw new IllegalArgumentException(path + " is a " + (item == null ? "null" : item.getClass().getSimpleName())
                    + ", not a ChunkedArray or a list of them");
        }
        if (list.isEmpty()) {
            throw new IllegalArgumentException("Lists cannot be empty: " + path + " is");
        }
        int depth = -1;
        for (int position = 0; position < list.size(); position++) {
            int itemDepth = listDepth(list.get(position), path + "[" + position + "]") + 1;
            if (depth >= 0 && itemDepth != depth) {
                throw new IllegalArgumentException("List depths are mismatched: " + path + "[0] is at depth " + depth + " but " + path + "["
                        + position + "] is at depth " + itemDepth);
            }
            depth = itemDepth;
        }
        return depth;
    }

    private static int largestNdim(Object item) {
        if (item instanceof ChunkedArray array) {
            return array.ndim();
        }
        int largest = 0;
        for (Object element : (List<?>) item) {
            largest = Math.max(largest, largestNdim(element));
        }
        return largest;
    }

    private static ChunkedArray atLeast(ChunkedArray array, int ndim) {
        if (array.ndim() >= ndim) {
            return array;
        }
        long[] shape = new long[ndim];
        Arrays.fill(shape, 1);
        System.arraycopy(array.shape(), 0, shape, ndim - array.ndim(), array.ndim());
        return Reshape.reshape(array, shape);
    }

    /** The inputs cast to the dtype NumPy's result_type gives for all of them. */
    private static List<ChunkedArray> cast(List<ChunkedArray> arrays) {
        DType dtype = Promotion.resultType(arrays.stream().map(ChunkedArray::dtype).toArray());
        return arrays.stream().map(array -> Cast.astype(array, dtype)).toList();
    }

    /** The arrays that have elements (unknown sizes count as having some); all of them when none has. */
    private static List<ChunkedArray> nonEmpty(List<ChunkedArray> arrays) {
        List<ChunkedArray> kept = arrays.stream().filter(array -> Arrays.stream(array.shape()).noneMatch(length -> length == 0)).toList();
        return kept.isEmpty() ? arrays : kept;
    }

    /**
     * The arrays rechunked to common chunks along every axis but {@code exceptAxis} (as Dask's
     * unify_chunks: single blocks give way to split axes, split axes are split at every boundary).
     * The joined arrays have the same length along those axes, so even an axis of length 0 or 1 is
     * unified: with empty blocks, (1,) and (0, 1) or (0,) and (0, 0) are different grids.
     */
    private static List<ChunkedArray> aligned(List<ChunkedArray> arrays, int exceptAxis) {
        int ndim = arrays.getFirst().ndim();
        boolean same = arrays.stream().allMatch(array -> array.chunks().equals(arrays.getFirst().chunks()));
        if (same) {
            return arrays;
        }
        long[][] common = new long[ndim][];
        for (int axis = 0; axis < ndim; axis++) {
            if (axis != exceptAxis) {
                int current = axis;
                common[axis] = ChunkUnification.common(arrays.stream().map(array -> array.chunks().axis(current)).toList());
            }
        }
        List<ChunkedArray> result = new ArrayList<>(arrays.size());
        for (ChunkedArray array : arrays) {
            long[][] target = new long[ndim][];
            for (int axis = 0; axis < ndim; axis++) {
                target[axis] = axis == exceptAxis ? array.chunks().axis(axis) : common[axis];
            }
            result.add(Rechunk.rechunk(array, Chunks.of(target)));
        }
        return result;
    }

    private static ChunkedArray join(List<ChunkedArray> inputs, MaterializedLayer layer, Chunks chunks) {
        HighLevelGraph graph = HighLevelGraph.merge(inputs.stream().map(ChunkedArray::graph).toArray(HighLevelGraph[]::new));
        Set<String> dependencies = new LinkedHashSet<>();
        inputs.forEach(input -> dependencies.add(input.name()));
        // Every block is an input block (concatenate) or a view of one with a new axis (stack): nothing is allocated.
        graph = Footprints.declare(graph.with(layer, dependencies), layer.name(), Working.none());
        return new ChunkedArray(graph, layer.name(), chunks, Metas.common(inputs, chunks.ndim(), inputs.getFirst().dtype()));
    }

    /**
     * The arrays with their blocks in one chunk family, by the mixing rule (sparse and dense chunks
     * give dense chunks; families that do not mix are refused naming both), since a joined array
     * has one block type.
     */
    private static List<ChunkedArray> inCommonFamily(List<ChunkedArray> arrays) {
        ArrayNamespace<?> family = ArrayFamilies.common(arrays.stream().map(ChunkedArray::meta).toArray());
        return arrays.stream().map(array -> LikeArrays.inFamily(array, family)).toList();
    }

    private static long[] concat(List<long[]> parts) {
        return parts.stream().flatMapToLong(Arrays::stream).toArray();
    }

    private static String format(ChunkedArray array) {
        return Shapes.format(array.shape());
    }

    /** A block with a new axis of length 1: a view. */
    record ExpandDims(int axis) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            return Blocks.expandDims(arguments.getFirst(), axis);
        }

        @Override
        public String displayName() {
            return "stack";
        }

        @Override
        public boolean isCheap() {
            return true;
        }
    }
}
