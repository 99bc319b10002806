package org.tessera.array.reduction;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import org.tessera.array.BlockGrid;
import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Metas;
import org.tessera.array.Tokens;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.CreationLayer;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Replannable;
import org.tessera.array.plan.Working;
import org.tessera.graph.Deferring;
import org.tessera.graph.Key;
import org.tessera.graph.Scoping;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.BlockwiseArgument;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayFamilies;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.Reduction;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.memory.Scratch;
import org.tessera.ndarray.error.AxisException;

/**
 * A reduction as a tree, as Dask's {@code reduction}: every block is reduced to a partial (a
 * blockwise layer, so it fuses with the elementwise work before it), then groups of at most
 * {@code splitEvery} partials along the reduced axes are combined, level by level, and the last
 * level finishes. Memory stays at a few partials per worker and the depth is
 * log_splitEvery(blocks).
 *
 * <p>A group takes its partials along the last reduced axis first (Dask splits {@code splitEvery}
 * evenly over the axes, 2 x 2 for two), so the static order, which follows the tree, reduces a
 * row of blocks before the next row. Where the blocks' producers share inputs along the first
 * axis, as a stencil's enlarged blocks share their neighbours' rows, two rows of groups held three
 * rows of blocks at once: R6's {@code map_overlap} over 8 x 8 stored blocks held 834-867 MB of
 * results at its peak in 2 x 2 groups, 481-513 MB in rows.
 */
public final class TreeReduction {
    /** Dask's default {@code split_every}. */
    public static final int DEFAULT_SPLIT_EVERY = 4;

    private TreeReduction() {
    }

    /**
     * @param axes       the reduced axes (null for all), negative counting from the end
     * @param outputMeta the meta of the result (its dtype); its ndim is ignored
     */
    public static ChunkedArray reduce(ChunkedArray x, ReductionKind kind, int[] axes, boolean keepdims, int splitEvery, AnyArray<?> outputMeta) {
        ChunkedArray reduction = tree(x, kind, axes, keepdims, splitEvery, outputMeta);
        // A memory plan that finds a level's tasks too large builds the tree again with fewer partials per task.
        long partialBytes = partialBytes(x, kind, normalizeAxes(axes, x.ndim(), kind.name()), outputMeta.dtype());
        Replannable replannable = new Replannable(reduction.graph().footprint(reduction.name()), taskBytes -> {
            int fewer = (int) Math.max(2, Math.min(splitEvery, taskBytes / partialBytes - 1));
            return tree(x, kind, axes, keepdims, fewer, outputMeta);
        });
        return new ChunkedArray(reduction.graph().withFootprint(reduction.name(), replannable), reduction.name(), reduction.chunks(), reduction.meta());
    }

    /** The bytes of the largest partial of {@code x}'s blocks: what each of the partials a level's task combines holds. */
    private static long partialBytes(ChunkedArray x, ReductionKind kind, int[] reduced, DType resultType) {
        long elements = 1;
        long[] largest = x.chunks().largestBlock();
        for (int axis = 0; axis < largest.length; axis++) {
            boolean isReduced = false;
            for (int axisReduced : reduced) {
                isReduced |= axisReduced == axis;
            }
            elements *= isReduced ? 1 : Math.max(1, largest[axis]);
        }
        return Math.max(1, elements * kind.partialItemBytes(x.dtype(), resultType) * Math.max(1, kind.partialArrays()));
    }

