package org.tessera.array.rechunk;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.tessera.array.BlockGrid;
import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.array.blockwise.DefersOneBlock;
import org.tessera.array.blockwise.ReadsDeferredBlocks;
import org.tessera.array.chunks.ChunkNormalization;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.CreationLayer;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Replannable;
import org.tessera.array.plan.Working;
import org.tessera.graph.Deferring;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.graph.memory.Footprint.PartMaking;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.error.AxisException;

/**
 * Rechunking, as Dask's {@code rechunk}: {@link RechunkPlan} chooses intermediate chunkings, and
 * each step is done by intersection: every new block is assembled from the pieces of the old blocks
 * it overlaps. A step whose tasks would hold more than the memory limit (a new block that overlaps
 * many large old blocks) is done in two, through the chunks that have every old and every new
 * boundary: first each old block is cut into copied pieces, then each new block joins only its
 * pieces (Dask's split and merge tasks). So no task holds more than the limit: its input blocks and
 * its output block together.
 */
public final class Rechunk {
    /**
     * The default memory of one task, inputs and output together: twice Dask's
     * {@code array.chunk-size}, so intermediate blocks stay under 128 MiB as in Dask.
     */
    public static final long DEFAULT_TASK_MEMORY_BYTES = 2 * ChunkNormalization.DEFAULT_LIMIT_BYTES;

    private Rechunk() {
    }

    /**
     * Rechunks to chunks written in any form Dask's {@code rechunk} accepts; "auto" axes grow or
     * shrink from the current blocks, as Dask passes the previous chunks to its normalisation, and
     * axes a map leaves out keep their blocks.
     */
    public static ChunkedArray rechunk(ChunkedArray array, ChunkSpec spec) {
        return normalizedRechunk(array, spec, null);
    }

    /**
     * As {@link #rechunk(ChunkedArray, ChunkSpec)}, with no task holding more than
     * {@code taskMemoryBytes}; "auto" blocks then hold about half of it.
     */
    public static ChunkedArray rechunk(ChunkedArray array, ChunkSpec spec, long taskMemoryBytes) {
        return normalizedRechunk(array, spec, taskMemoryBytes);
    }

    /** The spec normalised against the current blocks, then rechunked; a null limit is Dask's default. */
    private static ChunkedArray normalizedRechunk(ChunkedArray array, ChunkSpec spec, Long taskMemoryBytes) {
        Chunks source = array.chunks();
        long[][] previous = new long[source.ndim()][];
        for (int axis = 0; axis < previous.length; axis++) {
            previous[axis] = source.axis(axis);
        }
        if (spec instanceof ChunkSpec.ByAxis(Map<Integer, ChunkSpec> axes)) {
            spec = keepingUnnamedAxes(axes, previous);
        }
        Long autoLimit = taskMemoryBytes == null ? null : Math.max(1, taskMemoryBytes / 2);
        Chunks target = ChunkNormalization.normalize(spec, source.requireKnownShape("rechunk"), autoLimit, array.dtype(), previous);
        return rechunk(array, target, taskMemoryBytes == null ? DEFAULT_TASK_MEMORY_BYTES : taskMemoryBytes);
    }

    /** Dask's rechunk reads a map as changes: an axis it leaves out keeps its blocks (normalisation would make it whole). */
    private static ChunkSpec keepingUnnamedAxes(Map<Integer, ChunkSpec> axes, long[][] previous) {
        Map<Integer, ChunkSpec> complete = new LinkedHashMap<>();
        for (Map.Entry<Integer, ChunkSpec> entry : axes.entrySet()) {
            int axis = entry.getKey() < 0 ? entry.getKey() + previous.length : entry.getKey();
            if (axis < 0 || axis >= previous.length) {
                throw new AxisException(entry.getKey(), previous.length);
            }
            complete.put(axis, entry.getValue());
        }
        for (int axis = 0; axis < previous.length; axis++) {
            complete.putIfAbsent(axis, new ChunkSpec.Explicit(previous[axis]));
        }
        return new ChunkSpec.ByAxis(complete);
    }

