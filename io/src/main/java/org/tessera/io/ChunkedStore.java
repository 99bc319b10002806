package org.tessera.io;

import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.CreationLayer;
import org.tessera.array.creation.StoredChunks;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.PlanObservers;
import org.tessera.array.plan.Working;
import org.tessera.graph.Deferred;
import org.tessera.graph.Deferring;
import org.tessera.graph.Key;
import org.tessera.graph.Scoping;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.layer.BlockwiseArgument;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.optimize.Optimization;
import org.tessera.graph.schedule.Computation;
import org.tessera.graph.schedule.ExecutionStatistics;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.memory.Scratch;

/**
 * Writes a chunked array into a {@link ChunkSink} block by block, as Dask's {@code store}.
 *
 * <p>Policy: every chunk of the sink is written once, whole, and atomically. When each block of
 * the array covers whole chunks of the sink (its block boundaries are chunk boundaries), a task
 * writes the chunks of one block and no locks are needed. Otherwise, by default, regions are
 * locked ({@link StoreOptions.Misaligned#LOCK_REGIONS}): each block task writes the chunks inside
 * it and hands its parts of the chunks it shares with other blocks to a {@link ChunkAssembly},
 * which gathers a shared chunk under its lock and gives it back whole to the task that brings its
 * last part, which writes it. Gathered chunks wait in memory: only those straddling the boundary
 * between stored and unstored blocks, about one row of chunks when blocks are stored in order, and
 * the report gives their peak. With {@link StoreOptions.Misaligned#RECHUNK}, or with a scheduler
 * that may run tasks in other processes, the array is first rechunked to the sink's chunks (the
 * array module's rechunk, which bounds each task's memory), so that blocks and chunks coincide.
 * Memory is otherwise what the scheduler holds: the blocks being computed and written, freed as
 * soon as their writing task ran; a ThreadedScheduler's memory budget bounds it.
 *
 * <p>Resume: chunk writes are atomic, so a chunk present in the sink is complete. With
 * {@link StoreOptions#resume()}, tasks whose chunks are all present are culled before anything is
 * computed (their source blocks are not even read), and the others skip the chunks present.
 *
 * <p>Example: an array of shape (100, 100) in blocks of (50, 50) stored into chunks of (25, 25)
 * runs 4 tasks of 4 chunks each; into chunks of (40, 40), its 4 tasks write the 9 chunks, the
 * 5 chunks that cross the middle lines gathered from 2 or 4 blocks each; rechunked instead, the
 * array is cut to blocks of (40, 40) first, and 9 tasks write one chunk each.
 */
public final class ChunkedStore {
    private ChunkedStore() {
    }

    public static StoreReport store(ChunkedArray array, ChunkSink sink) throws IOException {
        return store(array, sink, StoreOptions.defaults());
    }

