package org.tessera.array.shape;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.BlockGrid;
import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.join.ChunkedJoining;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.array.reshape.Reshape;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.NDArray;

/**
 * NumPy's {@code repeat} (each element {@code repeats} times along an axis) and {@code tile} (the
 * whole array {@code reps} times along each axis), with Dask's chunks.
 *
 * <p>repeat multiplies the data, so, as Dask does, each input block is first cut into up to
 * {@code repeats - 1} slabs (at the rounded points of an even spacing of the block's range) and
 * each slab becomes one output block of {@code repeats} times its length: output blocks stay
 * close to the input's block length instead of growing {@code repeats}-fold. tile concatenates
 * references to the input's blocks, so it moves no data until a block is read.
 */
public final class Repetition {
    private Repetition() {
    }

    /** Each element of the flattened array {@code repeats} times (NumPy's {@code repeat} without an axis). */
    public static ChunkedArray repeat(ChunkedArray x, long repeats) {
        return repeat(Reshape.ravel(x), repeats, 0);
    }

    /** Each element {@code repeats} times along {@code axis}. */
    public static ChunkedArray repeat(ChunkedArray x, long repeats, int axis) {
        int normalized = AxisOrder.normalize(axis, x.ndim());
        if (repeats < 0) {
            throw new IllegalArgumentException("repeat: repeats may not contain negative values, got " + repeats);
        }
        if (repeats == 0) {
            return AxisSlices.range(x, normalized, 0, 0);
        }
        if (repeats == 1) {
            return x;
        }
        long[] lengths = x.chunks().axis(normalized);
        if (!x.chunks().isKnown(normalized)) {
            throw new IllegalArgumentException("repeat: axis " + normalized + " has unknown block lengths " + x.chunks() + "; call computeChunkSizes() first");
        }
        List<Slab> slabs = new ArrayList<>();
        long offset = 0;
        for (int block = 0; block < lengths.length; block++) {
            long previous = offset;
            for (int point = 1; point < repeats; point++) {
                long next = point == repeats - 1 ? offset + lengths[block] : evenPoint(offset, offset + lengths[block], point, repeats);
                if (next != previous) {
                    slabs.add(new Slab(block, previous - offset, next - previous));
                }
                previous = next;
            }
            offset += lengths[block];
        }
        if (slabs.isEmpty()) {
            return x;
        }
        long[][] outputLengths = new long[x.ndim()][];
        for (int other = 0; other < x.ndim(); other++) {
            outputLengths[other] = other == normalized ? slabs.stream().mapToLong(slab -> slab.length() * repeats).toArray() : x.chunks().axis(other);
        }
        Chunks chunks = Chunks.of(outputLengths);
        String name = Tokens.name("repeat", x.name(), normalized, repeats);
        Map<Key, Task> tasks = new LinkedHashMap<>();
        BlockGrid.forEach(chunks.blockCounts(), index -> {
            Slab slab = slabs.get(index[normalized]);
            int[] source = index.clone();
            source[normalized] = slab.block();
            tasks.put(Key.of(name, index), Task.call(new RepeatSlab(normalized, slab.start(), slab.length(), repeats), x.key(source)));
        });
        // The reshape of the broadcast slab copies it into the new block, the result: nothing besides.
        HighLevelGraph graph = Footprints.declare(x.graph().with(new MaterializedLayer(name, tasks), Set.of(x.name())), name, Working.none());
        return new ChunkedArray(graph, name, chunks, x.meta());
    }

    /**
     * Point {@code point} of {@code count} evenly spaced points from {@code start} to {@code stop},
     * rounded half to even: the arithmetic of {@code numpy.linspace(...).round()} that Dask's
     * slab boundaries come from, so the chunks agree with Dask's.
     */
    private static long evenPoint(long start, long stop, int point, long count) {
        double step = (double) (stop - start) / (count - 1);
        return (long) Math.rint(point * step + start);
    }

    /** The array repeated {@code reps[k]} times along axis k; reps and the array's axes are aligned on the right, as NumPy's tile aligns them. */
    public static ChunkedArray tile(ChunkedArray x, long... reps) {
        for (long rep : reps) {
            if (rep < 0) {
                throw new IllegalArgumentException("tile: negative repetitions are not allowed, got reps " + Arrays.toString(reps));
            }
        }
        ChunkedArray result = x;
        if (reps.length > x.ndim()) {
            long[] shape = new long[reps.length];
            Arrays.fill(shape, 1);
            System.arraycopy(x.chunks().requireKnownShape("tile"), 0, shape, reps.length - x.ndim(), x.ndim());
            result = Reshape.reshape(x, shape);
        }
        int leading = result.ndim() - reps.length;
        for (int position = 0; position < reps.length; position++) {
            int axis = leading + position;
            long rep = reps[position];
            if (rep == 0) {
                result = AxisSlices.range(result, axis, 0, 0);
            } else if (rep > 1) {
                result = ChunkedJoining.concatenate(Collections.nCopies(Math.toIntExact(rep), result), axis);
            }
        }
        return result;
    }

    /** Where one output block's elements come from: {@code length} elements of input block {@code block} from {@code start}. */
    private record Slab(int block, long start, long length) {
    }

    /** A slab of a block with every element repeated along the axis: a new C-contiguous block. */
    record RepeatSlab(int axis, long start, long length, long repeats) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            NDArray slab = Blocks.dense(arguments.getFirst(), "repetition").slice(axis, start, 1, length);
            long[] stretched = new long[slab.ndim() + 1];
            long[] shape = slab.shape();
            for (int position = 0, source = 0; position < stretched.length; position++) {
                stretched[position] = position == axis + 1 ? repeats : shape[source++];
            }
            long[] merged = shape.clone();
            merged[axis] = length * repeats;
            // A stride-0 axis next to the repeated one cannot merge into a view, so this reshape copies.
            return slab.expandDims(axis + 1).broadcastTo(stretched).reshape(merged);
        }

        @Override
        public String displayName() {
            return "repeat";
        }
    }
}