    private static ChunkedArray tree(ChunkedArray x, ReductionKind kind, int[] axes, boolean keepdims, int splitEvery, AnyArray<?> outputMeta) {
        int ndim = x.ndim();
        int[] reduced = normalizeAxes(axes, ndim, kind.name());
        boolean[] isReduced = new boolean[ndim];
        for (int axis : reduced) {
            isReduced[axis] = true;
        }
        x.chunks().requireKnownShape(kind.name());
        x = withoutEmptyBlocks(x, reduced);
        Chunks chunks = x.chunks();
        String token = Tokens.token(kind.toString(), x.name(), reduced, keepdims, splitEvery);

        String letters = CreationLayer.AXIS_LETTERS.substring(0, ndim);
        Map<Character, Integer> counts = new HashMap<>();
        for (int axis = 0; axis < ndim; axis++) {
            counts.put(letters.charAt(axis), chunks.blockCount(axis));
        }
        String chunkName = kind.name() + "-chunk-" + token;
        BlockwiseLayer chunkLayer = new BlockwiseLayer(chunkName, letters, new ChunkStep(kind, reduced, chunks, scoped(x)),
                List.of(BlockwiseArgument.blocks(x.name(), letters, x.numBlocks()), BlockwiseArgument.blockIndex(letters)), counts, null);
        HighLevelGraph graph = x.graph().with(chunkLayer, Set.of(x.name()));
        DType resultType = outputMeta.dtype();
        long partialItemBytes = kind.partialItemBytes(x.dtype(), resultType);
        double combineTimes = kind.combineTimesJoined();
        graph = LayerMemory.arrays(graph, chunkName, partialChunks(chunks, reduced, x.numBlocks()), partialItemBytes, kind.partialArrays(),
                new ChunkWorking(chunks, kind.chunkBytesPerElement(x.dtype(), resultType), kind.chunkBytesPerElement(x.dtype(), resultType, true),
                        kind.chunkTimesPartial(), combineTimes, scoped(x), reduced.length > 0 && reduced[0] == 0));

        int[] gridCounts = x.numBlocks();
        String level = chunkName;
        // A group of one would never finish the tree.
        int groupLimit = Math.max(2, splitEvery);
        for (int step = 1; groupSize(gridCounts, reduced) > groupLimit; step++) {
            String next = kind.name() + "-partial-" + step + "-" + token;
            int[] nextCounts = lastAxesFirst(gridCounts, reduced, groupLimit);
            Map<Key, Task> tasks = groupTasks(level, next, gridCounts, nextCounts, reduced, new CombineStep(kind, reduced), true);
            graph = graph.with(new MaterializedLayer(next, tasks), Set.of(level));
            graph = LayerMemory.arrays(graph, next, partialChunks(chunks, reduced, nextCounts), partialItemBytes, kind.partialArrays(),
                    LevelWorking.of(kind, 1, gridCounts, nextCounts, reduced));
            level = next;
            gridCounts = nextCounts;
        }
        String name = kind.name() + "-aggregate-" + token;
        int[] finalCounts = gridCounts.clone();
        for (int axis : reduced) {
            finalCounts[axis] = 1;
        }
        Map<Key, Task> tasks = groupTasks(level, name, gridCounts, finalCounts, reduced, new FinishStep(kind, reduced, keepdims), keepdims);
        graph = graph.with(new MaterializedLayer(name, tasks), Set.of(level));
        // The result's blocks are the partials' without their other arrays, in the result's dtype.
        graph = Footprints.declare(graph, name, LevelWorking.of(kind, (double) partialItemBytes / Math.max(1, resultType.byteSize()), gridCounts,
                finalCounts, reduced));

        List<long[]> outputChunks = new ArrayList<>();
        for (int axis = 0; axis < ndim; axis++) {
            if (!isReduced[axis]) {
                outputChunks.add(chunks.axis(axis));
            } else if (keepdims) {
                outputChunks.add(new long[] {1});
            }
        }
        Chunks resultChunks = Chunks.of(outputChunks.toArray(long[][]::new));
        // Reductions that run through the chunk family's namespace keep the family; the others compute dense blocks.
        AnyArray<?> meta = kind.familyReduction() != null ? Metas.metaFromArray(x, resultChunks.ndim(), outputMeta.dtype())
                : ChunkedArray.metaOf(outputMeta.dtype(), resultChunks.ndim());
        return new ChunkedArray(graph, name, resultChunks, meta);
    }

    /** How many partials of a level with {@code counts} blocks one task would combine to finish. */
    private static long groupSize(int[] counts, int[] reduced) {
        long size = 1;
        for (int axis : reduced) {
            size *= counts[axis];
        }
        return size;
    }