    /**
     * Computes {@code array} and writes it into {@code sink}, cast to the sink's dtype as NumPy's
     * assignment casts.
     *
     * @throws IllegalArgumentException when the shapes differ (naming both)
     * @throws org.tessera.graph.schedule.TaskFailedException when a block failed to compute or write;
     *         chunks written before it stay complete, and a later resume writes the rest
     */
    public static StoreReport store(ChunkedArray array, ChunkSink sink, StoreOptions options) throws IOException {
        long[] shape = array.chunks().requireKnownShape("store");
        if (!Arrays.equals(shape, sink.shape())) {
            throw new IllegalArgumentException("cannot store an array of shape " + Arrays.toString(shape) + " into " + sink.describe()
                    + " of shape " + Arrays.toString(sink.shape()));
        }
        if (Arrays.stream(shape).anyMatch(length -> length == 0)) {
            return new StoreReport(0, 0, 0, false, null, 0);
        }
        ChunkedArray source = array.dtype() == sink.dtype() ? array : array.astype(sink.dtype());
        long[] chunkShape = sink.chunkShape();
        boolean aligned = coversWholeChunks(source.chunks(), chunkShape);
        boolean rechunked = !aligned && (options.misaligned() == StoreOptions.Misaligned.RECHUNK || !options.scheduler().runsTasksInThisProcess());
        if (rechunked) {
            source = source.rechunk(Chunks.regular(shape, chunkShape));
        }
        ChunkAssembly assembly = aligned || rechunked ? null : new ChunkAssembly(sink.dtype());

        Chunks chunks = source.chunks();
        int ndim = chunks.ndim();
        String letters = CreationLayer.AXIS_LETTERS.substring(0, ndim);
        Map<Character, Integer> counts = new HashMap<>();
        for (int axis = 0; axis < ndim; axis++) {
            counts.put(letters.charAt(axis), chunks.blockCount(axis));
        }
        String name = Tokens.name("store", source.name(), sink.describe(), options.resume());
        WriteBlock write = new WriteBlock(sink, chunks, chunkShape, options.resume(), assembly);
        BlockwiseLayer layer = new BlockwiseLayer(name, letters, write,
                List.of(BlockwiseArgument.blockIndex(letters), BlockwiseArgument.blocks(source.name(), letters, chunks.blockCounts())), counts, null);

        List<Key> keys = new ArrayList<>();
        int[] block = new int[ndim];
        int[] blockCounts = chunks.blockCounts();
        long skippedBeforeRunning = 0;
        do {
            if (options.resume()) {
                long missing = write.missingChunks(block);
                if (missing == 0) {
                    skippedBeforeRunning += write.ownedChunkCount(block);
                    continue;
                }
            }
            keys.add(Key.of(name, block.clone()));
        } while (nextIndex(block, blockCounts));
        if (keys.isEmpty()) {
            return new StoreReport(0, skippedBeforeRunning, 0, rechunked, null, 0);
        }

        // A task writes its block's chunks and returns a small record; a chunk it shares with other blocks is gathered whole first.
        HighLevelGraph layered = Footprints.writing(source.graph().with(layer, Set.of(source.name())), name, chunks, sink.dtype(),
                assembly == null ? Working.none() : StoredChunks.assembling(chunks, chunkShape, sink.dtype().byteSize()));
        PlanObservers.computing(layered, keys, options.scheduler() instanceof ThreadedScheduler threaded ? threaded.workers()
                : Runtime.getRuntime().availableProcessors());
        TaskGraph graph = Optimization.optimize(layered, keys);
        Map<Key, Object> results;
        ExecutionStatistics statistics = null;
        if (options.scheduler() instanceof ThreadedScheduler threaded) {
            Computation computation = threaded.run(graph, keys);
            results = computation.results();
            statistics = computation.statistics();
        } else {
            results = options.scheduler().compute(graph, keys);
        }
        if (assembly != null) {
            assembly.requireComplete(sink.describe());
        }
        long written = 0;
        long skipped = skippedBeforeRunning;
        for (Key key : keys) {
            BlockWritten outcome = (BlockWritten) results.get(key);
            written += outcome.chunksWritten();
            skipped += outcome.chunksSkipped();
        }
        return new StoreReport(written, skipped, keys.size(), rechunked, statistics, assembly == null ? 0 : assembly.peakPendingBytes());
    }

