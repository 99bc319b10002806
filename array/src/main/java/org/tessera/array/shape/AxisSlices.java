package org.tessera.array.shape;

import java.io.Serial;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.BlockGrid;
import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.error.AxisException;

/**
 * A contiguous range of one axis, read forwards or backwards, with Dask's chunks for
 * {@code x[start:stop]} and {@code x[start:stop][::-1]}: the input blocks cut at the range's ends,
 * blocks left empty by the cut dropped, their order reversed for a backward read. Each output
 * block is an input block (a reference) or a view of one, so nothing is copied. The shape
 * operations build on it (flip, roll, diff, pad) rather than on the general slicing of
 * {@code org.tessera.array.slicing}, because a single-axis range needs no index resolution.
 */
public final class AxisSlices {
    private AxisSlices() {
    }

    /** Elements {@code [start, stop)} of {@code axis}, in order. */
    public static ChunkedArray range(ChunkedArray x, int axis, long start, long stop) {
        return range(x, axis, start, stop, false);
    }

    /** Elements {@code [start, stop)} of {@code axis}, backwards when {@code reversed}. */
    public static ChunkedArray range(ChunkedArray x, int axis, long start, long stop, boolean reversed) {
        if (axis < 0 || axis >= x.ndim()) {
            throw new AxisException(axis, x.ndim());
        }
        long[] lengths = x.chunks().axis(axis);
        if (!x.chunks().isKnown(axis)) {
            throw new IllegalArgumentException("cannot take a range of axis " + axis + " with unknown block lengths " + x.chunks()
                    + "; call computeChunkSizes() first");
        }
        long length = x.shape(axis);
        if (start < 0 || stop < start || stop > length) {
            throw new IndexOutOfBoundsException("range [" + start + ", " + stop + ") is not within axis " + axis + " of length " + length);
        }
        if (start == 0 && stop == length && !reversed) {
            return x;
        }
        List<Piece> pieces = new ArrayList<>();
        long offset = 0;
        for (int block = 0; block < lengths.length; block++) {
            long from = Math.max(start, offset);
            long to = Math.min(stop, offset + lengths[block]);
            if (from < to) {
                pieces.add(new Piece(block, from - offset, to - from, lengths[block]));
            }
            offset += lengths[block];
        }
        if (pieces.isEmpty()) {
            // Dask keeps one empty block so the axis still has a block to index.
            pieces.add(new Piece(0, 0, 0, lengths.length == 0 ? 0 : lengths[0]));
        }
        if (reversed) {
            java.util.Collections.reverse(pieces);
        }
        long[][] outputLengths = new long[x.ndim()][];
        for (int other = 0; other < x.ndim(); other++) {
            outputLengths[other] = other == axis ? pieces.stream().mapToLong(Piece::length).toArray() : x.chunks().axis(other);
        }
        Chunks chunks = Chunks.of(outputLengths);
        String name = Tokens.name(reversed ? "reversed-range" : "range", x.name(), axis, start, stop);
        Map<Key, Task> tasks = new LinkedHashMap<>();
        BlockGrid.forEach(chunks.blockCounts(), index -> {
            Piece piece = pieces.get(index[axis]);
            int[] source = index.clone();
            source[axis] = piece.block();
            Key key = x.key(source);
            boolean whole = piece.start() == 0 && piece.length() == piece.blockLength();
            tasks.put(Key.of(name, index), whole && !reversed ? Task.ref(key)
                    : Task.call(new BlockRange(axis, piece.start(), piece.length(), reversed), key));
        });
        // Each block is an input block or a view of one: nothing is allocated.
        HighLevelGraph graph = Footprints.declare(x.graph().with(new MaterializedLayer(name, tasks), Set.of(x.name())), name, Working.none());
        return new ChunkedArray(graph, name, chunks, x.meta());
    }

    /** The part of input block {@code block} that one output block takes. */
    private record Piece(int block, long start, long length, long blockLength) {
    }

    /** A view of elements {@code [start, start + length)} of a block along an axis, backwards when asked. */
    record BlockRange(int axis, long start, long length, boolean reversed) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            NDArray block = Blocks.dense(arguments.getFirst(), "axis slices");
            return reversed ? block.slice(axis, start + length - 1, -1, length) : block.slice(axis, start, 1, length);
        }

        @Override
        public boolean isCheap() {
            return true;
        }

        @Override
        public String displayName() {
            return reversed ? "reversed-range" : "range";
        }
    }
}
