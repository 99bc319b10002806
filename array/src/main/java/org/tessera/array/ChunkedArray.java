package org.tessera.array;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import org.tessera.array.chunks.Chunks;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.graph.optimize.Optimization;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * A large array as a grid of NDArray blocks, each the result of a task: Dask's array model. It is
 * (graph, name, chunks, meta): block {@code (i, j)} is the value of key {@code (name, i, j)} in the
 * graph, {@code chunks} gives the block lengths per axis, and {@code meta} is an empty array of
 * the block type and dtype, which every operation predicts without computing. Immutable; every
 * operation returns a new array whose graph extends its inputs' graphs.
 */
public final class ChunkedArray {
    private static volatile Scheduler defaultScheduler = new ThreadedScheduler();

    private final HighLevelGraph graph;
    private final String name;
    private final Chunks chunks;
    private final NDArray meta;

    /**
     * An array over an existing graph, as one builds it by hand: the graph must hold a layer
     * {@code name} with a key for every block.
     */
    public ChunkedArray(HighLevelGraph graph, String name, Chunks chunks, DType dtype) {
        this(graph, name, chunks, metaOf(dtype, chunks.ndim()));
    }

    public ChunkedArray(HighLevelGraph graph, String name, Chunks chunks, NDArray meta) {
        this.graph = Objects.requireNonNull(graph);
        this.name = Objects.requireNonNull(name);
        this.chunks = Objects.requireNonNull(chunks);
        this.meta = Objects.requireNonNull(meta);
        if (!graph.layers().containsKey(name)) {
            throw new IllegalArgumentException("the graph has no layer named " + name + " (it has " + graph.layers().keySet() + ")");
        }
        if (meta.ndim() != chunks.ndim()) {
            throw new IllegalArgumentException("meta has " + meta.ndim() + " axes but chunks " + chunks + " have " + chunks.ndim());
        }
    }

    /** An empty array of {@code dtype} with {@code ndim} axes: the meta of NDArray blocks. */
    public static NDArray metaOf(DType dtype, int ndim) {
        return NDArray.zeros(dtype, new long[ndim]);
    }

    /** The scheduler {@link #compute()} uses unless told otherwise (the threaded scheduler on all cores). */
    public static void setDefaultScheduler(Scheduler scheduler) {
        defaultScheduler = Objects.requireNonNull(scheduler);
    }

    public static Scheduler defaultScheduler() {
        return defaultScheduler;
    }

    public HighLevelGraph graph() {
        return graph;
    }

    public String name() {
        return name;
    }

    public Chunks chunks() {
        return chunks;
    }

    public NDArray meta() {
        return meta;
    }

    public DType dtype() {
        return meta.dtype();
    }

    public int ndim() {
        return chunks.ndim();
    }

    /** The shape; {@link Chunks#UNKNOWN} where an axis has blocks of unknown length. */
    public long[] shape() {
        return chunks.shape();
    }

    public long shape(int axis) {
        return chunks.axisLength(axis);
    }

    /** The number of elements (requires known chunks). */
    public long size() {
        long size = 1;
        for (long length : chunks.requireKnownShape("size")) {
            size *= length;
        }
        return size;
    }

    public long byteSize() {
        return size() * dtype().byteSize();
    }

    /** The largest block length per axis (Dask's chunksize). */
    public long[] chunkSize() {
        return chunks.largestBlock();
    }

    public int[] numBlocks() {
        return chunks.blockCounts();
    }

    /** The key of block {@code index}. */
    public Key key(int... index) {
        if (index.length != ndim()) {
            throw new IllegalArgumentException("block index " + Arrays.toString(index) + " has " + index.length + " positions for an array of " + ndim() + " axes");
        }
        for (int axis = 0; axis < index.length; axis++) {
            if (index[axis] < 0 || index[axis] >= chunks.blockCount(axis)) {
                throw new IndexOutOfBoundsException("block index " + Arrays.toString(index) + " is outside the block grid " + Arrays.toString(numBlocks()));
            }
        }
        return Key.of(name, index);
    }

    /** Every block key in C order. */
    public List<Key> flatKeys() {
        List<Key> keys = new ArrayList<>((int) chunks.totalBlocks());
        BlockGrid.forEach(numBlocks(), index -> keys.add(Key.of(name, index)));
        return keys;
    }

    /** The block keys as nested lists, one level per axis (Dask's {@code __dask_keys__}). */
    public Object keys() {
        return nestedKeys(new int[ndim()], 0);
    }

    private Object nestedKeys(int[] index, int axis) {
        if (axis == ndim()) {
            return Key.of(name, index);
        }
        List<Object> level = new ArrayList<>();
        for (int block = 0; block < chunks.blockCount(axis); block++) {
            index[axis] = block;
            level.add(nestedKeys(index, axis + 1));
        }
        return level;
    }

    /** The low-level graph of this array's blocks after the default optimisation. */
    public TaskGraph optimizedGraph() {
        return Optimization.optimize(graph, flatKeys());
    }