    /** The block counts of the next level: groups of at most {@code splitEvery}, filled along the last reduced axes first. */
    private static int[] lastAxesFirst(int[] counts, int[] reduced, int splitEvery) {
        int[] next = counts.clone();
        int budget = splitEvery;
        for (int position = reduced.length - 1; position >= 0; position--) {
            int axis = reduced[position];
            int factor = Math.max(1, Math.min(budget, counts[axis]));
            next[axis] = (counts[axis] + factor - 1) / factor;
            budget = Math.max(1, budget / factor);
        }
        return next;
    }

    /** The chunks of the partials of a level with {@code counts} blocks: length 1 along each reduced axis, the blocks' along the others. */
    private static Chunks partialChunks(Chunks chunks, int[] reduced, int[] counts) {
        long[][] lengths = new long[chunks.ndim()][];
        for (int axis = 0; axis < lengths.length; axis++) {
            lengths[axis] = chunks.axis(axis);
        }
        for (int axis : reduced) {
            lengths[axis] = new long[counts[axis]];
            Arrays.fill(lengths[axis], 1);
        }
        return Chunks.of(lengths);
    }

    /**
     * The working memory of a chunk step: the kind's temporaries over the block of its key, and
     * small ones of its partial's size. A task in scratch memory ({@link ChunkStep#scoped}) carves
     * them from the slabs of the scratches it borrows, the task's and, for a fused chain pulled
     * through in strips, the strips' (new ones when none is idle), holds the strips' partials and
     * their join, and copies its partial out.
     *
     * @param blocks           the input's chunks
     * @param bytesPerElement        the kind's temporaries per element of a block
     * @param orderedBytesPerElement the same for a block that is C-ordered already
     * @param partialTimes           the kind's temporaries of the partial's size, per byte of the partial
     * @param combineTimes           the kind's temporaries in a combine, per byte of the joined partials
     * @param scoped                 whether the task runs in scratch memory
     * @param firstAxisReduced       whether strips' partials are combined (else joined)
     * @param input                  whether the block comes whole, deferred and pulled in strips, or either
     * @param inputOrdered           whether the block (or each strip) is a new C-ordered array
     */
    record ChunkWorking(Chunks blocks, double bytesPerElement, double orderedBytesPerElement, double partialTimes, double combineTimes, boolean scoped,
                        boolean firstAxisReduced, Input input, boolean inputOrdered)
            implements Working {

        /** How the block comes: whole, in strips, or either (known only when the task runs). */
        enum Input { EITHER, WHOLE, IN_PARTS }

        ChunkWorking(Chunks blocks, double bytesPerElement, double orderedBytesPerElement, double partialTimes, double combineTimes, boolean scoped,
                     boolean firstAxisReduced) {
            this(blocks, bytesPerElement, orderedBytesPerElement, partialTimes, combineTimes, scoped, firstAxisReduced, Input.EITHER, false);
        }

        /** Its input is a new C-ordered array (or each strip of it is): the kind copies nothing to order it. */
        @Override
        public Working takingOrdered() {
            return new ChunkWorking(blocks, bytesPerElement, orderedBytesPerElement, partialTimes, combineTimes, scoped, firstAxisReduced, input, true);
        }

        @Override
        public Working takingWhole() {
            return new ChunkWorking(blocks, bytesPerElement, orderedBytesPerElement, partialTimes, combineTimes, scoped, firstAxisReduced, Input.WHOLE,
                    inputOrdered);
        }

        @Override
        public boolean pullsInParts() {
            return scoped;
        }

        /** Strips are runs of whole rows of the block. */
        @Override
        public boolean asksRowParts() {
            return true;
        }

        /** A strip of whole rows of the input block, or the block where it is too short for two. */
        @Override
        public long pulledElements(Key key, long resultElements) {
            long[] shape = LayerMemory.blockShape(blocks, key);
            long elements = 1;
            for (long length : shape) {
                elements *= Math.max(0, length);
            }
            long rows = shape.length == 0 ? 1 : Math.max(1, shape[0]);
            long rowElements = elements / rows;
            long stripRows = DeferredBlock.stripRows(rowElements);
            return shape.length == 0 || stripRows * 2 > rows ? elements : stripRows * rowElements;
        }

        /** Its input comes deferred: a block long enough for strips is pulled through them and never made whole. */
        @Override
        public Working takingParts() {
            return new ChunkWorking(blocks, bytesPerElement, orderedBytesPerElement, partialTimes, combineTimes, scoped, firstAxisReduced, Input.IN_PARTS,
                    inputOrdered);
        }

        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long bytes(Key key, long partialBytes) {
            long[] shape = LayerMemory.blockShape(blocks, key);
            double perElement = inputOrdered ? orderedBytesPerElement : bytesPerElement;
            long elements = 1;
            for (long length : shape) {
                elements *= Math.max(0, length);
            }
            long temporaries = (long) Math.ceil(elements * perElement + partialTimes * partialBytes);
            if (!scoped) {
                return temporaries;
            }
            // A whole block (given whole, or too small for strips): the task in its scratch, the partial copied out.
            long whole = LayerMemory.inScratch(temporaries) + partialBytes;
            long rows = shape.length == 0 ? 1 : Math.max(1, shape[0]);
            long rowElements = elements / rows;
            long stripRows = DeferredBlock.stripRows(rowElements);
            if (shape.length == 0 || stripRows * 2 > rows || input == Input.WHOLE) {
                return whole;
            }
            // A fused chain pulled through in strips: each strip's temporaries in the strips' scratch (reset after each),
            // its partial copied out to the task's scratch, which is never reset: every strip's partial, and each round
            // of COMBINE_EVERY of them joined and combined (the last round with what is left), or all of them joined once.
            // Whether the block comes deferred is known only when the task runs: the larger of both.
            long strips = (rows + stripRows - 1) / stripRows;
            long stripPartial = firstAxisReduced ? partialBytes : (long) Math.ceil((double) partialBytes * stripRows / rows);
            long inner = (long) Math.ceil(stripRows * rowElements * perElement + (partialTimes + 1) * stripPartial);
            long rounds = firstAxisReduced ? Math.ceilDiv(strips, ChunkStep.COMBINE_EVERY) : 0;
            long joined = firstAxisReduced ? Math.min(strips, ChunkStep.COMBINE_EVERY) * stripPartial : partialBytes;
            // Each strip's partial arrays (up to three) are carved at multiples of 64 bytes.
            long outer = strips * (stripPartial + 3 * 64) + (firstAxisReduced ? (long) Math.ceil(rounds * (joined * (1 + combineTimes) + partialBytes)) : joined);
            long inStrips = LayerMemory.inScratch(inner) + LayerMemory.inScratch(outer) + partialBytes;
            return input == Input.IN_PARTS ? inStrips : Math.max(whole, inStrips);
        }
    }

