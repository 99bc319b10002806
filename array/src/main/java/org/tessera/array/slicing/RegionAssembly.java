package org.tessera.array.slicing;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.rechunk.Rechunk;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.ndarray.NDArray;

/**
 * A task that assembles one rectangular region of a chunked array from the blocks it overlaps:
 * views of the overlapped parts, joined axis by axis. It is how an assignment reads the part of a
 * chunked value that one block of the target needs.
 */
final class RegionAssembly {
    private RegionAssembly() {
    }

    /** The region {@code [start, stop)} of {@code array} (known chunks; every extent at least 1). */
    static Task region(ChunkedArray array, long[] start, long[] stop) {
        List<List<long[]>> overlaps = new ArrayList<>(array.ndim());
        for (int axis = 0; axis < array.ndim(); axis++) {
            overlaps.add(overlapping(PointGather.offsets(array.chunks().axis(axis)), start[axis], stop[axis]));
        }
        return assemble(array, overlaps, new int[array.ndim()], new long[array.ndim()], new long[array.ndim()], 0);
    }

    /** The blocks overlapping {@code [start, stop)}, each as {block, first element in it, length}. */
    private static List<long[]> overlapping(long[] offsets, long start, long stop) {
        List<long[]> pieces = new ArrayList<>();
        for (int block = 0; block < offsets.length - 1; block++) {
            long low = Math.max(start, offsets[block]);
            long high = Math.min(stop, offsets[block + 1]);
            if (high > low) {
                pieces.add(new long[] {block, low - offsets[block], high - low});
            }
        }
        return pieces;
    }

    private static Task assemble(ChunkedArray array, List<List<long[]>> overlaps, int[] block, long[] from, long[] length, int axis) {
        if (axis == overlaps.size()) {
            return Task.call(new Part(from.clone(), length.clone()), array.key(block.clone()));
        }
        List<Task> parts = new ArrayList<>();
        for (long[] piece : overlaps.get(axis)) {
            block[axis] = (int) piece[0];
            from[axis] = piece[1];
            length[axis] = piece[2];
            parts.add(assemble(array, overlaps, block, from, length, axis + 1));
        }
        return parts.size() == 1 ? parts.getFirst() : Task.call(new Rechunk.Join(axis), new Task.TaskList(parts));
    }

    /** A view of part of a block. */
    record Part(long[] from, long[] length) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            NDArray block = Blocks.dense(arguments.getFirst(), "region assembly");
            for (int axis = 0; axis < from.length; axis++) {
                if (from[axis] != 0 || length[axis] != block.shape(axis)) {
                    block = block.slice(axis, from[axis], 1, length[axis]);
                }
            }
            return block;
        }

        @Override
        public boolean isCheap() {
            return true;
        }

        @Override
        public String displayName() {
            return "getitem";
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Part part && Arrays.equals(from, part.from) && Arrays.equals(length, part.length);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(from) * 31 + Arrays.hashCode(length);
        }
    }

}