    /**
     * The graph growth under which a plan inserts no step, where the array's blocks are made (read
     * from a store, computed): Dask's threshold (4) weighs a step against tasks that cost Dask a
     * millisecond each, where a task here costs microseconds, and a step over made blocks makes
     * every intermediate block too, a copy of the whole array. R7's rechunk of a stored 16000²
     * array from 2000² blocks to (250, 16000): 5.5 s in two steps, 4.1-4.6 s in one, and 380 MB
     * held at the peak against 640 MB. Over blocks that defer cheaply (generated ones and views of
     * them; not an elementwise chain, which would compute again in each reader) an intermediate
     * block stays deferred and costs no copy, and Dask's threshold keeps its plans: W4, the same
     * rechunk of a random array, took 0.34-0.35 s in Dask's two steps and 0.41-0.45 s in one.
     */
    static final int MADE_STEP_THRESHOLD = 16;

    /**
     * Whether the blocks of {@code name} are computed by deferring functions that compute nothing
     * until a part is asked, as are the layers they read: the optimiser copies such blocks into
     * their readers, so a plan's intermediate blocks over them are never made whole.
     */
    static boolean defersCheaply(HighLevelGraph graph, String name) {
        if (!(graph.layer(name) instanceof BlockwiseLayer blockwise) || !(blockwise.function() instanceof Deferring deferring)
                || !deferring.defersCheaply()) {
            return false;
        }
        for (String input : graph.dependencies(name)) {
            if (!defersCheaply(graph, input)) {
                return false;
            }
        }
        return true;
    }

    /** Rechunks to {@code target} with the default task memory ({@link #DEFAULT_TASK_MEMORY_BYTES}). */
    public static ChunkedArray rechunk(ChunkedArray array, Chunks target) {
        return rechunk(array, target, DEFAULT_TASK_MEMORY_BYTES);
    }

    /**
     * Rechunks to {@code target} through the steps of {@link RechunkPlan}, no task holding more
     * than {@code taskMemoryBytes} of input and output blocks. A limit below what the largest old
     * or new block needs (itself and a block as large) is raised to that, as Dask raises its block
     * size limit.
     */
    public static ChunkedArray rechunk(ChunkedArray array, Chunks target, long taskMemoryBytes) {
        Chunks source = array.chunks();
        if (source.equals(target)) {
            return array;
        }
        source.requireKnownShape("rechunk");
        target.requireShape(source.shape());
        if (taskMemoryBytes <= 0) {
            throw new IllegalArgumentException("rechunk of " + array + " to " + target + ": the task memory limit must be positive, got " + taskMemoryBytes);
        }
        if (Arrays.stream(source.shape()).anyMatch(length -> length == 0)) {
            // Nothing to move (Dask returns an empty array as it is, and the plan has no steps), but
            // the caller asked for these blocks: a join or an elementwise operation lines its
            // inputs' block grids up by them.
            return direct(array, target);
        }
        int itemSize = array.dtype().byteSize();
        long blockLimitBytes = Math.max(1, taskMemoryBytes / 2);
        long taskLimitElements = Math.max(taskMemoryBytes / itemSize, 2 * Math.max(largestBlock(source), largestBlock(target)));
        ChunkedArray current = array;
        int threshold = defersCheaply(array.graph(), array.name()) ? RechunkPlan.DEFAULT_THRESHOLD : MADE_STEP_THRESHOLD;
        for (Chunks step : RechunkPlan.plan(source, target, itemSize, blockLimitBytes, threshold)) {
            current = boundedStep(current, step, taskLimitElements);
        }
        // A memory plan that finds these tasks too large builds the rechunk again under a smaller limit.
        Replannable replannable = new Replannable(current.graph().footprint(current.name()), limit -> rechunk(array, target, limit));
        return new ChunkedArray(current.graph().withFootprint(current.name(), replannable), current.name(), current.chunks(), current.meta());
    }