    /**
     * The working memory of a level of the tree: its group of partials joined (once per reduced
     * axis along which it has several, for nested groups) and the kind's temporaries over them,
     * and those of a partial's size (the result, a finish's arithmetic).
     *
     * @param partialPerResultByte the bytes of partial per byte of the task's result (the finish's result holds one array)
     * @param group                the most partials a task reads
     * @param joins                the reduced axes along which a task joins several partials
     */
    record LevelWorking(double partialPerResultByte, long group, int joins, double combineTimes, double resultTimes)
            implements Working {
        @Serial
        private static final long serialVersionUID = 1L;

        static LevelWorking of(ReductionKind kind, double partialPerResultByte, int[] inputCounts, int[] outputCounts, int[] reduced) {
            long group = 1;
            int joins = 0;
            for (int axis : reduced) {
                long along = (inputCounts[axis] + outputCounts[axis] - 1) / outputCounts[axis];
                group *= along;
                joins += along > 1 ? 1 : 0;
            }
            if (kind.combinesInOrder(group, reduced.length)) {
                joins = 0;
            }
            return new LevelWorking(partialPerResultByte, group, joins, kind.combineTimesJoined(), kind.finishTimesPartial());
        }

        @Override
        public long bytes(Key key, long resultBytes) {
            double partial = resultBytes * partialPerResultByte;
            return (long) Math.ceil(group * partial * (joins + combineTimes) + partial * resultTimes);
        }
    }

