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

import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.CreationLayer;
import org.tessera.graph.Key;
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

/**
 * Writes a chunked array into a {@link ChunkSink} block by block, as Dask's {@code store}.
 *
 * <p>Policy: every chunk of the sink is written by exactly one task, and no task waits for
 * another's chunk, so no locks are needed and a chunk is never half-written by two writers. When
 * each block of the array covers whole chunks of the sink (its block boundaries are chunk
 * boundaries), a task writes the chunks of one block. Otherwise the array is first rechunked to the
 * sink's chunks (the array module's rechunk, which bounds each task's memory), so that blocks and
 * chunks coincide. Memory is then what the scheduler holds: the blocks being computed and written,
 * freed as soon as their writing task ran; a ThreadedScheduler's memory budget bounds it.
 *
 * <p>Resume: chunk writes are atomic, so a chunk present in the sink is complete. With
 * {@link StoreOptions#resume()}, tasks whose chunks are all present are culled before anything is
 * computed (their source blocks are not even read), and the others skip the chunks present.
 *
 * <p>Example: an array of shape (100, 100) in blocks of (50, 50) stored into chunks of (25, 25)
 * runs 4 tasks of 4 chunks each; into chunks of (40, 40) it is rechunked to blocks of (40, 40)
 * first, and 9 tasks write one chunk each.
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
            return new StoreReport(0, 0, 0, false, null);
        }
        ChunkedArray source = array.dtype() == sink.dtype() ? array : array.astype(sink.dtype());
        long[] chunkShape = sink.chunkShape();
        boolean rechunked = !coversWholeChunks(source.chunks(), chunkShape);
        if (rechunked) {
            source = source.rechunk(Chunks.regular(shape, chunkShape));
        }

        Chunks chunks = source.chunks();
        int ndim = chunks.ndim();
        String letters = CreationLayer.AXIS_LETTERS.substring(0, ndim);
        Map<Character, Integer> counts = new HashMap<>();
        for (int axis = 0; axis < ndim; axis++) {
            counts.put(letters.charAt(axis), chunks.blockCount(axis));
        }
        String name = Tokens.name("store", source.name(), sink.describe(), options.resume());
        WriteBlock write = new WriteBlock(sink, chunks, chunkShape, options.resume());
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
                    skippedBeforeRunning += write.chunkCount(block);
                    continue;
                }
            }
            keys.add(Key.of(name, block.clone()));
        } while (nextIndex(block, blockCounts));
        if (keys.isEmpty()) {
            return new StoreReport(0, skippedBeforeRunning, 0, rechunked, null);
        }

        TaskGraph graph = Optimization.optimize(source.graph().with(layer, Set.of(source.name())), keys);
        Map<Key, Object> results;
        ExecutionStatistics statistics = null;
        if (options.scheduler() instanceof ThreadedScheduler threaded) {
            Computation computation = threaded.run(graph, keys);
            results = computation.results();
            statistics = computation.statistics();
        } else {
            results = options.scheduler().compute(graph, keys);
        }
        long written = 0;
        long skipped = skippedBeforeRunning;
        for (Key key : keys) {
            BlockWritten outcome = (BlockWritten) results.get(key);
            written += outcome.chunksWritten();
            skipped += outcome.chunksSkipped();
        }
        return new StoreReport(written, skipped, keys.size(), rechunked, statistics);
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

    /** The writing task: the chunks of the sink inside one block of the array. */
    record WriteBlock(ChunkSink sink, Chunks chunks, long[] chunkShape, boolean resume) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) throws IOException {
            int[] blockIndex = (int[]) arguments.get(0);
            if (!(arguments.get(1) instanceof NDArray block)) {
                throw new IllegalStateException("block " + Arrays.toString(blockIndex) + " to store into " + sink.describe() + " computed to "
                        + arguments.get(1) + ", not an NDArray");
            }
            long[] blockStart = chunks.blockStart(blockIndex);
            int[] first = new int[blockIndex.length];
            int[] span = new int[blockIndex.length];
            chunkRange(blockIndex, first, span);
            int written = 0;
            int skipped = 0;
            int[] step = new int[blockIndex.length];
            do {
                int[] chunkIndex = new int[blockIndex.length];
                NDArray values = block;
                for (int axis = 0; axis < blockIndex.length; axis++) {
                    chunkIndex[axis] = first[axis] + step[axis];
                    long chunkStart = chunkIndex[axis] * chunkShape[axis];
                    long length = Math.min(chunkShape[axis], sink.shape()[axis] - chunkStart);
                    values = values.slice(axis, chunkStart - blockStart[axis], 1, length);
                }
                if (resume && sink.hasChunk(chunkIndex)) {
                    skipped++;
                } else {
                    sink.writeChunk(chunkIndex, values);
                    written++;
                }
            } while (nextIndex(step, span));
            return new BlockWritten(written, skipped);
        }

        /** The first chunk and the number of chunks per axis inside block {@code blockIndex}. */
        private void chunkRange(int[] blockIndex, int[] first, int[] span) {
            long[] start = chunks.blockStart(blockIndex);
            long[] shape = chunks.blockShape(blockIndex);
            for (int axis = 0; axis < blockIndex.length; axis++) {
                first[axis] = Math.toIntExact(start[axis] / chunkShape[axis]);
                span[axis] = Math.toIntExact((start[axis] + shape[axis] + chunkShape[axis] - 1) / chunkShape[axis]) - first[axis];
            }
        }

        long chunkCount(int[] blockIndex) {
            int[] first = new int[blockIndex.length];
            int[] span = new int[blockIndex.length];
            chunkRange(blockIndex, first, span);
            long count = 1;
            for (int length : span) {
                count *= length;
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
                    && resume == that.resume;
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
