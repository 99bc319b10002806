package org.tessera.array;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.graph.optimize.Optimization;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayFamilies;
import org.tessera.ndarray.NDArray;

/**
 * Single blocks of a chunked array without computing the others: Dask's {@code x.blocks[i, j]} as
 * a lazy one-block array, and an iterator that computes one block per step.
 */
final class BlockAccess {
    private BlockAccess() {
    }

    /**
     * The block at {@code index} (negative positions count from the end of the grid) as a
     * one-block array whose only task refers to the block's key in {@code array}'s graph.
     */
    static ChunkedArray single(ChunkedArray array, int[] index) {
        int[] position = normalized(array, index);
        String name = Tokens.name("blocks", array.name(), position);
        Chunks chunks = array.chunks();
        long[][] lengths = new long[array.ndim()][];
        for (int axis = 0; axis < lengths.length; axis++) {
            lengths[axis] = new long[] {chunks.length(axis, position[axis])};
        }
        Map<Key, Task> tasks = Map.of(Key.of(name, new int[array.ndim()]), Task.ref(array.key(position)));
        // The block itself, under another key: nothing is allocated.
        HighLevelGraph graph = Footprints.declare(array.graph().with(new MaterializedLayer(name, tasks), Set.of(array.name())), name, Working.none());
        return new ChunkedArray(graph, name, Chunks.of(lengths), array.meta());
    }

    private static int[] normalized(ChunkedArray array, int[] index) {
        int[] counts = array.numBlocks();
        if (index.length != counts.length) {
            throw new IllegalArgumentException("block index " + Arrays.toString(index) + " has " + index.length + " positions for an array of "
                    + counts.length + " axes (block grid " + Arrays.toString(counts) + ")");
        }
        int[] position = new int[index.length];
        for (int axis = 0; axis < index.length; axis++) {
            position[axis] = index[axis] < 0 ? index[axis] + counts[axis] : index[axis];
            if (position[axis] < 0 || position[axis] >= counts[axis]) {
                throw new IndexOutOfBoundsException("block index " + Arrays.toString(index) + ": position " + index[axis] + " on axis " + axis
                        + " is outside the block grid " + Arrays.toString(counts));
            }
        }
        return position;
    }

    /**
     * The blocks in C order of the block grid, each computed by {@code scheduler} only when asked
     * for; the graph is culled to that block's dependencies, so a step costs one block's work.
     */
    static Iterator<NDArray> iterator(ChunkedArray array, Scheduler scheduler) {
        int[] counts = array.numBlocks();
        long total = array.chunks().totalBlocks();
        return new Iterator<>() {
            private final int[] index = new int[counts.length];
            private long returned;

            @Override
            public boolean hasNext() {
                return returned < total;
            }

            @Override
            public NDArray next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("all " + total + " blocks of " + array.name() + " (block grid " + Arrays.toString(counts)
                            + ") have been returned");
                }
                Key key = array.key(index);
                Object value = scheduler.compute(Optimization.optimize(array.graph(), List.of(key)), List.of(key)).get(key);
                if (!(value instanceof AnyArray<?> block)) {
                    throw new IllegalStateException("block " + key + " computed to " + (value == null ? "nothing" : value.getClass().getName())
                            + ", not an array of any family");
                }
                advance();
                // Blocks of another family (sparse, ...) are handed out densified, as compute() does.
                return block instanceof NDArray dense ? dense : ArrayFamilies.toDense(block);
            }

            /** The next index in C order: the last axis moves fastest. */
            private void advance() {
                returned++;
                for (int axis = counts.length - 1; axis >= 0; axis--) {
                    if (++index[axis] < counts[axis]) {
                        return;
                    }
                    index[axis] = 0;
                }
            }
        };
    }
}