    /**
     * {@code x} without its empty blocks along the reduced axes that have elements (a cheap rechunk):
     * a reduction without an identity (min, max) cannot reduce an empty block to a partial, and Dask
     * leaves such blocks out too (its chunk_min returns an empty partial). An axis of length 0 keeps
     * its blocks, so that reducing it still fails as NumPy's reduction does.
     */
    private static ChunkedArray withoutEmptyBlocks(ChunkedArray x, int[] reduced) {
        Chunks chunks = x.chunks();
        long[][] lengths = new long[chunks.ndim()][];
        boolean changed = false;
        for (int axis = 0; axis < lengths.length; axis++) {
            lengths[axis] = chunks.axis(axis);
        }
        for (int axis : reduced) {
            if (chunks.axisLength(axis) > 0 && Arrays.stream(lengths[axis]).anyMatch(length -> length == 0)) {
                lengths[axis] = Arrays.stream(lengths[axis]).filter(length -> length > 0).toArray();
                changed = true;
            }
        }
        return changed ? org.tessera.array.rechunk.Rechunk.rechunk(x, Chunks.of(lengths)) : x;
    }

    /** Sorted distinct axes in range; all axes for null. */
    static int[] normalizeAxes(int[] axes, int ndim, String operation) {
        if (axes == null) {
            int[] all = new int[ndim];
            Arrays.setAll(all, axis -> axis);
            return all;
        }
        boolean[] seen = new boolean[ndim];
        for (int axis : axes) {
            int normalized = axis < 0 ? axis + ndim : axis;
            if (normalized < 0 || normalized >= ndim) {
                throw new AxisException(axis, ndim);
            }
            if (seen[normalized]) {
                throw new IllegalArgumentException(operation + ": duplicate value in axis " + Arrays.toString(axes));
            }
            seen[normalized] = true;
        }
        int[] sorted = new int[axes.length];
        int position = 0;
        for (int axis = 0; axis < ndim; axis++) {
            if (seen[axis]) {
                sorted[position++] = axis;
            }
        }
        return sorted;
    }

    /**
     * Tasks of one tree level: each output block reads a group of input blocks along the reduced
     * axes, as nested lists (outer list = first reduced axis). The {@code n} blocks of an axis are
     * spread evenly over the level's {@code ceil(n / splitEvery)} groups, so a level rarely has a
     * lone block that it would only copy (25 blocks in groups of 4 are 4, 4, 4, 4, 3, 3, 3, not
     * six fours and a one).
     */
    private static Map<Key, Task> groupTasks(String input, String output, int[] inputCounts, int[] outputCounts, int[] reduced,
                                             TaskFunction step, boolean keepReducedAxes) {
        Map<Key, Task> tasks = new LinkedHashMap<>();
        BlockGrid.forEach(outputCounts, index -> {
            Task group = nestedGroup(input, index.clone(), inputCounts, outputCounts, reduced, 0, index);
            tasks.put(Key.of(output, keptIndex(index, reduced, keepReducedAxes)), new Task.Call(step, List.of(group)));
        });
        return tasks;
    }

    private static Task nestedGroup(String input, int[] inputIndex, int[] inputCounts, int[] outputCounts, int[] reduced, int depth,
                                    int[] outputIndex) {
        if (depth == reduced.length) {
            return new Task.Ref(Key.of(input, inputIndex));
        }
        int axis = reduced[depth];
        long groups = outputCounts[axis];
        int first = (int) (outputIndex[axis] * (long) inputCounts[axis] / groups);
        int last = (int) ((outputIndex[axis] + 1L) * inputCounts[axis] / groups);
        Task[] items = new Task[last - first];
        for (int block = first; block < last; block++) {
            inputIndex[axis] = block;
            items[block - first] = nestedGroup(input, inputIndex.clone(), inputCounts, outputCounts, reduced, depth + 1, outputIndex);
        }
        return new Task.TaskList(List.of(items));
    }

