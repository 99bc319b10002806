package org.tessera.array.rechunk;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.BlockGrid;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.ChunkNormalization;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.join.Joining;

/**
 * Rechunking by intersection: every new block is assembled from the pieces of the old blocks it
 * overlaps, in one step. This is Dask's direct rechunk; it suits changes where each new block
 * overlaps few old ones. (Planning intermediate chunkings under a memory limit, for transposing
 * rechunks, is a separate planner.)
 */
public final class Rechunk {
    private Rechunk() {
    }

    /**
     * Rechunks to chunks written in any form Dask's {@code rechunk} accepts; "auto" axes grow or
     * shrink from the current blocks, as Dask passes the previous chunks to its normalisation.
     */
    public static ChunkedArray rechunk(ChunkedArray array, ChunkSpec spec) {
        Chunks source = array.chunks();
        long[][] previous = new long[source.ndim()][];
        for (int axis = 0; axis < previous.length; axis++) {
            previous[axis] = source.axis(axis);
        }
        return rechunk(array, ChunkNormalization.normalize(spec, source.requireKnownShape("rechunk"), null, array.dtype(), previous));
    }

    public static ChunkedArray rechunk(ChunkedArray array, Chunks target) {
        Chunks source = array.chunks();
        if (source.equals(target)) {
            return array;
        }
        source.requireKnownShape("rechunk");
        target.requireShape(source.shape());
        int ndim = source.ndim();
        long[][] sourceOffsets = new long[ndim][];
        long[][] targetOffsets = new long[ndim][];
        for (int axis = 0; axis < ndim; axis++) {
            sourceOffsets[axis] = source.offsets(axis);
            targetOffsets[axis] = target.offsets(axis);
        }
        String name = Tokens.name("rechunk-merge", array.name(), target);
        Map<Key, Task> tasks = new LinkedHashMap<>();
        BlockGrid.forEach(target.blockCounts(), index -> {
            List<List<Piece>> overlaps = new ArrayList<>(ndim);
            for (int axis = 0; axis < ndim; axis++) {
                overlaps.add(overlapping(sourceOffsets[axis], targetOffsets[axis][index[axis]], targetOffsets[axis][index[axis] + 1]));
            }
            tasks.put(Key.of(name, index), assembly(array, overlaps, new int[ndim], new long[ndim], new long[ndim], 0));
        });
        return new ChunkedArray(array.graph().with(new MaterializedLayer(name, tasks), Set.of(array.name())), name, target, array.meta());
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
    private static Task assembly(ChunkedArray array, List<List<Piece>> overlaps, int[] block, long[] from, long[] length, int axis) {
        if (axis == overlaps.size()) {
            return Task.call(new Slice(from.clone(), length.clone()), array.key(block.clone()));
        }
        List<Task> parts = new ArrayList<>();
        for (Piece piece : overlaps.get(axis)) {
            block[axis] = piece.block();
            from[axis] = piece.from();
            length[axis] = piece.length();
            parts.add(assembly(array, overlaps, block, from, length, axis + 1));
        }
        return parts.size() == 1 ? parts.getFirst() : Task.call(new Join(axis), new Task.TaskList(parts));
    }

    /** A view of part of a block. */
    record Slice(long[] from, long[] length) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            NDArray block = (NDArray) arguments.getFirst();
            for (int axis = 0; axis < from.length; axis++) {
                if (from[axis] != 0 || length[axis] != block.shape(axis)) {
                    block = block.slice(axis, from[axis], 1, length[axis]);
                }
            }
            return block;
        }

        @Override
        public String displayName() {
            return "getitem";
        }

        /** A view costs nothing: readers may take it themselves. */
        @Override
        public boolean isCheap() {
            return true;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Slice slice && Arrays.equals(from, slice.from) && Arrays.equals(length, slice.length);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(from) * 31 + Arrays.hashCode(length);
        }
    }

    /** Concatenates pieces along one axis. */
    record Join(int axis) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        @SuppressWarnings("unchecked")
        public Object apply(List<Object> arguments) {
            return Joining.concatenate((List<NDArray>) (List<?>) arguments.getFirst(), axis);
        }

        @Override
        public String displayName() {
            return "concatenate";
        }
    }
}