    /**
     * One step of a plan: by intersection, or split then merged when intersection tasks would hold
     * too much, unless the pieces are rows of stored blocks that the new blocks' tasks read in slabs.
     */
    private static ChunkedArray boundedStep(ChunkedArray array, Chunks target, long taskLimitElements) {
        Chunks source = array.chunks();
        if (source.equals(target) || largestTaskElements(source, target) <= taskLimitElements) {
            return direct(array, target);
        }
        Chunks refinement = commonRefinement(source, target);
        if (refinement.equals(source) || refinement.equals(target)) {
            // A pure merge or a pure split reads no more than it needs.
            return direct(array, target);
        }
        if (readsRowsInSlabs(array, target)) {
            return intersect(array, target, Pieces.READ_ROWS);
        }
        return direct(intersect(array, refinement, Pieces.COPIES), target);
    }

    /**
     * An upper bound of the elements one task of a one-step rechunk holds: the old blocks its new
     * block overlaps, and the new block. Per axis the widest overlap and the widest new block are
     * found apart, so this may overestimate, never underestimate.
     */
    static long largestTaskElements(Chunks source, Chunks target) {
        long inputs = 1;
        long output = 1;
        for (int axis = 0; axis < source.ndim(); axis++) {
            long[] sourceOffsets = source.offsets(axis);
            long[] targetOffsets = target.offsets(axis);
            long widestOverlap = 0;
            int first = 0;
            for (int block = 0; block + 1 < targetOffsets.length; block++) {
                long start = targetOffsets[block];
                long end = targetOffsets[block + 1];
                while (first + 1 < sourceOffsets.length - 1 && sourceOffsets[first + 1] <= start) {
                    first++;
                }
                int last = first;
                while (last + 1 < sourceOffsets.length - 1 && sourceOffsets[last + 1] < end) {
                    last++;
                }
                widestOverlap = Math.max(widestOverlap, sourceOffsets[last + 1] - sourceOffsets[first]);
            }
            inputs = Math.multiplyExact(inputs, widestOverlap);
            output = Math.multiplyExact(output, Arrays.stream(target.axis(axis)).max().orElse(0));
        }
        return inputs + output;
    }

    /** The chunks with every boundary of both: each of their blocks lies in one block of either. */
    static Chunks commonRefinement(Chunks first, Chunks second) {
        long[][] lengths = new long[first.ndim()][];
        for (int axis = 0; axis < lengths.length; axis++) {
            TreeSet<Long> boundaries = new TreeSet<>();
            for (long offset : first.offsets(axis)) {
                boundaries.add(offset);
            }
            for (long offset : second.offsets(axis)) {
                boundaries.add(offset);
            }
            long[] axisLengths = new long[Math.max(1, boundaries.size() - 1)];
            int block = 0;
            Long previous = null;
            for (long boundary : boundaries) {
                if (previous != null) {
                    axisLengths[block++] = boundary - previous;
                }
                previous = boundary;
            }
            lengths[axis] = axisLengths;
        }
        return Chunks.of(lengths);
    }

    private static long largestBlock(Chunks chunks) {
        long size = 1;
        for (long length : chunks.largestBlock()) {
            size = Math.multiplyExact(size, length);
        }
        return size;
    }

    /**
     * Rechunks in one step by intersection, with no plan: every new block is one task that joins
     * views of the old blocks it overlaps. Cheap where each new block overlaps few old blocks.
     */
    public static ChunkedArray direct(ChunkedArray array, Chunks target) {
        Chunks source = array.chunks();
        if (source.equals(target)) {
            return array;
        }
        source.requireKnownShape("rechunk");
        target.requireShape(source.shape());
        return intersect(array, target, Pieces.VIEWS);
    }