    private static int[] keptIndex(int[] index, int[] reduced, boolean keep) {
        if (keep) {
            return index;
        }
        int[] kept = new int[index.length - reduced.length];
        int position = 0;
        for (int axis = 0; axis < index.length; axis++) {
            if (Arrays.binarySearch(reduced, axis) < 0) {
                kept[position++] = index[axis];
            }
        }
        return kept;
    }

    /**
     * The kind's {@link ReductionKind#combineInOrder} of a group along one reduced axis whose
     * partials are all dense, or null where it has none (or the group is nested or of another family).
     */
    private static NDArray[] combinedInOrder(ReductionKind kind, Object group, int[] reduced) {
        if (reduced.length != 1 || !(group instanceof List<?> items) || items.size() < 2) {
            return null;
        }
        List<NDArray[]> partials = new ArrayList<>(items.size());
        for (Object item : items) {
            if (!(item instanceof NDArray[] partial)) {
                return null;
            }
            partials.add(partial);
        }
        return kind.combineInOrder(partials, reduced);
    }

    /** Partials of a nested group joined along the reduced axes, component by component. */
    static Object[] join(Object group, int[] reduced, int depth) {
        if (!(group instanceof List<?> items)) {
            return (Object[]) group;
        }
        List<Object[]> parts = new ArrayList<>(items.size());
        for (Object item : items) {
            parts.add(join(item, reduced, depth + 1));
        }
        if (parts.size() == 1) {
            return parts.getFirst();
        }
        // Dense partials stay an NDArray[] for the kinds' dense steps; other families' partials are joined by their namespace.
        boolean dense = true;
        for (Object[] part : parts) {
            dense &= part instanceof NDArray[];
        }
        Object[] joined = dense ? new NDArray[parts.getFirst().length] : new Object[parts.getFirst().length];
        for (int component = 0; component < joined.length; component++) {
            List<Object> pieces = new ArrayList<>(parts.size());
            for (Object[] part : parts) {
                pieces.add(part[component]);
            }
            joined[component] = Blocks.concatenate(pieces, reduced[depth]);
        }
        return joined;
    }

    /** The kind's family-independent reduction, or an error naming the block's family when it has none. */
    private static Reduction familyReduction(ReductionKind kind, Object block) {
        Reduction reduction = kind.familyReduction();
        if (reduction == null) {
            throw new UnsupportedOperationException("the reduction " + kind.name() + " needs dense (NDArray) blocks, but a block is "
                    + ArrayFamilies.describe(block) + "; sum, prod, min and max work on blocks of any family");
        }
        return reduction;
    }

    /**
     * Elements of a block from which its chunk step runs in scratch memory: 512 KiB of float64, the
     * size from which G1 places an array in humongous regions of its own (half a region of the 1 MiB
     * regions of a heap of up to 2 GiB).
     */
    static final long SCOPED_MIN_ELEMENTS = 65_536;

    /**
     * Whether the chunk steps over {@code x}'s blocks run their tasks in scratch memory: dense blocks
     * of at least {@link #SCOPED_MIN_ELEMENTS}. Below that a task's temporaries are small, and over
     * 100,000 blocks of ten elements (W5) borrowing and returning a scratch per task cost 15 % of the
     * run. Blocks shorter than two strips, which a task makes whole, are scoped too: 400 x 400
     * blocks made whole on the heap, three arrays a block, grew W1's heap by 130 MB.
     */
    private static boolean scoped(ChunkedArray x) {
        long largest = 1;
        for (long length : x.chunks().largestBlock()) {
            largest *= length;
        }
        return x.meta() instanceof NDArray && largest >= SCOPED_MIN_ELEMENTS;
    }

