package org.tessera.array.reshape;

import java.io.Serial;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Metas;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.array.rechunk.Rechunk;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.layout.Order;
import org.tessera.ndarray.layout.Shapes;

/**
 * Reshapes of chunked arrays with Dask's output chunks: the array is rechunked as
 * {@link ReshapeChunks} says (only where axes merge or split), then block k of the result is block k
 * of the rechunked array reshaped, one task per block. A reshape that neither merges nor splits
 * axes evenly ((4, 6) to (3, 8), which Dask refuses) goes through the flat array: two reshapes
 * Dask's rule can do. Order F reads and writes elements with the first index fastest, which is the
 * C-order reshape of the transposed array, transposed back.
 */
public final class Reshape {
    private Reshape() {
    }

    /** The same elements in C order with {@code newShape} (one length may be -1). */
    public static ChunkedArray reshape(ChunkedArray array, long... newShape) {
        return reshape(array, Order.C, newShape);
    }

    public static ChunkedArray reshape(ChunkedArray array, Order order, long... newShape) {
        if (order == Order.F) {
            long[] reversed = new long[newShape.length];
            for (int axis = 0; axis < newShape.length; axis++) {
                reversed[axis] = newShape[newShape.length - 1 - axis];
            }
            return Transpose.transpose(reshape(Transpose.transpose(array), Order.C, reversed));
        }
        if (order != Order.C) {
            throw new IllegalArgumentException("reshape of " + array + " in order " + order + ": only C and F are supported");
        }
        if (newShape.length == 1 && newShape[0] == -1 && array.ndim() == 1) {
            // Dask's fast path: a 1-D array is its own ravel, even with unknown block lengths.
            return array;
        }
        long[] shape = array.chunks().requireKnownShape("reshape");
        long[] target = Shapes.resolveUnknownLength(Shapes.size(shape), newShape);
        if (Arrays.equals(shape, target)) {
            return array;
        }
        if (array.chunks().totalBlocks() == 1) {
            return oneBlock(array, target);
        }
        long[][] chunks = new long[shape.length][];
        for (int axis = 0; axis < shape.length; axis++) {
            chunks[axis] = array.chunks().axis(axis);
        }
        if (Shapes.size(shape) > 0 && dropEmptyBlocks(chunks)) {
            // Dask's rule pairs blocks of the input and output axes; an empty block pairs with nothing,
            // and leaving it out is a cheap rechunk (no block is split or merged).
            return reshape(Rechunk.rechunk(array, Chunks.of(chunks)), target);
        }
        Optional<ReshapeChunks> plan = ReshapeChunks.plan(shape, target, chunks);
        if (plan.isEmpty() && Shapes.size(shape) == 0) {
            // No elements to move: one empty block reshapes as a whole.
            long[][] whole = new long[shape.length][];
            for (int axis = 0; axis < shape.length; axis++) {
                whole[axis] = new long[] {shape[axis]};
            }
            return oneBlock(Rechunk.rechunk(array, Chunks.of(whole)), target);
        }
        if (plan.isEmpty()) {
            if (array.ndim() == 1 || target.length == 1) {
                throw new IllegalStateException("reshape of chunks " + array.chunks() + " to shape " + Arrays.toString(target)
                        + ": Dask's rule found no chunks, though merging into or splitting one axis always has some");
            }
            return reshape(reshape(array, -1), target);
        }
        ChunkedArray rechunked = Rechunk.rechunk(array, Chunks.of(plan.get().input()));
        return blockByBlock(rechunked, target, Chunks.of(plan.get().output()));
    }

    /** Removes the empty blocks of every axis in place; whether there were any. */
    private static boolean dropEmptyBlocks(long[][] chunks) {
        boolean dropped = false;
        for (int axis = 0; axis < chunks.length; axis++) {
            if (chunks[axis].length > 1 && Arrays.stream(chunks[axis]).anyMatch(length -> length == 0)) {
                chunks[axis] = Arrays.stream(chunks[axis]).filter(length -> length > 0).toArray();
                dropped = true;
            }
        }
        return dropped;
    }

    /** The array as 1-D in C order, with Dask's chunks ({@code reshape(-1)}). */
    public static ChunkedArray ravel(ChunkedArray array) {
        return reshape(array, -1);
    }

    private static ChunkedArray oneBlock(ChunkedArray array, long[] target) {
        long[][] whole = new long[target.length][];
        for (int axis = 0; axis < target.length; axis++) {
            whole[axis] = new long[] {target[axis]};
        }
        return blockByBlock(array, target, Chunks.of(whole));
    }

    /** Block k of the result (C order of its grid) is block k of {@code array}, reshaped. */
    private static ChunkedArray blockByBlock(ChunkedArray array, long[] target, Chunks outputChunks) {
        String name = Tokens.name("reshape", array.name(), target);
        int[] inputCounts = array.numBlocks();
        int[] outputCounts = outputChunks.blockCounts();
        Map<Key, Task> tasks = new LinkedHashMap<>();
        int[] inputIndex = new int[inputCounts.length];
        int[] outputIndex = new int[outputCounts.length];
        long blocks = outputChunks.totalBlocks();
        for (long block = 0; block < blocks; block++) {
            tasks.put(Key.of(name, outputIndex.clone()),
                    Task.call(new BlockReshape(outputChunks.blockShape(outputIndex)), array.key(inputIndex.clone())));
            advance(inputIndex, inputCounts);
            advance(outputIndex, outputCounts);
        }
        // A view of the block where its strides allow, else a copy, which is then the result: nothing besides.
        HighLevelGraph graph = Footprints.declare(array.graph().with(new MaterializedLayer(name, tasks), Set.of(array.name())), name, Working.none());
        return new ChunkedArray(graph, name, outputChunks,
                Metas.metaFromArray(array, target.length, array.dtype()));
    }

    /** The next block index in C order. */
    private static void advance(int[] index, int[] counts) {
        for (int axis = index.length - 1; axis >= 0; axis--) {
            if (++index[axis] < counts[axis]) {
                return;
            }
            index[axis] = 0;
        }
    }

    /** A block reshaped in C order (a view where the block's strides allow). */
    record BlockReshape(long[] shape) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            return Blocks.reshape(arguments.getFirst(), shape);
        }

        @Override
        public String displayName() {
            return "reshape";
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof BlockReshape reshape && Arrays.equals(shape, reshape.shape);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(shape);
        }

        @Override
        public String toString() {
            return "BlockReshape" + Arrays.toString(shape);
        }
    }
}
