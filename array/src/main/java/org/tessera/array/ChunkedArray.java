package org.tessera.array;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

import org.tessera.array.api.ChunkedNamespace;
import org.tessera.array.blockwise.Cast;
import org.tessera.array.blockwise.Elementwise;
import org.tessera.array.blockwise.Selection;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.fft.ChunkedFft;
import org.tessera.array.linalg.ChunkedNorms;
import org.tessera.array.linalg.ChunkedProducts;
import org.tessera.array.linalg.ChunkedQr;
import org.tessera.array.linalg.ChunkedSvd;
import org.tessera.array.linalg.TallSkinny;
import org.tessera.array.overlap.Boundary;
import org.tessera.array.overlap.Overlap.OverlapFunction;
import org.tessera.array.overlap.Overlap;
import org.tessera.array.plan.Budget;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.MemoryPlanException;
import org.tessera.array.plan.Plan;
import org.tessera.array.plan.PlanObservers;
import org.tessera.array.plan.Replanning;
import org.tessera.array.rechunk.Rechunk;
import org.tessera.array.reduction.ChunkedStatistics.Request;
import org.tessera.array.reduction.ChunkedStatistics;
import org.tessera.array.reduction.CumulativeScan;
import org.tessera.array.reduction.SharedMoments;
import org.tessera.array.render.ChunkSvg;
import org.tessera.array.reshape.Reshape;
import org.tessera.array.reshape.Transpose;
import org.tessera.array.shape.AxisOrder;
import org.tessera.array.shape.Differences;
import org.tessera.array.shape.Dimensions;
import org.tessera.array.shape.PadMode;
import org.tessera.array.shape.Padding;
import org.tessera.array.shape.Reordering;
import org.tessera.array.shape.Repetition;
import org.tessera.array.slicing.ChunkedIndex;
import org.tessera.array.slicing.Slicing;
import org.tessera.array.sorting.ChunkedSort;
import org.tessera.array.sorting.TopK;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.layer.BlockwiseArgument;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.graph.optimize.Optimization;
import org.tessera.graph.schedule.Callback;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayFamilies;
import org.tessera.ndarray.ArrayNamespace;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.decomposition.NormOrder;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.fft.FftNorm;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.layout.Order;
import org.tessera.ndarray.sort.SortKind;
import org.tessera.ndarray.ufunc.Ufunc;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * A large array as a grid of blocks, each the result of a task: Dask's array model. It is
 * (graph, name, chunks, meta): block {@code (i, j)} is the value of key {@code (name, i, j)} in the
 * graph, {@code chunks} gives the block lengths per axis, and {@code meta} is an empty array of
 * the block type (the chunk family: dense NDArray, sparse, or any family registered with
 * {@link ArrayFamilies}) and dtype, which every operation predicts without computing. Immutable;
 * every operation returns a new array whose graph extends its inputs' graphs. As an array of the
 * chunked family, its {@link #namespace()} creates and combines chunked arrays of the same chunk
 * family (NEP 35's {@code like=}).
 */
public final class ChunkedArray implements AnyArray<ChunkedArray> {
    private static volatile Scheduler defaultScheduler = new ThreadedScheduler();

    private final HighLevelGraph graph;
    private final String name;
    private final Chunks chunks;
    private final AnyArray<?> meta;

    /**
     * An array over an existing graph, as one builds it by hand: the graph must hold a layer
     * {@code name} with a key for every block.
     */
    public ChunkedArray(HighLevelGraph graph, String name, Chunks chunks, DType dtype) {
        this(graph, name, chunks, metaOf(dtype, chunks.ndim()));
    }

    /** An array over an existing graph whose blocks are of {@code meta}'s family and dtype. */
    public ChunkedArray(HighLevelGraph graph, String name, Chunks chunks, AnyArray<?> meta) {
        Objects.requireNonNull(graph);
        this.name = Objects.requireNonNull(name);
        this.chunks = Objects.requireNonNull(chunks);
        this.meta = Objects.requireNonNull(meta);
        if (!graph.layers().containsKey(name)) {
            throw new IllegalArgumentException("the graph has no layer named " + name + " (it has " + graph.layers().keySet() + ")");
        }
        if (meta.ndim() != chunks.ndim()) {
            throw new IllegalArgumentException("meta has " + meta.ndim() + " axes but chunks " + chunks + " have " + chunks.ndim());
        }
        this.graph = Footprints.complete(graph, name, chunks, meta);
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

    /** An empty array of the chunk family and dtype (NDArray for dense chunks, a sparse array for sparse ones, ...). */
    public AnyArray<?> meta() {
        return meta;
    }

    /** The namespace of the chunk family (of the blocks). */
    public ArrayNamespace<?> chunkNamespace() {
        return meta.namespace();
    }

    /** The chunk type's simple class name, as Dask's repr shows it: "NDArray", "SparseCOO". */
    public String chunkType() {
        return meta.getClass().getSimpleName();
    }

    /** The chunked family over this array's chunk family. */
    @Override
    public ChunkedNamespace namespace() {
        return new ChunkedNamespace(meta.namespace());
    }

    @Override
    public DType dtype() {
        return meta.dtype();
    }

    @Override
    public int ndim() {
        return chunks.ndim();
    }

    /** The shape; {@link Chunks#UNKNOWN} where an axis has blocks of unknown length. */
    @Override
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

    @Override
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
        return optimized(graph, flatKeys());
    }

    /** The task graph that computes {@code keys} of {@code graph}: the array-level rewrites, then the graph's optimisation. */
    private static TaskGraph optimized(HighLevelGraph graph, List<Key> keys) {
        HighLevelGraph rewritten = SharedMoments.apply(graph);
        PlanObservers.computing(rewritten, keys, defaultWorkers());
        return Optimization.optimize(rewritten, keys);
    }

    /**
     * Computes the array with the default scheduler, as a dense array (blocks of another family are
     * densified; {@link #computeAsChunkType()} keeps their family).
     */
    public NDArray compute() {
        return compute(defaultScheduler);
    }

    public NDArray compute(Scheduler scheduler) {
        return computeAll(scheduler, List.of(this)).getFirst();
    }

    /**
     * Computes the array as one array of its chunk family: a ChunkedArray of sparse blocks gives a
     * sparse array. The blocks are joined by the family's concatenate.
     */
    public AnyArray<?> computeAsChunkType() {
        return computeAsChunkType(defaultScheduler);
    }

    public AnyArray<?> computeAsChunkType(Scheduler scheduler) {
        if (meta instanceof NDArray) {
            return compute(scheduler);
        }
        List<Key> keys = flatKeys();
        Map<Key, Object> blocks = scheduler.compute(optimized(graph, keys), keys);
        chunks.requireKnownShape("compute");
        return Blocks.array(joinBlocks(blocks, new int[ndim()], 0));
    }

    private Object joinBlocks(Map<Key, Object> blocks, int[] index, int axis) {
        if (axis == ndim()) {
            return checkedBlock(blocks, index.clone());
        }
        List<Object> parts = new ArrayList<>();
        for (int block = 0; block < chunks.blockCount(axis); block++) {
            index[axis] = block;
            parts.add(joinBlocks(blocks, index, axis + 1));
        }
        return parts.size() == 1 ? parts.getFirst() : Blocks.concatenate(parts, axis);
    }

    /**
     * What computing this array will do and hold, said before anything runs, on the default
     * scheduler's workers and within the {@linkplain Budget#standard() standard budget}.
     */
    public Plan plan() {
        return plan(Budget.standard());
    }

    /** As {@link #plan()}, judged against {@code budget}. */
    public Plan plan(Budget budget) {
        return plan(List.of(this), budget);
    }

    /** The plan of computing several arrays together, as {@link #computeAll} computes them. */
    public static Plan plan(Collection<ChunkedArray> arrays, Budget budget) {
        return plan(arrays, budget, defaultWorkers());
    }

    private static Plan plan(Collection<ChunkedArray> arrays, Budget budget, int workers) {
        HighLevelGraph merged = HighLevelGraph.merge(arrays.stream().map(ChunkedArray::graph).toArray(HighLevelGraph[]::new));
        List<Key> keys = new ArrayList<>();
        arrays.forEach(array -> keys.addAll(array.flatKeys()));
        // As computed by the default (threaded) scheduler, which streams outputs into their results.
        return Plan.of(SharedMoments.apply(merged), keys, arrays.stream().map(ChunkedArray::name).toList(), OutputAssembly.streamed(arrays), workers, budget);
    }

    private static int defaultWorkers() {
        return defaultScheduler instanceof ThreadedScheduler threaded ? threaded.workers() : Runtime.getRuntime().availableProcessors();
    }

    /**
     * Computes the array within {@code budget}: planned first, and refused before any task runs
     * ({@link MemoryPlanException}) when its largest task does not fit. Where several tasks at once
     * would not fit, fewer run at once; where the results held would not, the ones needed latest
     * wait on disk.
     */
    public NDArray compute(Budget budget) {
        return computeAll(List.of(this), budget).getFirst();
    }

    /** Computes several arrays in one graph within {@code budget}, as {@link #compute(Budget)}. */
    public static List<NDArray> computeAll(Collection<ChunkedArray> arrays, Budget budget) {
        Plan plan = plan(arrays, budget, defaultWorkers());
        List<ChunkedArray> fitted = List.copyOf(arrays);
        if (!plan.fits()) {
            fitted = replanned(arrays, budget);
            plan = plan(fitted, budget, defaultWorkers());
        }
        return computeAll(budgetedScheduler(plan, budget, List.of()), fitted);
    }

    /**
     * The same arrays, built again where their plan does not fit {@code budget} and an operation
     * knows how to make smaller tasks (a rechunk's steps under a task memory limit of half the
     * budget); the arrays as they are otherwise.
     */
    public static List<ChunkedArray> withinBudget(Collection<ChunkedArray> arrays, Budget budget) {
        return plan(arrays, budget, defaultWorkers()).fits() ? List.copyOf(arrays) : replanned(arrays, budget);
    }

    /** The arrays built again with tasks of at most half of {@code budget} where an operation knows how. */
    private static List<ChunkedArray> replanned(Collection<ChunkedArray> arrays, Budget budget) {
        HighLevelGraph merged = HighLevelGraph.merge(arrays.stream().map(ChunkedArray::graph).toArray(HighLevelGraph[]::new));
        HighLevelGraph replanned = Replanning.within(merged, Math.max(1, budget.bytes() / 2));
        return replanned == merged ? List.copyOf(arrays)
                : arrays.stream().map(array -> new ChunkedArray(replanned, array.name(), array.chunks(), array.meta())).toList();
    }

    /** The threaded scheduler that runs {@code arrays} within {@code budget}, after their plan is found to fit it. */
    public static ThreadedScheduler budgetedScheduler(Collection<ChunkedArray> arrays, Budget budget) {
        return budgetedScheduler(arrays, budget, List.of());
    }

    /** As {@link #budgetedScheduler(Collection, Budget)}, feeding {@code callbacks}. */
    public static ThreadedScheduler budgetedScheduler(Collection<ChunkedArray> arrays, Budget budget, List<Callback> callbacks) {
        return budgetedScheduler(plan(arrays, budget, defaultWorkers()), budget, callbacks);
    }

    private static ThreadedScheduler budgetedScheduler(Plan planned, Budget budget, List<Callback> callbacks) {
        Plan plan = planned.requireFits();
        int workers = (int) Math.max(1, Math.min(plan.workers(), budget.bytes() / Math.max(1, plan.largestTaskBytes())));
        plan = plan.withWorkers(workers);
        ThreadedScheduler.Builder scheduler = ThreadedScheduler.builder().workers(workers);
        callbacks.forEach(scheduler::callback);
        if (!plan.fitsInMemory()) {
            // Room for the running tasks first; the results held share what is left, the rest wait on disk.
            scheduler.memoryBudget(MemoryBudget.ofBytes(Math.max(1, budget.bytes() - (long) workers * plan.largestTaskBytes())));
        }
        return scheduler.build();
    }

    /** Computes several arrays in one graph, so shared inputs are computed once. */
    public static List<NDArray> computeAll(Scheduler scheduler, Collection<ChunkedArray> arrays) {
        HighLevelGraph merged = HighLevelGraph.merge(arrays.stream().map(ChunkedArray::graph).toArray(HighLevelGraph[]::new));
        List<Key> keys = new ArrayList<>();
        arrays.forEach(array -> keys.addAll(array.flatKeys()));
        if (scheduler.streamsOutputs()) {
            // Each block is copied into its array as its task finishes, and dropped then, rather
            // than all held until the last is done and copied after: the result and the running
            // tasks' blocks at a time, not the result beside every block of it.
            OutputAssembly assembly = new OutputAssembly(arrays);
            Map<Key, Object> kept = scheduler.compute(optimized(merged, keys), keys, assembly);
            return assembly.results(kept);
        }
        Map<Key, Object> blocks = scheduler.compute(optimized(merged, keys), keys);
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
        // Computed blocks, held as literals: their tasks allocate nothing.
        HighLevelGraph held = HighLevelGraph.empty().with(new MaterializedLayer(name, literals), java.util.Set.of());
        return new ChunkedArray(Footprints.declare(held, name, org.tessera.array.plan.Working.none()), name, chunks, meta);
    }

    /** The computed blocks, in C order of the block grid. */
    public List<NDArray> computeBlocks() {
        List<Key> keys = flatKeys();
        Map<Key, Object> blocks = defaultScheduler.compute(optimizedGraph(), keys);
        return keys.stream().map(key -> ArrayFamilies.toDense(Blocks.array(blocks.get(key)))).toList();
    }

    /**
     * This array with every unknown block length ({@link Chunks#UNKNOWN}, as after a boolean mask)
     * found by computing the blocks, as Dask's {@code compute_chunk_sizes}: each block is computed
     * once and only its shape is kept, so no more than the running tasks' blocks are held. The
     * result has the same graph and name (its blocks are computed again when its values are
     * needed); this array itself when its chunks are known.
     *
     * @throws IllegalStateException when blocks in the same row of the block grid disagree on a length
     */
    public ChunkedArray computeChunkSizes() {
        return computeChunkSizes(defaultScheduler);
    }

    public ChunkedArray computeChunkSizes(Scheduler scheduler) {
        if (chunks.isKnown()) {
            return this;
        }
        StringBuilder letters = new StringBuilder();
        Map<Character, Integer> blockCounts = new java.util.HashMap<>();
        for (int axis = 0; axis < ndim(); axis++) {
            char letter = (char) (axis < 26 ? 'a' + axis : 'A' + axis - 26);
            letters.append(letter);
            blockCounts.put(letter, chunks.blockCount(axis));
        }
        String shapesName = Tokens.name("chunk-shapes", name);
        // A local copy, so that the task function captures a string rather than this (unserialisable) array.
        String arrayName = name;
        TaskFunction blockShape = TaskFunction.named("chunk-shape", arguments -> {
            if (!(arguments.getFirst() instanceof AnyArray<?> block)) {
                throw new IllegalStateException("a block of " + arrayName + " computed to " + arguments.getFirst() + ", not an array of any family");
            }
            return block.shape();
        });
        BlockwiseLayer shapesLayer = new BlockwiseLayer(shapesName, letters.toString(), blockShape,
                List.of(BlockwiseArgument.blocks(name, letters.toString(), numBlocks())), blockCounts, null);
        List<Key> shapeKeys = new ArrayList<>((int) chunks.totalBlocks());
        BlockGrid.forEach(numBlocks(), index -> shapeKeys.add(Key.of(shapesName, index)));
        // A task of the shapes layer keeps a block's shape, a long[] of one length per axis, and allocates nothing.
        HighLevelGraph withShapes = graph.with(shapesLayer, java.util.Set.of(name))
                .withFootprint(shapesName, org.tessera.graph.memory.Footprint.uniform(16L + (long) Long.BYTES * ndim(), 0));
        Map<Key, Object> shapes = scheduler.compute(Optimization.optimize(withShapes, shapeKeys), shapeKeys);

        long[][] lengths = new long[ndim()][];
        for (int axis = 0; axis < ndim(); axis++) {
            lengths[axis] = chunks.axis(axis);
        }
        BlockGrid.forEach(numBlocks(), index -> {
            long[] shape = (long[]) shapes.get(Key.of(shapesName, index));
            for (int axis = 0; axis < index.length; axis++) {
                long expected = lengths[axis][index[axis]];
                if (expected == Chunks.UNKNOWN) {
                    lengths[axis][index[axis]] = shape[axis];
                } else if (expected != shape[axis]) {
                    String source = chunks.length(axis, index[axis]) == Chunks.UNKNOWN ? "another block at block position " + index[axis] + " of axis " + axis + " has"
                            : "the chunks " + chunks + " say";
                    throw new IllegalStateException("block " + Key.of(name, index) + " has shape " + Arrays.toString(shape) + " but " + source
                            + " length " + expected + " on axis " + axis);
                }
            }
        });
        return new ChunkedArray(graph, name, Chunks.of(lengths), meta);
    }

    /** The chunk grid drawn as a standalone SVG document, as a notebook shows an array (see {@link ChunkSvg}). */
    public String toSvg() {
        return ChunkSvg.render(chunks);
    }

    NDArray assemble(Map<Key, Object> blocks) {
        long[] shape = chunks.requireKnownShape("compute");
        if (chunks.totalBlocks() == 1) {
            return block(blocks, new int[ndim()]);
        }
        NDArray result = NDArray.zeros(dtype(), shape);
        BlockGrid.forEach(numBlocks(), index -> placeBlock(result, index, blocks.get(Key.of(name, index))));
        return result;
    }

    /** Copies {@code value}, the block at {@code index}, into its place in {@code result}, the whole array. */
    void placeBlock(NDArray result, int[] index, Object value) {
        long[] start = chunks.blockStart(index);
        NDArray target = result;
        for (int axis = 0; axis < index.length; axis++) {
            target = target.slice(axis, start[axis], 1, chunks.length(axis, index[axis]));
        }
        target.assign(dense(checkedBlock(value, index)));
    }

    private NDArray block(Map<Key, Object> blocks, int[] index) {
        return dense(checkedBlock(blocks, index));
    }

    private static NDArray dense(AnyArray<?> block) {
        return block instanceof NDArray dense ? dense : ArrayFamilies.toDense(block);
    }

    private AnyArray<?> checkedBlock(Map<Key, Object> blocks, int[] index) {
        return checkedBlock(blocks.get(Key.of(name, index)), index);
    }

    private AnyArray<?> checkedBlock(Object value, int[] index) {
        if (!(value instanceof AnyArray<?> block)) {
            throw new IllegalStateException("block " + Key.of(name, index) + " computed to " + (value == null ? "nothing" : value.getClass().getName()) + ", not an array of any family");
        }
        long[] expected = chunks.blockShape(index);
        if (!Arrays.equals(block.shape(), expected)) {
            throw new IllegalStateException("block " + Key.of(name, index) + " has shape " + Arrays.toString(block.shape())
                    + " but the chunks " + chunks + " say " + Arrays.toString(expected));
        }
        return block;
    }

    // ---------------------------------------------------------------- fluent API
    // NumPy's and Dask's array methods. Each is one call into its operation package: the behaviour
    // lives and is tested there, and this class stays the model.
    // Operands of binary methods are ChunkedArrays, NDArrays (one block) or Java numbers, which stay
    // weak scalars (NEP 50): x.add(1) keeps x's dtype.

    /** {@code ufunc(this, others...)}. */
    public ChunkedArray apply(Ufunc ufunc, Object... others) {
        return Elementwise.apply(ufunc, Stream.concat(Stream.of(this), Arrays.stream(others)).toArray());
    }

    public ChunkedArray add(Object other) { return Elementwise.apply(Ufuncs.ADD, this, other); }

    public ChunkedArray subtract(Object other) { return Elementwise.apply(Ufuncs.SUBTRACT, this, other); }

    public ChunkedArray multiply(Object other) { return Elementwise.apply(Ufuncs.MULTIPLY, this, other); }

    /** True division, as Python's {@code /}: integer inputs give float64. */
    public ChunkedArray divide(Object other) { return Elementwise.apply(Ufuncs.TRUE_DIVIDE, this, other); }

    public ChunkedArray floorDivide(Object other) { return Elementwise.apply(Ufuncs.FLOOR_DIVIDE, this, other); }

    /** Python's {@code %}: the result has the sign of the divisor. */
    public ChunkedArray remainder(Object other) { return Elementwise.apply(Ufuncs.REMAINDER, this, other); }

    public ChunkedArray power(Object other) { return Elementwise.apply(Ufuncs.POWER, this, other); }

    public ChunkedArray negative() { return Elementwise.apply(Ufuncs.NEGATIVE, this); }

    public ChunkedArray abs() { return Elementwise.apply(Ufuncs.ABSOLUTE, this); }

    public ChunkedArray equal(Object other) { return Elementwise.apply(Ufuncs.EQUAL, this, other); }

    public ChunkedArray notEqual(Object other) { return Elementwise.apply(Ufuncs.NOT_EQUAL, this, other); }

    public ChunkedArray less(Object other) { return Elementwise.apply(Ufuncs.LESS, this, other); }

    public ChunkedArray lessEqual(Object other) { return Elementwise.apply(Ufuncs.LESS_EQUAL, this, other); }

    public ChunkedArray greater(Object other) { return Elementwise.apply(Ufuncs.GREATER, this, other); }

    public ChunkedArray greaterEqual(Object other) { return Elementwise.apply(Ufuncs.GREATER_EQUAL, this, other); }

    /** A blockwise cast (unsafe, as NumPy's astype); this array itself when it already has {@code dtype}. */
    public ChunkedArray astype(DType dtype) { return Cast.astype(this, dtype); }

    /** Values limited to {@code [min, max]}; one bound may be null (NumPy's None). */
    public ChunkedArray clip(Object min, Object max) { return Selection.clip(this, min, max); }

    /** {@code x} where {@code condition} is true, else {@code y}; at least one operand must be a ChunkedArray. */
    public static ChunkedArray where(Object condition, Object x, Object y) { return Selection.where(condition, x, y); }

    // Reductions: no argument reduces every axis, axes count from the end when negative, an empty
    // axes array reduces none (NumPy's axis=()), and a Request also sets keepdims, dtype and splitEvery.

    public ChunkedArray sum() { return ChunkedStatistics.sum(this, Request.all()); }

    public ChunkedArray sum(int... axes) { return ChunkedStatistics.sum(this, Request.axes(axes)); }

    public ChunkedArray sum(Request request) { return ChunkedStatistics.sum(this, request); }

    public ChunkedArray prod() { return ChunkedStatistics.prod(this, Request.all()); }

    public ChunkedArray prod(int... axes) { return ChunkedStatistics.prod(this, Request.axes(axes)); }

    public ChunkedArray prod(Request request) { return ChunkedStatistics.prod(this, request); }

    public ChunkedArray min() { return ChunkedStatistics.min(this, Request.all()); }

    public ChunkedArray min(int... axes) { return ChunkedStatistics.min(this, Request.axes(axes)); }

    public ChunkedArray min(Request request) { return ChunkedStatistics.min(this, request); }

    public ChunkedArray max() { return ChunkedStatistics.max(this, Request.all()); }

    public ChunkedArray max(int... axes) { return ChunkedStatistics.max(this, Request.axes(axes)); }

    public ChunkedArray max(Request request) { return ChunkedStatistics.max(this, request); }

    public ChunkedArray mean() { return ChunkedStatistics.mean(this, Request.all()); }

    public ChunkedArray mean(int... axes) { return ChunkedStatistics.mean(this, Request.axes(axes)); }

    public ChunkedArray mean(Request request) { return ChunkedStatistics.mean(this, request); }

    public ChunkedArray any() { return ChunkedStatistics.any(this, Request.all()); }

    public ChunkedArray any(int... axes) { return ChunkedStatistics.any(this, Request.axes(axes)); }

    public ChunkedArray any(Request request) { return ChunkedStatistics.any(this, request); }

    public ChunkedArray all() { return ChunkedStatistics.all(this, Request.all()); }

    public ChunkedArray all(int... axes) { return ChunkedStatistics.all(this, Request.axes(axes)); }

    public ChunkedArray all(Request request) { return ChunkedStatistics.all(this, request); }

    public ChunkedArray countNonzero() { return ChunkedStatistics.countNonzero(this, Request.all()); }

    public ChunkedArray countNonzero(int... axes) { return ChunkedStatistics.countNonzero(this, Request.axes(axes)); }

    public ChunkedArray countNonzero(Request request) { return ChunkedStatistics.countNonzero(this, request); }

    public ChunkedArray nansum() { return ChunkedStatistics.nansum(this, Request.all()); }

    public ChunkedArray nansum(int... axes) { return ChunkedStatistics.nansum(this, Request.axes(axes)); }

    public ChunkedArray nansum(Request request) { return ChunkedStatistics.nansum(this, request); }

    public ChunkedArray nanmean() { return ChunkedStatistics.nanmean(this, Request.all()); }

    public ChunkedArray nanmean(int... axes) { return ChunkedStatistics.nanmean(this, Request.axes(axes)); }

    public ChunkedArray nanmean(Request request) { return ChunkedStatistics.nanmean(this, request); }

    public ChunkedArray nanmax() { return ChunkedStatistics.nanmax(this, Request.all()); }

    public ChunkedArray nanmax(int... axes) { return ChunkedStatistics.nanmax(this, Request.axes(axes)); }

    public ChunkedArray nanmax(Request request) { return ChunkedStatistics.nanmax(this, request); }

    public ChunkedArray nanmin() { return ChunkedStatistics.nanmin(this, Request.all()); }

    public ChunkedArray nanmin(int... axes) { return ChunkedStatistics.nanmin(this, Request.axes(axes)); }

    public ChunkedArray nanmin(Request request) { return ChunkedStatistics.nanmin(this, request); }

    // var and std divide by (n - ddof): ddof 0 is NumPy's default, 1 the unbiased sample estimate.

    public ChunkedArray var() { return ChunkedStatistics.var(this, Request.all(), 0); }

    public ChunkedArray var(long ddof) { return ChunkedStatistics.var(this, Request.all(), ddof); }

    public ChunkedArray var(long ddof, int... axes) { return ChunkedStatistics.var(this, Request.axes(axes), ddof); }

    public ChunkedArray var(Request request, long ddof) { return ChunkedStatistics.var(this, request, ddof); }

    public ChunkedArray std() { return ChunkedStatistics.std(this, Request.all(), 0); }

    public ChunkedArray std(long ddof) { return ChunkedStatistics.std(this, Request.all(), ddof); }

    public ChunkedArray std(long ddof, int... axes) { return ChunkedStatistics.std(this, Request.axes(axes), ddof); }

    public ChunkedArray std(Request request, long ddof) { return ChunkedStatistics.std(this, request, ddof); }

    public ChunkedArray nanvar() { return ChunkedStatistics.nanvar(this, Request.all(), 0); }

    public ChunkedArray nanvar(long ddof) { return ChunkedStatistics.nanvar(this, Request.all(), ddof); }

    public ChunkedArray nanvar(long ddof, int... axes) { return ChunkedStatistics.nanvar(this, Request.axes(axes), ddof); }

    public ChunkedArray nanvar(Request request, long ddof) { return ChunkedStatistics.nanvar(this, request, ddof); }

    public ChunkedArray nanstd() { return ChunkedStatistics.nanstd(this, Request.all(), 0); }

    public ChunkedArray nanstd(long ddof) { return ChunkedStatistics.nanstd(this, Request.all(), ddof); }

    public ChunkedArray nanstd(long ddof, int... axes) { return ChunkedStatistics.nanstd(this, Request.axes(axes), ddof); }

    public ChunkedArray nanstd(Request request, long ddof) { return ChunkedStatistics.nanstd(this, request, ddof); }

    /** The flat C-order position of the first largest element. */
    public ChunkedArray argmax() { return ChunkedStatistics.argmax(this, null, false); }

    public ChunkedArray argmax(int axis) { return ChunkedStatistics.argmax(this, axis, false); }

    /** The flat C-order position of the first smallest element. */
    public ChunkedArray argmin() { return ChunkedStatistics.argmin(this, null, false); }

    public ChunkedArray argmin(int axis) { return ChunkedStatistics.argmin(this, axis, false); }

    /** The running sum of the flattened array. */
    public ChunkedArray cumsum() { return ChunkedStatistics.cumsum(this, null, null); }

    public ChunkedArray cumsum(int axis) { return ChunkedStatistics.cumsum(this, axis, null); }

    /** The running product of the flattened array. */
    public ChunkedArray cumprod() { return ChunkedStatistics.cumprod(this, null, null); }

    public ChunkedArray cumprod(int axis) { return ChunkedStatistics.cumprod(this, axis, null); }

    /** The running sum along {@code axis}, its block totals combined by {@code method} (Dask's sequential or blelloch). */
    public ChunkedArray cumsum(int axis, CumulativeScan.Method method) { return CumulativeScan.scan(this, CumulativeScan.Kind.CUMSUM, axis, null, method); }

    public ChunkedArray cumprod(int axis, CumulativeScan.Method method) { return CumulativeScan.scan(this, CumulativeScan.Kind.CUMPROD, axis, null, method); }

    // Shape and blocks.

    /** The axes reversed; block (i, j) of the result is block (j, i) of this array, transposed. */
    public ChunkedArray transpose() { return Transpose.transpose(this); }

    /** Output axis k is axis {@code axes[k]} of this array (negative axes count from the end). */
    public ChunkedArray transpose(int... axes) { return Transpose.transpose(this, axes); }

    /** NumPy's {@code x.T}: the axes reversed. */
    public ChunkedArray T() { return Transpose.transpose(this); }

    /** The same values in blocks given in any form Dask's rechunk accepts; this array when they are unchanged. */
    public ChunkedArray rechunk(ChunkSpec spec) { return Rechunk.rechunk(this, spec); }

    public ChunkedArray rechunk(Chunks target) { return Rechunk.rechunk(this, target); }

    /** As {@link #rechunk(ChunkSpec)}, planned so that no task holds more than {@code taskMemoryBytes} of input and output blocks. */
    public ChunkedArray rechunk(ChunkSpec spec, long taskMemoryBytes) { return Rechunk.rechunk(this, spec, taskMemoryBytes); }

    public ChunkedArray rechunk(Chunks target, long taskMemoryBytes) { return Rechunk.rechunk(this, target, taskMemoryBytes); }

    /** The same elements in C order with {@code newShape} (one length may be -1); Dask's chunks, rechunking only where axes merge or split. */
    public ChunkedArray reshape(long... newShape) { return Reshape.reshape(this, newShape); }

    public ChunkedArray reshape(Order order, long... newShape) { return Reshape.reshape(this, order, newShape); }

    /** The elements as 1-D in C order, Dask's {@code reshape(-1)}. */
    public ChunkedArray ravel() { return Reshape.ravel(this); }

    public ChunkedArray moveaxis(int source, int destination) { return AxisOrder.moveaxis(this, source, destination); }

    public ChunkedArray moveaxis(int[] sources, int[] destinations) { return AxisOrder.moveaxis(this, sources, destinations); }

    public ChunkedArray swapaxes(int first, int second) { return AxisOrder.swapaxes(this, first, second); }

    /** Every axis of length 1 removed. */
    public ChunkedArray squeeze() { return Dimensions.squeeze(this); }

    public ChunkedArray squeeze(int... axes) { return Dimensions.squeeze(this, axes); }

    /** Axes of length 1 inserted at these positions of the result. */
    public ChunkedArray expandDims(int... axes) { return Dimensions.expandDims(this, axes); }

    /** Broadcast to {@code shape} by NumPy's rule; a stretched axis is one block, as in Dask. */
    public ChunkedArray broadcastTo(long... shape) { return Dimensions.broadcastTo(this, shape); }

    /** Reversed along every axis. */
    public ChunkedArray flip() { return Reordering.flip(this); }

    public ChunkedArray flip(int... axes) { return Reordering.flip(this, axes); }

    /** The flattened elements rolled by {@code shift}, in this shape. */
    public ChunkedArray roll(long shift) { return Reordering.roll(this, shift); }

    public ChunkedArray roll(long shift, int axis) { return Reordering.roll(this, shift, axis); }

    public ChunkedArray roll(long[] shifts, int[] axes) { return Reordering.roll(this, shifts, axes); }

    /** Each element of the flattened array {@code repeats} times. */
    public ChunkedArray repeat(long repeats) { return Repetition.repeat(this, repeats); }

    public ChunkedArray repeat(long repeats, int axis) { return Repetition.repeat(this, repeats, axis); }

    public ChunkedArray tile(long... reps) { return Repetition.tile(this, reps); }

    /** The first difference along the last axis. */
    public ChunkedArray diff() { return Differences.diff(this); }

    public ChunkedArray diff(int n, int axis) { return Differences.diff(this, n, axis); }

    public ChunkedArray pad(long width, PadMode mode) { return Padding.pad(this, width, mode); }

    /** {@code widths[k] = {before, after}} on axis k (one pair for every axis, as NumPy broadcasts it). */
    public ChunkedArray pad(long[][] widths, PadMode mode) { return Padding.pad(this, widths, mode); }

    // Overlapping blocks (Dask's map_overlap): the function sees each block with depth ghost cells per side.

    /** {@code function} on every block enlarged by {@code depth} ghost cells on each side of every axis, trimmed back after. */
    public ChunkedArray mapOverlap(OverlapFunction function, long depth, Boundary boundary) { return Overlap.mapOverlap(this, function, depth, boundary); }

    public ChunkedArray mapOverlap(OverlapFunction function, long[] depth, Boundary[] boundary) { return Overlap.mapOverlap(this, function, depth, boundary); }

    // Matrix products: blockwise contractions whose partial products are added as a tree.

    /** {@code this @ other}, NumPy's matmul (batch axes broadcast, 1-D operands are a row or a column). */
    public ChunkedArray matmul(ChunkedArray other) { return ChunkedProducts.matmul(this, other); }

    /** NumPy's dot: the sum over this array's last axis and {@code other}'s second to last (its only axis when 1-D). */
    public ChunkedArray dot(ChunkedArray other) { return ChunkedProducts.dot(this, other); }

    // Linear algebra (see org.tessera.array.linalg for solve, lstsq, cholesky, lu, inv, compressed SVD).

    /** NumPy's {@code linalg.norm(x)}: the 2-norm of all elements, 0-d. */
    public ChunkedArray norm() { return ChunkedNorms.norm(this); }

    /** NumPy's {@code linalg.norm(x, ord)}: a vector norm when 1-D, a matrix norm when 2-D. */
    public ChunkedArray norm(NormOrder order) { return ChunkedNorms.norm(this, order); }

    /** The reduced QR of a tall-and-skinny matrix chunked along rows only, by TSQR. */
    public ChunkedQr qr() { return TallSkinny.qr(this); }

    /** The reduced SVD of a tall-and-skinny matrix chunked along rows only, through its TSQR. */
    public ChunkedSvd svd() { return TallSkinny.svd(this); }

    // Sorting-like (see org.tessera.array.sorting for unique, histogram, bincount, percentile).

    /** The k largest values along the last axis, largest first; a negative k gives the |k| smallest, smallest first. */
    public ChunkedArray topk(int k) { return TopK.topk(this, k); }

    /** The int64 positions along the last axis of {@link #topk(int)}'s values. */
    public ChunkedArray argtopk(int k) { return TopK.argtopk(this, k); }

    /** NumPy's {@code sort(x, axis)} across chunks, in this array's chunks (see {@link ChunkedSort}). */
    public ChunkedArray sort(int axis) { return ChunkedSort.sort(this, axis); }

    public ChunkedArray sort(int axis, SortKind kind) { return ChunkedSort.sort(this, axis, kind); }

    /** NumPy's {@code argsort(x, axis, kind="stable")} across chunks: int64 positions along the axis. */
    public ChunkedArray argsort(int axis) { return ChunkedSort.argsort(this, axis); }

    public ChunkedArray argsort(int axis, SortKind kind) { return ChunkedSort.argsort(this, axis, kind); }

    /** NumPy's exact {@code quantile(x, q, axis, method)} (a null axis: the flattened array); the result's first axis is q's. */
    public ChunkedArray quantile(double[] q, Integer axis, String method) { return ChunkedSort.quantile(this, q, axis, method); }

    /** NumPy's exact {@code percentile(x, q, axis, method)}, q in [0, 100]. */
    public ChunkedArray percentile(double[] q, Integer axis, String method) { return ChunkedSort.percentile(this, q, axis, method); }

    /** NumPy's {@code median(x, axis)} (a null axis: the flattened array). */
    public ChunkedArray median(Integer axis) { return ChunkedSort.median(this, axis); }

    // Fourier transforms along any axis whatever its chunks (the four-step plan of org.tessera.array.fft).

    /** NumPy's {@code fft(x, n, axis, norm)}; a null n keeps the axis' length, a null norm is "backward". */
    public ChunkedArray fft(Long n, int axis, FftNorm norm) { return ChunkedFft.fft(this, n, axis, norm); }

    /** NumPy's {@code ifft(x, n, axis, norm)}. */
    public ChunkedArray ifft(Long n, int axis, FftNorm norm) { return ChunkedFft.ifft(this, n, axis, norm); }

    /** NumPy's {@code rfft(x, n, axis, norm)}: the n // 2 + 1 non-negative frequencies of a real signal. */
    public ChunkedArray rfft(Long n, int axis, FftNorm norm) { return ChunkedFft.rfft(this, n, axis, norm); }

    /** NumPy's {@code irfft(x, n, axis, norm)}. */
    public ChunkedArray irfft(Long n, int axis, FftNorm norm) { return ChunkedFft.irfft(this, n, axis, norm); }

    /** NumPy's {@code fft2(x)} over the last two axes. */
    public ChunkedArray fft2() { return ChunkedFft.fft2(this); }

    /** NumPy's {@code ifft2(x)} over the last two axes. */
    public ChunkedArray ifft2() { return ChunkedFft.ifft2(this); }

    /** NumPy's {@code fftn(x, s, axes, norm)}; null s and axes transform every axis. */
    public ChunkedArray fftn(long[] s, int[] axes, FftNorm norm) { return ChunkedFft.fftn(this, s, axes, norm); }

    /** NumPy's {@code ifftn(x, s, axes, norm)}. */
    public ChunkedArray ifftn(long[] s, int[] axes, FftNorm norm) { return ChunkedFft.ifftn(this, s, axes, norm); }

    /**
     * Dask's {@code x.blocks[i, j]}: block {@code index} (negative positions count from the end of
     * the grid) as a one-block array whose one task refers to the block's key; nothing is computed.
     */
    public ChunkedArray block(int... index) { return BlockAccess.single(this, index); }

    /** The blocks in C order of the block grid, each computed by the default scheduler when next() asks for it. */
    public Iterator<NDArray> iterateBlocks() { return BlockAccess.iterator(this, defaultScheduler); }

    public Iterator<NDArray> iterateBlocks(Scheduler scheduler) { return BlockAccess.iterator(this, scheduler); }

    // Indexing: NumPy's x[index] and x[index] = value, with Dask's chunks (see Slicing). Index
    // errors (out of bounds, too many indices, a mask of the wrong shape) are raised at once.

    /**
     * {@code x[index]}: integers, slices with any step, {@code ...}, new axes, boolean scalars, and
     * integer arrays or boolean masks given as NDArrays, combined as NumPy combines them.
     */
    public ChunkedArray get(Index... index) { return Slicing.get(this, index); }

    /**
     * {@code x[indexArray]} with a chunked index array: a boolean mask over the leading axes (the
     * result's lengths are unknown until {@link #computeChunkSizes()}), or 1-D integer positions.
     */
    public ChunkedArray get(ChunkedArray indexArray) { return Slicing.get(this, indexArray); }

    /** {@code x[index]} where one item may be a chunked mask or chunked positions ({@link ChunkedIndex}). */
    public ChunkedArray get(List<ChunkedIndex> index) { return Slicing.get(this, index); }

    /** Dask's {@code x.vindex[i, j, ...]}: one integer array per leading axis, broadcast together and picked point-wise; the point axes come first. */
    public ChunkedArray vindex(NDArray... pointIndices) { return Slicing.vindex(this, pointIndices); }

    /**
     * {@code x[index] = value} as a new array with this array's chunks; neither this array nor any
     * computed block of it changes. The value (a Java scalar, an NDArray or a ChunkedArray) is
     * broadcast to {@code x[index]} and cast as NumPy's setitem casts.
     */
    public ChunkedArray set(Index[] index, Object value) { return Slicing.set(this, index, value); }

    /** {@code x[mask] = value} with a boolean chunked mask over the leading axes and a one-element value. */
    public ChunkedArray set(ChunkedArray mask, Object value) { return Slicing.set(this, mask, value); }

    /**
     * Dask's repr: {@code ChunkedArray<name, shape=(20000, 20000), dtype=float64,
     * chunksize=(2000, 2000), chunktype=NDArray, bytes=3.2 GB, tasks=100>}.
     */
    @Override
    public String toString() {
        String bytes = chunks.isKnown() ? ", bytes=" + humanBytes(byteSize()) : "";
        return "ChunkedArray<" + name.replaceFirst("-[0-9a-f]{16}$", "") + ", shape=" + tuple(shape()) + ", dtype=" + dtype().numpyName()
                + ", chunksize=" + tuple(chunkSize()) + ", chunktype=" + chunkType() + bytes + ", tasks=" + graph.taskCount() + ">";
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