    /**
     * The chunk step: the partial of one block, which knows where the block sits. Given a deferred
     * block (the end of a fused chain that can compute parts of its block), it reduces the block in
     * strips along the first axis, each small enough to stay in cache with the chain's intermediate
     * parts, and joins the strips' partials: combined when the first axis is reduced, concatenated
     * when it is kept. No block of the chain is then ever made whole.
     *
     * @param scoped whether the task runs in scratch memory (see {@link #scope}): dense blocks of at least a strip
     */
    record ChunkStep(ReductionKind kind, int[] axes, Chunks chunks, boolean scoped) implements TaskFunction, Deferring, Scoping {
        @Serial
        private static final long serialVersionUID = 1L;
        /** Partials joined and combined at a time, bounding what the strips' partials hold. */
        static final int COMBINE_EVERY = 32;

        @Override
        public boolean acceptsDeferred(int position) {
            return position == 0;
        }

        /**
         * Over dense blocks of at least a strip, the whole fused task runs in scratch memory (see {@link Scratch}): the
         * blocks its producers make whole (an enlarged block and its filtered values, say) are carved
         * from slabs that the next task reuses, and only the partial, a row or a number, is copied out.
         * Without it each task leaves blocks of megabytes to the collector, and the heap, with the
         * process's resident memory, grows with the collector's pace rather than with what the tasks hold.
         */
        @Override
        public Object scope(Callable<Object> task) throws Exception {
            if (!scoped) {
                return task.call();
            }
            Scratch scratch = Scratch.borrow();
            try {
                Object partial = scratch.callForTask(task);
                if (!(partial instanceof Object[] components)) {
                    throw new IllegalStateException("a reduction's chunk step gave " + partial + ", not its partial's components");
                }
                // On the heap, not in a scratch around this one (chunk steps that share blocks run in one, see enclose),
                // which the next task reuses while this partial waits for its combine.
                return Scratch.outside(() -> copiedOut(components));
            } finally {
                scratch.giveBack();
            }
        }

        /** Chunk steps that share the blocks they read keep those blocks in a scratch around theirs, the largest idle one. */
        @Override
        public <T> T enclose(Callable<T> computation) throws Exception {
            if (!scoped) {
                return computation.call();
            }
            Scratch scratch = Scratch.borrowLargest();
            try {
                return scratch.callForTask(computation);
            } finally {
                scratch.giveBack();
            }
        }

        /**
         * A partial computed in scratch memory, its arrays copied out of it. Numbers need no copy,
         * nor arrays made outside it that view all of the memory they keep alive (a block product,
         * which is its own partial); a partial that views part of a larger array (a row of an
         * input block) is copied, so that it does not keep the rest.
         */
        private static <T> T[] copiedOut(T[] partial) {
            T[] kept = partial.clone();
            for (int component = 0; component < kept.length; component++) {
                if (kept[component] instanceof NDArray array) {
                    if (!Scratch.holds(array.segment()) && viewsAllItKeeps(array)) {
                        continue;
                    }
                    @SuppressWarnings("unchecked")
                    T copy = (T) array.copy();
                    kept[component] = copy;
                } else if (kept[component] != null && !(kept[component] instanceof Number)) {
                    throw new IllegalStateException("a reduction's chunk step over dense blocks gave a part of type "
                            + kept[component].getClass().getName() + ", which cannot be copied out of its scratch memory");
                }
            }
            return kept;
        }

        private static boolean viewsAllItKeeps(NDArray array) {
            NDArray owner = array;
            while (owner.base() != null) {
                owner = owner.base();
            }
            return owner.size() == array.size() && owner.dtype() == array.dtype();
        }