    /** Whether every block boundary of {@code chunks} is a multiple of the chunk shape, so each block holds whole chunks. */
    static boolean coversWholeChunks(Chunks chunks, long[] chunkShape) {
        for (int axis = 0; axis < chunks.ndim(); axis++) {
            long[] offsets = chunks.offsets(axis);
            for (long offset : offsets) {
                if (offset % chunkShape[axis] != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean nextIndex(int[] index, int[] counts) {
        for (int axis = index.length - 1; axis >= 0; axis--) {
            if (++index[axis] < counts[axis]) {
                return true;
            }
            index[axis] = 0;
        }
        return false;
    }

    /** The result of one writing task: small, so that holding every task's result costs nothing. */
    public record BlockWritten(int chunksWritten, int chunksSkipped) implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    /**
     * The writing task: the chunks of the sink that one block of the array overlaps. Chunks inside
     * the block are written from it; parts of chunks it shares with other blocks go to the
     * assembly (null when blocks cover whole chunks), and the chunk is written by whichever task
     * completes it.
     */
    record WriteBlock(ChunkSink sink, Chunks chunks, long[] chunkShape, boolean resume, ChunkAssembly assembly)
            implements TaskFunction, Deferring, Scoping {
        @Serial
        private static final long serialVersionUID = 1L;

        /** The block may come deferred (a generated block): it is then made here, in the task's scratch. */
        @Override
        public boolean acceptsDeferred(int position) {
            return position == 1;
        }

        @Override
        public Object applyDeferring(List<Object> arguments) throws Exception {
            List<Object> forced = new ArrayList<>(arguments);
            forced.set(1, Deferred.force(arguments.get(1)));
            return apply(forced);
        }

        /**
         * The whole task in scratch memory: a block made here (and an edge chunk padded with the fill
         * value) lives only until its chunks are encoded, so the next task reuses its memory, where a
         * fresh 32 MB array per block was zeroed, placed whole by the collector and left to it (W3).
         * Only the parts of shared chunks outlive the task, in the assembly, allocated outside.
         */
        @Override
        public Object scope(Callable<Object> task) throws Exception {
            Scratch scratch = Scratch.borrow();
            try {
                return scratch.callForTask(task);
            } finally {
                scratch.giveBack();
            }
        }

        @Override
        public Object apply(List<Object> arguments) throws Exception {
            int[] blockIndex = (int[]) arguments.get(0);
            if (!(arguments.get(1) instanceof NDArray block)) {
                throw new IllegalStateException("block " + Arrays.toString(blockIndex) + " to store into " + sink.describe() + " computed to "
                        + arguments.get(1) + ", not an NDArray");
            }
            int ndim = blockIndex.length;
            long[] blockStart = chunks.blockStart(blockIndex);
            long[] blockShape = chunks.blockShape(blockIndex);
            int[] first = new int[ndim];
            int[] span = new int[ndim];
            chunkRange(blockIndex, first, span);
            int written = 0;
            int skipped = 0;
            int[] step = new int[ndim];
            do {
                int[] chunkIndex = new int[ndim];
                long[] insideShape = new long[ndim];
                long[] offsetInChunk = new long[ndim];
                boolean whole = true;
                NDArray part = block;
                for (int axis = 0; axis < ndim; axis++) {
                    chunkIndex[axis] = first[axis] + step[axis];
                    long chunkStart = chunkIndex[axis] * chunkShape[axis];
                    insideShape[axis] = Math.min(chunkShape[axis], sink.shape()[axis] - chunkStart);
                    long overlapStart = Math.max(chunkStart, blockStart[axis]);
                    long overlapEnd = Math.min(chunkStart + insideShape[axis], blockStart[axis] + blockShape[axis]);
                    offsetInChunk[axis] = overlapStart - chunkStart;
                    whole &= overlapStart == chunkStart && overlapEnd == chunkStart + insideShape[axis];
                    part = part.slice(axis, overlapStart - blockStart[axis], 1, overlapEnd - overlapStart);
                }
                if (resume && sink.hasChunk(chunkIndex)) {
                    skipped += ownsChunk(chunkIndex, blockStart) ? 1 : 0;
                    continue;
                }
                NDArray shared = part;
                NDArray chunk = whole ? part : Scratch.outside(() -> assembly.add(chunkIndex, insideShape, offsetInChunk, shared));
                if (chunk != null) {
                    sink.writeChunk(chunkIndex, chunk);
                    written++;
                }
            } while (nextIndex(step, span));
            return new BlockWritten(written, skipped);
        }

        /** The block that holds a chunk's first element owns it: it alone counts the chunk as skipped. */
        private boolean ownsChunk(int[] chunkIndex, long[] blockStart) {
            for (int axis = 0; axis < chunkIndex.length; axis++) {
                if (chunkIndex[axis] * chunkShape[axis] < blockStart[axis]) {
                    return false;
                }
            }
            return true;
        }

        /** The first chunk and the number of chunks per axis that block {@code blockIndex} overlaps. */
        private void chunkRange(int[] blockIndex, int[] first, int[] span) {
            long[] start = chunks.blockStart(blockIndex);
            long[] shape = chunks.blockShape(blockIndex);
            for (int axis = 0; axis < blockIndex.length; axis++) {
                first[axis] = Math.toIntExact(start[axis] / chunkShape[axis]);
                span[axis] = Math.toIntExact((start[axis] + shape[axis] + chunkShape[axis] - 1) / chunkShape[axis]) - first[axis];
            }
        }

        /** The chunks whose first element lies in block {@code blockIndex}. */
        long ownedChunkCount(int[] blockIndex) {
            long[] start = chunks.blockStart(blockIndex);
            long[] shape = chunks.blockShape(blockIndex);
            long count = 1;
            for (int axis = 0; axis < blockIndex.length; axis++) {
                long firstOwned = (start[axis] + chunkShape[axis] - 1) / chunkShape[axis];
                long endOwned = (start[axis] + shape[axis] + chunkShape[axis] - 1) / chunkShape[axis];
                count *= endOwned - firstOwned;
            }
            return count;
        }

        long missingChunks(int[] blockIndex) throws IOException {
            int[] first = new int[blockIndex.length];
            int[] span = new int[blockIndex.length];
            chunkRange(blockIndex, first, span);
            long missing = 0;
            int[] step = new int[blockIndex.length];
            do {
                int[] chunkIndex = new int[blockIndex.length];
                for (int axis = 0; axis < blockIndex.length; axis++) {
                    chunkIndex[axis] = first[axis] + step[axis];
                }
                if (!sink.hasChunk(chunkIndex)) {
                    missing++;
                }
            } while (nextIndex(step, span));
            return missing;
        }

        @Override
        public String displayName() {
            return "store";
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof WriteBlock that && sink.equals(that.sink) && chunks.equals(that.chunks) && Arrays.equals(chunkShape, that.chunkShape)
                    && resume == that.resume && assembly == that.assembly;
        }

        @Override
        public int hashCode() {
            return sink.hashCode() * 31 + chunks.hashCode();
        }

        @Override
        public String toString() {
            return "WriteBlock[" + sink.describe() + ", chunks=" + Arrays.toString(chunkShape) + ", resume=" + resume + "]";
        }
    }
}