    /** How an intersection takes the pieces of old blocks. */
    private enum Pieces {
        /** Views of the old blocks, which the new block's task reads. */
        VIEWS,
        /** A piece smaller than its old block is a task of its own holding a copy, so its readers do not hold the old block. */
        COPIES,
        /**
         * Each piece, whole rows of a stored block, is read by the new block's task itself, in slabs
         * that decode only those rows (see {@link CreationLayer#readsInSlabs}): no old block is made
         * whole, and none is held.
         */
        READ_ROWS
    }

    /** The intersection step, its pieces taken as {@code pieces} says. */
    private static ChunkedArray intersect(ChunkedArray array, Chunks target, Pieces pieces) {
        Chunks source = array.chunks();
        int ndim = source.ndim();
        long[][] sourceOffsets = new long[ndim][];
        long[][] targetOffsets = new long[ndim][];
        for (int axis = 0; axis < ndim; axis++) {
            sourceOffsets[axis] = source.offsets(axis);
            targetOffsets[axis] = target.offsets(axis);
        }
        String name = Tokens.name(pieces == Pieces.COPIES ? "rechunk-split" : "rechunk-merge", array.name(), target);
        Map<Key, Task> tasks = new LinkedHashMap<>();
        int[][] pieceCounts = new int[ndim][];
        for (int axis = 0; axis < ndim; axis++) {
            pieceCounts[axis] = new int[target.blockCount(axis)];
            for (int block = 0; block < pieceCounts[axis].length; block++) {
                pieceCounts[axis][block] = overlapping(sourceOffsets[axis], targetOffsets[axis][block], targetOffsets[axis][block + 1]).size();
            }
        }
        BlockGrid.forEach(target.blockCounts(), index -> {
            List<List<Piece>> overlaps = new ArrayList<>(ndim);
            for (int axis = 0; axis < ndim; axis++) {
                overlaps.add(overlapping(sourceOffsets[axis], targetOffsets[axis][index[axis]], targetOffsets[axis][index[axis] + 1]));
            }
            tasks.put(Key.of(name, index), assembly(array, overlaps, new int[ndim], new long[ndim], new long[ndim], 0, pieces));
        });
        HighLevelGraph graph = Footprints.declare(array.graph().with(new MaterializedLayer(name, tasks), Set.of(array.name())), name,
                new NestedJoins(pieceCounts));
        return new ChunkedArray(graph, name, target, array.meta());
    }

    /**
     * The working memory of an intersection task: where its new block joins pieces along several
     * axes, the joins nest (outermost axis last), and every level but the outermost makes arrays
     * that together hold the block; the outermost makes the block, its result. A piece that is a
     * whole block, or a view, allocates nothing; a copied piece is the task's result. (Pieces of a
     * deferred block are written straight into the new block.)
     *
     * @param pieces per axis, per new block along it, the old blocks it overlaps
     */
    record NestedJoins(int[][] pieces) implements Working {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long bytes(Key key, long resultBytes) {
            int levels = 0;
            for (int axis = 0; axis < pieces.length; axis++) {
                int[] along = pieces[axis];
                int block = key.rank() == pieces.length ? Math.min(key.index(axis), along.length - 1) : 0;
                if (key.rank() == pieces.length ? along[block] > 1 : java.util.Arrays.stream(along).anyMatch(count -> count > 1)) {
                    levels++;
                }
            }
            return resultBytes * Math.max(0, levels - 1);
        }

        /** Pieces of deferred blocks write their parts straight into the part asked, through every level. */
        @Override
        public long partBytes(Key key, long partBytes) {
            return 0;
        }

        @Override
        public PartMaking partMaking() {
            return PartMaking.FILLED;
        }

        @Override
        public boolean asksRowParts() {
            return true;
        }
    }