        @Override
        public Object applyDeferring(List<Object> arguments) throws Exception {
            if (!(arguments.get(0) instanceof DeferredBlock block)) {
                return apply(arguments);
            }
            long[] shape = block.shape();
            long rowElements = 1;
            for (int axis = 1; axis < shape.length; axis++) {
                rowElements *= shape[axis];
            }
            if (shape.length == 0 || DeferredBlock.stripRows(rowElements) * 2 > shape[0]) {
                return apply(List.of(block.force(), arguments.get(1)));
            }
            long stripRows = DeferredBlock.evenStripRows(rowElements, shape[0]);
            long[] blockStart = chunks.blockStart((int[]) arguments.get(1));
            boolean firstAxisReduced = axes.length > 0 && axes[0] == 0;
            List<NDArray[]> partials = new ArrayList<>();
            Scratch scratch = Scratch.borrow();
            try {
                for (long row = 0; row < shape[0]; row += stripRows) {
                    long[] start = new long[shape.length];
                    long[] stripShape = shape.clone();
                    start[0] = row;
                    stripShape[0] = Math.min(stripRows, shape[0] - row);
                    long[] stripStart = blockStart.clone();
                    stripStart[0] += row;
                    // The strip's parts live in scratch memory that the next strip reuses; its partial is copied out.
                    NDArray[] partial = copiedOut(scratch.call(() -> kind.chunk(block.part(start, stripShape), axes,
                            new ReductionKind.BlockPlace(stripStart, chunks.shape()))));
                    scratch.reset();
                    partials.add(partial);
                    if (firstAxisReduced && partials.size() == COMBINE_EVERY) {
                        NDArray[] combined = kind.combine(joinFirstAxis(partials), axes);
                        partials.clear();
                        partials.add(combined);
                    }
                }
            } finally {
                scratch.giveBack();
            }
            return firstAxisReduced && partials.size() > 1 ? kind.combine(joinFirstAxis(partials), axes) : joinFirstAxis(partials);
        }

        /** Partials of consecutive strips joined along the first axis, component by component. */
        private static NDArray[] joinFirstAxis(List<NDArray[]> partials) {
            if (partials.size() == 1) {
                return partials.getFirst();
            }
            NDArray[] joined = new NDArray[partials.getFirst().length];
            for (int component = 0; component < joined.length; component++) {
                List<NDArray> pieces = new ArrayList<>(partials.size());
                for (NDArray[] partial : partials) {
                    pieces.add(partial[component]);
                }
                joined[component] = (NDArray) Blocks.concatenate(pieces, 0);
            }
            return joined;
        }

        @Override
        public Object apply(List<Object> arguments) {
            Object value = arguments.get(0);
            int[] index = (int[]) arguments.get(1);
            if (value instanceof NDArray block) {
                return kind.chunk(block, axes, new ReductionKind.BlockPlace(chunks.blockStart(index), chunks.shape()));
            }
            Reduction reduction = familyReduction(kind, value);
            Object block = kind.familyDtype() == null ? value : Blocks.astype(value, kind.familyDtype());
            return new Object[] {Blocks.reduce(reduction, block, axes, true)};
        }

        @Override
        public String displayName() {
            return kind.name() + "-chunk";
        }
    }

    /** A middle level: partials of a group combined into one. */
    record CombineStep(ReductionKind kind, int[] axes) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            NDArray[] inOrder = combinedInOrder(kind, arguments.getFirst(), axes);
            if (inOrder != null) {
                return inOrder;
            }
            Object[] joined = join(arguments.getFirst(), axes, 0);
            if (joined instanceof NDArray[] dense) {
                return kind.combine(dense, axes);
            }
            return new Object[] {Blocks.reduce(familyReduction(kind, joined[0]), joined[0], axes, true)};
        }

        @Override
        public String displayName() {
            return kind.name() + "-partial";
        }
    }

    /** The last level: the result block from all partials along the reduced axes. */
    record FinishStep(ReductionKind kind, int[] axes, boolean keepdims) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            NDArray[] inOrder = combinedInOrder(kind, arguments.getFirst(), axes);
            if (inOrder != null) {
                return kind.finishCombined(inOrder, axes, keepdims);
            }
            Object[] joined = join(arguments.getFirst(), axes, 0);
            if (joined instanceof NDArray[] dense) {
                return kind.finish(dense, axes, keepdims);
            }
            return Blocks.reduce(familyReduction(kind, joined[0]), joined[0], axes, keepdims);
        }

        @Override
        public String displayName() {
            return kind.name() + "-aggregate";
        }
    }
}
