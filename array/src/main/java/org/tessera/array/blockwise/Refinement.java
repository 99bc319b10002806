package org.tessera.array.blockwise;

import java.io.Serial;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.BlockGrid;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.Chunks;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.NDArray;

/**
 * A rechunk that only splits blocks: every new boundary already is, or falls inside, an old block,
 * so each new block is a view of one old block. Chunk unification needs no more than this.
 */
public final class Refinement {
    private Refinement() {
    }

    /** {@code array} in the finer {@code target} chunks (which must split, never merge, its blocks). */
    public static ChunkedArray refine(ChunkedArray array, Chunks target) {
        if (array.chunks().equals(target)) {
            return array;
        }
        Chunks source = array.chunks();
        int ndim = source.ndim();
        int[][] sourceBlock = new int[ndim][];
        long[][] startInBlock = new long[ndim][];
        for (int axis = 0; axis < ndim; axis++) {
            long[] oldOffsets = source.offsets(axis);
            long[] newOffsets = target.offsets(axis);
            if (oldOffsets[oldOffsets.length - 1] != newOffsets[newOffsets.length - 1]) {
                throw new IllegalArgumentException("cannot refine chunks " + source + " into " + target + ": axis " + axis + " lengths differ");
            }
            sourceBlock[axis] = new int[target.blockCount(axis)];
            startInBlock[axis] = new long[target.blockCount(axis)];
            int old = 0;
            for (int block = 0; block < target.blockCount(axis); block++) {
                while (old < source.blockCount(axis) - 1 && newOffsets[block] >= oldOffsets[old + 1]) {
                    old++;
                }
                if (newOffsets[block + 1] > oldOffsets[old + 1]) {
                    throw new IllegalArgumentException("cannot refine chunks " + source + " into " + target + ": block " + block
                            + " of axis " + axis + " spans two old blocks");
                }
                sourceBlock[axis][block] = old;
                startInBlock[axis][block] = newOffsets[block] - oldOffsets[old];
            }
        }
        String name = Tokens.name("refine", array.name(), target);
        Map<Key, Task> tasks = new LinkedHashMap<>();
        BlockGrid.forEach(target.blockCounts(), index -> {
            int[] old = new int[ndim];
            long[] start = new long[ndim];
            for (int axis = 0; axis < ndim; axis++) {
                old[axis] = sourceBlock[axis][index[axis]];
                start[axis] = startInBlock[axis][index[axis]];
            }
            boolean whole = Arrays.equals(source.blockShape(old), target.blockShape(index));
            tasks.put(Key.of(name, index), whole ? Task.ref(array.key(old)) : Task.call(new Region(start, target.blockShape(index)), array.key(old)));
        });
        return new ChunkedArray(array.graph().with(new MaterializedLayer(name, tasks), Set.of(array.name())), name, target, array.meta());
    }

    /** The view {@code [start, start + shape)} of a block. */
    record Region(long[] start, long[] shape) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            NDArray block = (NDArray) arguments.getFirst();
            for (int axis = 0; axis < start.length; axis++) {
                block = block.slice(axis, start[axis], 1, shape[axis]);
            }
            return block;
        }

        @Override
        public String displayName() {
            return "getitem";
        }

        @Override
        public boolean isCheap() {
            return true;
        }
    }
}