    /** Computes the array with the default scheduler. */
    public NDArray compute() {
        return compute(defaultScheduler);
    }

    public NDArray compute(Scheduler scheduler) {
        return computeAll(scheduler, List.of(this)).getFirst();
    }

    /** Computes several arrays in one graph, so shared inputs are computed once. */
    public static List<NDArray> computeAll(Scheduler scheduler, Collection<ChunkedArray> arrays) {
        HighLevelGraph merged = HighLevelGraph.merge(arrays.stream().map(ChunkedArray::graph).toArray(HighLevelGraph[]::new));
        List<Key> keys = new ArrayList<>();
        arrays.forEach(array -> keys.addAll(array.flatKeys()));
        Map<Key, Object> blocks = scheduler.compute(Optimization.optimize(merged, keys), keys);
        return arrays.stream().map(array -> array.assemble(blocks)).toList();
    }

    /** Same as {@link #compute()}: the whole array in memory. */
    public NDArray toNDArray() {
        return compute();
    }

    /**
     * The array with its blocks computed and held in memory: the same name, chunks and meta, and a
     * graph of one layer of literal blocks, as Dask's {@code persist}.
     */
    public ChunkedArray persist() {
        return persist(defaultScheduler);
    }

    public ChunkedArray persist(Scheduler scheduler) {
        List<Key> keys = flatKeys();
        Map<Key, Object> blocks = scheduler.compute(optimizedGraph(), keys);
        Map<Key, Task> literals = new java.util.LinkedHashMap<>();
        keys.forEach(key -> literals.put(key, Task.literal(blocks.get(key))));
        return new ChunkedArray(HighLevelGraph.empty().with(new MaterializedLayer(name, literals), java.util.Set.of()), name, chunks, meta);
    }

    /** The computed blocks, in C order of the block grid. */
    public List<NDArray> computeBlocks() {
        List<Key> keys = flatKeys();
        Map<Key, Object> blocks = defaultScheduler.compute(optimizedGraph(), keys);
        return keys.stream().map(key -> (NDArray) blocks.get(key)).toList();
    }

    private NDArray assemble(Map<Key, Object> blocks) {
        long[] shape = chunks.requireKnownShape("compute");
        if (chunks.totalBlocks() == 1) {
            return block(blocks, new int[ndim()]);
        }
        NDArray result = NDArray.zeros(dtype(), shape);
        long[][] offsets = new long[ndim()][];
        for (int axis = 0; axis < ndim(); axis++) {
            offsets[axis] = chunks.offsets(axis);
        }
        BlockGrid.forEach(numBlocks(), index -> {
            NDArray target = result;
            for (int axis = 0; axis < index.length; axis++) {
                target = target.slice(axis, offsets[axis][index[axis]], 1, chunks.length(axis, index[axis]));
            }
            target.assign(block(blocks, index));
        });
        return result;
    }

    private NDArray block(Map<Key, Object> blocks, int[] index) {
        Object value = blocks.get(Key.of(name, index));
        if (!(value instanceof NDArray block)) {
            throw new IllegalStateException("block " + Key.of(name, index) + " computed to " + (value == null ? "nothing" : value.getClass().getName()) + ", not an NDArray");
        }
        long[] expected = chunks.blockShape(index);
        if (!Arrays.equals(block.shape(), expected)) {
            throw new IllegalStateException("block " + Key.of(name, index) + " has shape " + Arrays.toString(block.shape())
                    + " but the chunks " + chunks + " say " + Arrays.toString(expected));
        }
        return block;
    }

    /**
     * Dask's repr: {@code ChunkedArray<name, shape=(20000, 20000), dtype=float64,
     * chunksize=(2000, 2000), chunktype=NDArray, bytes=3.2 GB, tasks=100>}.
     */
    @Override
    public String toString() {
        String bytes = chunks.isKnown() ? ", bytes=" + humanBytes(byteSize()) : "";
        return "ChunkedArray<" + name.replaceFirst("-[0-9a-f]{16}$", "") + ", shape=" + tuple(shape()) + ", dtype=" + dtype().numpyName()
                + ", chunksize=" + tuple(chunkSize()) + ", chunktype=NDArray" + bytes + ", tasks=" + graph.taskCount() + ">";
    }

    static String tuple(long[] values) {
        StringBuilder text = new StringBuilder("(");
        for (int position = 0; position < values.length; position++) {
            text.append(position == 0 ? "" : ", ").append(values[position] == Chunks.UNKNOWN ? "nan" : Long.toString(values[position]));
        }
        return text.append(values.length == 1 ? ",)" : ")").toString();
    }

    static String humanBytes(long bytes) {
        String[] units = {"B", "kB", "MB", "GB", "TB", "PB"};
        double value = bytes;
        int unit = 0;
        while (value >= 1000 && unit < units.length - 1) {
            value /= 1000;
            unit++;
        }
        return unit == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.2f %s", value, units[unit]).replaceFirst("\\.?0+ ", " ");
    }
}