    /**
     * Whether every piece of an intersection from {@code array}'s blocks to {@code target} is whole
     * rows of an old block (along every axis but the first, each new block's edges are old blocks'
     * edges) and every old block can be read in slabs: then each new block's task reads its pieces
     * itself, and a rechunk that would hold too many old blocks in one task needs no split step.
     */
    private static boolean readsRowsInSlabs(ChunkedArray array, Chunks target) {
        Chunks source = array.chunks();
        if (source.ndim() == 0) {
            return false;
        }
        for (int axis = 1; axis < source.ndim(); axis++) {
            Set<Long> edges = new java.util.HashSet<>();
            for (long offset : source.offsets(axis)) {
                edges.add(offset);
            }
            for (long offset : target.offsets(axis)) {
                if (!edges.contains(offset)) {
                    return false;
                }
            }
        }
        boolean[] readable = {true};
        BlockGrid.forEach(source.blockCounts(), index -> readable[0] &= CreationLayer.readsInSlabs(array, index.clone()));
        return readable[0];
    }

    /** The part {@code [from, from + length)} of old block {@code block} along one axis. */
    record Piece(int block, long from, long length) {
    }

    private static List<Piece> overlapping(long[] offsets, long start, long end) {
        List<Piece> pieces = new ArrayList<>();
        for (int block = 0; block < offsets.length - 1; block++) {
            long low = Math.max(start, offsets[block]);
            long high = Math.min(end, offsets[block + 1]);
            if (high > low || (start == end && offsets[block] == start && offsets[block + 1] == start)) {
                pieces.add(new Piece(block, low - offsets[block], high - low));
            }
        }
        if (pieces.isEmpty()) {
            pieces.add(new Piece(0, 0, 0));
        }
        return pieces;
    }

    /** Nested joins (outermost axis first) of the slices of the overlapped blocks. */
    private static Task assembly(ChunkedArray array, List<List<Piece>> overlaps, int[] block, long[] from, long[] length, int axis, Pieces pieces) {
        if (axis == overlaps.size()) {
            long[] blockShape = array.chunks().blockShape(block);
            boolean whole = Arrays.equals(length, blockShape);
            if (pieces == Pieces.READ_ROWS) {
                // The old block's read itself, nested here: readsRowsInSlabs found every old block readable in slabs.
                Task read = array.graph().layer(array.name()).task(array.key(block.clone()));
                return Task.call(new Slice(from.clone(), length.clone(), false), read);
            }
            return Task.call(new Slice(from.clone(), length.clone(), pieces == Pieces.COPIES && !whole), array.key(block.clone()));
        }
        List<Task> parts = new ArrayList<>();
        for (Piece piece : overlaps.get(axis)) {
            block[axis] = piece.block();
            from[axis] = piece.from();
            length[axis] = piece.length();
            parts.add(assembly(array, overlaps, block, from, length, axis + 1, pieces));
        }
        return parts.size() == 1 ? parts.getFirst() : Task.call(new Join(axis), new Task.TaskList(parts));
    }

    /**
     * Part of a block: a view, or with {@code copy} a copy that does not keep the whole block alive.
     * Of a deferred block (a random block, say) it is a deferred box, which computes only what its
     * reader asks, so a rechunk of such an array never makes an old block whole.
     */
    record Slice(long[] from, long[] length, boolean copy) implements DefersOneBlock {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            Object block = arguments.getFirst();
            long[] shape = Blocks.array(block).shape();
            for (int axis = 0; axis < from.length; axis++) {
                if (from[axis] != 0 || length[axis] != shape[axis]) {
                    block = Blocks.slice(block, axis, from[axis], 1, length[axis]);
                }
            }
            // Slices of other families are copies already; a dense view is copied so it does not keep its block alive.
            return copy && block instanceof NDArray dense ? dense.copy() : block;
        }

        @Override
        public DeferredBlock deferred(DeferredBlock block) {
            return new DeferredBox(block, from, length);
        }

        @Override
        public String displayName() {
            return copy ? "rechunk-split" : "getitem";
        }

        /** A view costs nothing: readers may take it themselves. A copy is a task of its own. */
        @Override
        public boolean isCheap() {
            return !copy;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Slice slice && Arrays.equals(from, slice.from) && Arrays.equals(length, slice.length) && copy == slice.copy;
        }

