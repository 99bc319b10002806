package org.tessera.array.slicing;

import java.io.Serial;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.BlockGrid;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Metas;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.graph.memory.Footprint.PartMaking;
import org.tessera.ndarray.NDArray;

/**
 * Integers, slices and new axes over a chunked array (Dask's {@code slice_slices_and_integers} and
 * {@code slice_with_newaxes}): the axes are planned independently ({@link AxisPlan}), and every
 * output block is a view of the one input block its pieces come from.
 */
final class BasicSlicing {
    private BasicSlicing() {
    }

    /** The array after {@code selectors} (no gathered ones); the array itself when they select everything. */
    static ChunkedArray apply(ChunkedArray array, List<AxisSelector> selectors, List<Object> tokenParts) {
        if (selectors.stream().allMatch(AxisSelector.Whole.class::isInstance)) {
            return array;
        }
        Chunks chunks = array.chunks();
        List<List<AxisPlan.Piece>> pieces = new ArrayList<>(selectors.size());
        int[] inputAxis = new int[selectors.size()];
        List<long[]> outputChunks = new ArrayList<>();
        int axis = 0;
        for (int position = 0; position < selectors.size(); position++) {
            AxisSelector selector = selectors.get(position);
            if (selector instanceof AxisSelector.Insert) {
                inputAxis[position] = -1;
                pieces.add(List.of(new AxisPlan.Piece(0, new BlockSlice.Insert(), 1)));
            } else {
                inputAxis[position] = axis;
                pieces.add(AxisPlan.pieces(chunks.axis(axis), selector));
                axis++;
            }
            if (!(selector instanceof AxisSelector.Point)) {
                outputChunks.add(pieces.getLast().stream().mapToLong(AxisPlan.Piece::length).toArray());
            }
        }
        String name = Tokens.name("getitem", array.name(), selectors.stream().map(Object::toString).toList(), tokenParts);
        int[] pieceCounts = pieces.stream().mapToInt(List::size).toArray();
        Map<Key, Task> tasks = new LinkedHashMap<>();
        BlockGrid.forEach(pieceCounts, choice -> {
            int[] input = new int[array.ndim()];
            int[] output = new int[outputChunks.size()];
            List<BlockSlice.Step> steps = new ArrayList<>(choice.length);
            int outputAxis = 0;
            for (int position = 0; position < choice.length; position++) {
                AxisPlan.Piece piece = pieces.get(position).get(choice[position]);
                steps.add(piece.step());
                if (inputAxis[position] >= 0) {
                    input[inputAxis[position]] = piece.block();
                }
                if (!(selectors.get(position) instanceof AxisSelector.Point)) {
                    output[outputAxis++] = choice[position];
                }
            }
            Task task = steps.stream().allMatch(BlockSlice.Keep.class::isInstance) ? Task.ref(array.key(input))
                    : Task.call(new BlockSlice(steps), array.key(input));
            tasks.put(Key.of(name, output), task);
        });
        Chunks result = Chunks.of(outputChunks.toArray(long[][]::new));
        // Every dense block is a view of an input block (or a deferred selection a reader computes): nothing is allocated.
        // Another family's slice is a copy.
        HighLevelGraph graph = Footprints.declare(array.graph().with(new MaterializedLayer(name, tasks), Set.of(array.name())), name,
                array.meta() instanceof NDArray ? new SelectedParts(boxPerPart(pieces)) : Working.none());
        return new ChunkedArray(graph, name, result,
                Metas.metaFromArray(array, result.ndim(), array.dtype()));
    }

    /** How many elements of its input a part of the selection asks at most per element it keeps: the product of the largest steps. */
    private static double boxPerPart(List<List<AxisPlan.Piece>> pieces) {
        double box = 1;
        for (List<AxisPlan.Piece> axis : pieces) {
            long step = 1;
            for (AxisPlan.Piece piece : axis) {
                if (piece.step() instanceof BlockSlice.Range range) {
                    step = Math.max(step, Math.abs(range.step()));
                }
            }
            box *= step;
        }
        return box;
    }

    /**
     * A selection allocates nothing whole (its blocks are views), and a part of it asks its input
     * for the box around the part's elements, {@code boxPerPart} times the part at most, then keeps
     * a compact copy of what it selects.
     */
    record SelectedParts(double boxPerPart) implements Working {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long bytes(Key key, long resultBytes) {
            return 0;
        }

        @Override
        public long partBytes(Key key, long partBytes) {
            return (long) Math.min(Long.MAX_VALUE, Math.ceil(boxPerPart * partBytes));
        }

        @Override
        public boolean viewsInput() {
            return true;
        }

        /** An empty selection may still ask a box of the input (the other axes of an empty range): as much as the input's block. */
        @Override
        public long askedElements(long elements) {
            return elements == 0 ? Long.MAX_VALUE : (long) Math.min(Long.MAX_VALUE, Math.ceil(boxPerPart * elements));
        }

        @Override
        public PartMaking partMaking() {
            return PartMaking.MADE;
        }
    }
}