        @Override
        public int hashCode() {
            return (Arrays.hashCode(from) * 31 + Arrays.hashCode(length)) * 2 + (copy ? 1 : 0);
        }
    }

    /**
     * Concatenates pieces along one axis (also the slicing package's joins of block parts). Dense
     * pieces among which some are deferred join into a deferred block, whose part asks each piece
     * only for what falls inside it.
     */
    public record Join(int axis) implements TaskFunction, ReadsDeferredBlocks {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            return Blocks.concatenate((List<?>) arguments.getFirst(), axis);
        }

        @Override
        public Object applyDeferring(List<Object> arguments) throws Exception {
            List<?> pieces = (List<?>) arguments.getFirst();
            if (!DeferredBlock.anyDeferred(List.copyOf(pieces))) {
                return apply(arguments);
            }
            if (!pieces.stream().allMatch(piece -> piece instanceof DeferredBlock || piece instanceof NDArray)) {
                List<Object> forced = new ArrayList<>(pieces.size());
                for (Object piece : pieces) {
                    forced.add(piece instanceof DeferredBlock deferred ? deferred.force() : piece);
                }
                return apply(List.of(forced));
            }
            return new DeferredJoin(axis, List.copyOf(pieces));
        }

        @Override
        public boolean defersCheaply() {
            return true;
        }

        @Override
        public String displayName() {
            return "concatenate";
        }
    }

    /** The box of a deferred block from {@code from} with shape {@code length}, itself deferred. */
    record DeferredBox(DeferredBlock block, long[] from, long[] length) implements DeferredBlock {
        @Override
        public long[] shape() {
            return length.clone();
        }

        @Override
        public NDArray part(long[] start, long[] shape) throws Exception {
            return block.part(within(start), shape);
        }

        @Override
        public void partInto(long[] start, NDArray target) throws Exception {
            block.partInto(within(start), target);
        }

        private long[] within(long[] start) {
            long[] within = new long[start.length];
            for (int axis = 0; axis < start.length; axis++) {
                within[axis] = from[axis] + start[axis];
            }
            return within;
        }
    }

    /**
     * Dense and deferred pieces joined along {@code axis}, not computed until a part is asked; each
     * piece then writes its share straight into the part, so joins of joins copy nothing twice.
     */
    record DeferredJoin(int axis, List<Object> pieces) implements DeferredBlock {
        @Override
        public long[] shape() {
            long[] shape = DeferredBlock.shapeOf(pieces.getFirst()).clone();
            shape[axis] = pieces.stream().mapToLong(piece -> DeferredBlock.shapeOf(piece)[axis]).sum();
            return shape;
        }

        @Override
        public NDArray part(long[] start, long[] shape) throws Exception {
            // An empty box of the first piece gives the dtype without computing anything.
            int ndim = shape.length;
            NDArray part = NDArray.empty(((NDArray) DeferredBlock.cut(pieces.getFirst(), ndim, new long[ndim], new long[ndim])).dtype(), shape);
            partInto(start, part);
            return part;
        }

        @Override
        public void partInto(long[] start, NDArray target) throws Exception {
            long end = start[axis] + target.shape(axis);
            long offset = 0;
            for (Object piece : pieces) {
                long length = DeferredBlock.shapeOf(piece)[axis];
                long low = Math.max(start[axis], offset);
                long high = Math.min(end, offset + length);
                if (high > low) {
                    long[] pieceStart = start.clone();
                    pieceStart[axis] = low - offset;
                    write(piece, pieceStart, target.slice(axis, low - start[axis], 1, high - low));
                }
                offset += length;
            }
        }

        private static void write(Object piece, long[] start, NDArray target) throws Exception {
            if (piece instanceof DeferredBlock deferred) {
                deferred.partInto(start, target);
            } else {
                target.assign((NDArray) DeferredBlock.cut(piece, target.ndim(), start, target.shape()));
            }
        }
    }
}
