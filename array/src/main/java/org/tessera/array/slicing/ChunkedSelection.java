package org.tessera.array.slicing;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.blockwise.Workings;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.chunks.UnknownChunksException;
import org.tessera.array.creation.CreationLayer;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.array.rechunk.Rechunk;
import org.tessera.array.reshape.Transpose;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.BlockwiseArgument;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.memory.Footprint.PartMaking;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.index.Indexing;

/**
 * Indexing with an index array that is a chunked array, so its values are known only when
 * computed. The rest of the index (integers, slices, ellipsis, new axes) applies first; then:
 * <ul>
 *   <li>a boolean mask (Dask's {@code slice_with_bool_dask_array}): each result block is a block of
 *       the array masked by the matching block of the mask, so the result's lengths along the masked
 *       axis are unknown until computed. A mask over several axes is first made one block along all
 *       of them but the first, so that blocks hold whole rows and their true elements come out in
 *       NumPy's (C) order;</li>
 *   <li>1-D integer positions (Dask's {@code slice_with_int_dask_array}): result block j along the
 *       indexed axis holds the elements that positions block j names, picked from every block of
 *       that axis, so the result has the positions' chunks there. Positions are checked against the
 *       axis length when computed.</li>
 * </ul>
 * The selected axis then goes where NumPy puts it: in place, or first when integers elsewhere in
 * the index are not adjacent to it.
 */
final class ChunkedSelection {
    private ChunkedSelection() {
    }

    static ChunkedArray get(ChunkedArray array, List<ChunkedIndex> index) {
        int chunkedPosition = -1;
        ChunkedArray indexArray = null;
        List<Index> items = new ArrayList<>();
        List<Integer> advancedPositions = new ArrayList<>();
        for (int position = 0; position < index.size(); position++) {
            switch (index.get(position)) {
                case ChunkedIndex.Item(Index item) -> {
                    if (item instanceof Index.IntArray || item instanceof Index.BoolMask || item instanceof Index.BoolScalar) {
                        throw new UnsupportedOperationException("a chunked index array combines only with integers, slices, '...' and new axes, not with "
                                + IndexText.item(item) + " (index " + describe(index) + ")");
                    }
                    if (item instanceof Index.At) {
                        advancedPositions.add(position);
                    }
                    items.add(item);
                }
                case ChunkedIndex chunked -> {
                    if (indexArray != null) {
                        throw new UnsupportedOperationException("indexing with more than one chunked index array is not supported (index " + describe(index) + ")");
                    }
                    indexArray = chunkedArray(chunked);
                    chunkedPosition = position;
                    advancedPositions.add(position);
                }
            }
        }
        boolean isMask = index.get(chunkedPosition) instanceof ChunkedIndex.Mask;
        requireIndexArray(indexArray, isMask, index);
        int indexedAxes = isMask ? indexArray.ndim() : 1;
        // The chunked array's axes stand in the index as whole slices, so that the rest resolves as usual.
        List<Index> withPlaceholders = new ArrayList<>(items);
        for (int axis = 0; axis < indexedAxes; axis++) {
            withPlaceholders.add(chunkedPosition + axis, Index.all());
        }
        Index[] resolvedItems = withPlaceholders.toArray(Index[]::new);
        ResolvedIndex resolved = IndexResolver.resolve(array.shape(), resolvedItems, IndexResolver.Mode.NUMPY);
        int firstAxis = viewAxesBefore(resolvedItems, chunkedPosition, array.ndim());
        ChunkedArray view = BasicSlicing.apply(array, resolved.selectors(), List.of());
        ChunkedArray selected;
        if (isMask) {
            requireMatchingShape(view, indexArray, firstAxis, index);
            selected = masked(view, indexArray, firstAxis);
        } else {
            selected = taken(view, indexArray, firstAxis);
        }
        boolean adjacent = true;
        for (int next = 1; next < advancedPositions.size(); next++) {
            adjacent &= advancedPositions.get(next) == advancedPositions.get(next - 1) + 1;
        }
        if (adjacent || firstAxis == 0) {
            return selected;
        }
        // NumPy puts the selected axis first when integers and the index array are not adjacent.
        int[] order = new int[selected.ndim()];
        order[0] = firstAxis;
        for (int axis = 0, next = 1; axis < selected.ndim(); axis++) {
            if (axis != firstAxis) {
                order[next++] = axis;
            }
        }
        return Transpose.transpose(selected, order);
    }

    private static ChunkedArray chunkedArray(ChunkedIndex item) {
        return switch (item) {
            case ChunkedIndex.Mask(ChunkedArray mask) -> mask;
            case ChunkedIndex.Positions(ChunkedArray positions) -> positions;
            case ChunkedIndex.Item ignored -> throw new IllegalArgumentException("not a chunked index array");
        };
    }

    private static void requireIndexArray(ChunkedArray indexArray, boolean isMask, List<ChunkedIndex> index) {
        if (isMask && !indexArray.dtype().isBool()) {
            throw new IndexOutOfBoundsException("a chunked mask must be boolean, got dtype " + indexArray.dtype() + " (index " + describe(index) + ")");
        }
        if (!isMask && !indexArray.dtype().isInteger()) {
            throw new IndexOutOfBoundsException("chunked positions must be integers, got dtype " + indexArray.dtype() + " (index " + describe(index) + ")");
        }
        if (isMask && indexArray.ndim() == 0) {
            throw new UnsupportedOperationException("a 0-d chunked mask is not supported: use a boolean scalar index (index " + describe(index) + ")");
        }
        if (!isMask && indexArray.ndim() != 1) {
            throw new UnsupportedOperationException("chunked positions must be 1-D, got shape " + IndexText.shape(indexArray.shape())
                    + " (index " + describe(index) + "); compute them into an NDArray for other shapes");
        }
    }

    /** The number of view axes that the items before {@code position} make. */
    private static int viewAxesBefore(Index[] items, int position, int ndim) {
        int consumed = 0;
        for (Index item : items) {
            if (item instanceof Index.At || item instanceof Index.Range) {
                consumed++;
            }
        }
        int axes = 0;
        for (int before = 0; before < position; before++) {
            axes += switch (items[before]) {
                case Index.Range ignored -> 1;
                case Index.NewAxis ignored -> 1;
                case Index.Ellipsis ignored -> ndim - consumed;
                default -> 0;
            };
        }
        return axes;
    }

    private static void requireMatchingShape(ChunkedArray view, ChunkedArray mask, int firstAxis, List<ChunkedIndex> index) {
        for (int axis = 0; axis < mask.ndim(); axis++) {
            long expected = view.shape(firstAxis + axis);
            long actual = mask.shape(axis);
            if (expected != Chunks.UNKNOWN && actual != Chunks.UNKNOWN && expected != actual) {
                throw new IndexOutOfBoundsException("boolean index did not match indexed array along axis " + (firstAxis + axis)
                        + "; size of axis is " + expected + " but size of corresponding boolean axis is " + actual + " (indexed shape "
                        + IndexText.shape(view.shape()) + ", mask shape " + IndexText.shape(mask.shape()) + ", index " + describe(index) + ")");
            }
        }
    }

    private static ChunkedArray masked(ChunkedArray view, ChunkedArray mask, int firstMaskAxis) {
        int maskAxes = mask.ndim();
        ChunkedArray alignedView = view;
        ChunkedArray alignedMask = mask;
        if (maskAxes > 1) {
            alignedView = Rechunk.rechunk(view, wholeAlong(view, firstMaskAxis + 1, firstMaskAxis + maskAxes));
            alignedMask = Rechunk.rechunk(mask, wholeAlong(mask, 1, maskAxes));
        }
        long[] viewBlocks = alignedView.chunks().axis(firstMaskAxis);
        if (!Arrays.equals(viewBlocks, alignedMask.chunks().axis(0))) {
            long[][] target = new long[maskAxes][];
            target[0] = viewBlocks;
            for (int axis = 1; axis < maskAxes; axis++) {
                target[axis] = alignedMask.chunks().axis(axis);
            }
            alignedMask = Rechunk.rechunk(alignedMask, Chunks.of(target));
        }
        String viewLetters = CreationLayer.AXIS_LETTERS.substring(0, alignedView.ndim());
        String maskLetters = viewLetters.substring(firstMaskAxis, firstMaskAxis + maskAxes);
        String outputLetters = viewLetters.substring(0, firstMaskAxis + 1) + viewLetters.substring(firstMaskAxis + maskAxes);
        Map<Character, Integer> blockCounts = new HashMap<>();
        for (int axis = 0; axis < alignedView.ndim(); axis++) {
            blockCounts.put(viewLetters.charAt(axis), alignedView.chunks().blockCount(axis));
        }
        String name = Tokens.name("getitem-mask", alignedView.name(), alignedMask.name(), firstMaskAxis);
        BlockwiseLayer layer = new BlockwiseLayer(name, outputLetters, new MaskBlock(firstMaskAxis),
                List.of(BlockwiseArgument.blocks(alignedView.name(), viewLetters, alignedView.numBlocks()),
                        BlockwiseArgument.blocks(alignedMask.name(), maskLetters, alignedMask.numBlocks())),
                blockCounts, null);
        long[][] lengths = new long[outputLetters.length()][];
        long[][] bounds = new long[outputLetters.length()][];
        for (int output = 0; output < lengths.length; output++) {
            int viewAxis = viewLetters.indexOf(outputLetters.charAt(output));
            lengths[output] = alignedView.chunks().axis(viewAxis);
            bounds[output] = lengths[output].clone();
            if (viewAxis == firstMaskAxis) {
                Arrays.fill(lengths[output], Chunks.UNKNOWN);
                // A block keeps at most the elements of its mask block: its rows times the mask's other axes (one block each).
                for (int block = 0; block < bounds[output].length; block++) {
                    for (int axis = 1; axis < maskAxes; axis++) {
                        bounds[output][block] *= alignedView.chunks().length(firstMaskAxis + axis, 0);
                    }
                }
            }
        }
        // Besides the result: the coordinates of the mask's true elements, an int64 array per mask axis, and a flat
        // copy of the mask where it is not contiguous, bounded by the mask block's elements.
        long[] maskBytes = Arrays.stream(bounds[firstMaskAxis]).map(elements -> elements * ((long) maskAxes * Long.BYTES + 1)).toArray();
        return withLayer(layer, alignedView, alignedMask, Chunks.of(lengths), Chunks.of(bounds), Workings.alongAxis(firstMaskAxis, maskBytes));
    }

    /** Result block j along {@code axis} holds the elements that block j of {@code positions} names. */
    private static ChunkedArray taken(ChunkedArray view, ChunkedArray positions, int axis) {
        if (!view.chunks().isKnown(axis)) {
            throw new UnknownChunksException("indexing axis " + axis + " of chunks " + view.chunks() + " with chunked positions needs its block lengths");
        }
        String viewLetters = CreationLayer.AXIS_LETTERS.substring(0, view.ndim());
        // The view's blocks along the axis are all read for every result block: a contracted letter.
        char contracted = CreationLayer.AXIS_LETTERS.charAt(view.ndim());
        String inputLetters = viewLetters.substring(0, axis) + contracted + viewLetters.substring(axis + 1);
        Map<Character, Integer> blockCounts = new HashMap<>();
        for (int other = 0; other < view.ndim(); other++) {
            blockCounts.put(viewLetters.charAt(other), view.chunks().blockCount(other));
        }
        blockCounts.put(viewLetters.charAt(axis), positions.chunks().blockCount(0));
        blockCounts.put(contracted, view.chunks().blockCount(axis));
        String name = Tokens.name("getitem-positions", view.name(), positions.name(), axis);
        BlockwiseLayer layer = new BlockwiseLayer(name, viewLetters, new PositionsBlock(axis, PointGather.offsets(view.chunks().axis(axis))),
                List.of(BlockwiseArgument.blocks(view.name(), inputLetters, view.numBlocks()),
                        BlockwiseArgument.blocks(positions.name(), String.valueOf(viewLetters.charAt(axis)), positions.numBlocks())),
                blockCounts, null);
        long[][] lengths = new long[view.ndim()][];
        for (int other = 0; other < lengths.length; other++) {
            lengths[other] = other == axis ? positions.chunks().axis(0) : view.chunks().axis(other);
        }
        Chunks chunks = Chunks.of(lengths);
        // Besides the result: the values picked from each input block (as many in all), a byte per element that
        // writing them through integer positions marks, and per position int64 places and block-local positions,
        // which indexing may copy again.
        long[] positionBytes = positions.chunks().isKnown()
                ? Arrays.stream(positions.chunks().axis(0)).map(count -> count * POSITION_INDEX_ARRAYS * Long.BYTES).toArray() : new long[0];
        Working picked = Working.ofResult(1 + 1.0 / Math.max(1, view.dtype().byteSize()));
        // The gathered values are a new array.
        return withLayer(layer, view, positions, chunks, chunks,
                Workings.plus(picked, Workings.alongAxis(axis, positionBytes)).makingParts(PartMaking.WHOLE, false, true));
    }

    /** The int64 arrays a result block of chunked positions makes per position: places, local positions, and a copy of each by the indexing. */
    private static final long POSITION_INDEX_ARRAYS = 4;

    private static ChunkedArray withLayer(BlockwiseLayer layer, ChunkedArray view, ChunkedArray indexArray, Chunks chunks, Chunks bounds, Working working) {
        Set<String> dependencies = new LinkedHashSet<>(List.of(view.name(), indexArray.name()));
        HighLevelGraph graph = HighLevelGraph.merge(view.graph(), indexArray.graph()).with(layer, dependencies);
        graph = chunks.isKnown() ? Footprints.declare(graph, layer.name(), working) : Footprints.declareBounded(graph, layer.name(), working, bounds);
        return new ChunkedArray(graph, layer.name(), chunks, ChunkedArray.metaOf(view.dtype(), chunks.ndim()));
    }

    private static Chunks wholeAlong(ChunkedArray array, int from, int to) {
        long[][] target = new long[array.ndim()][];
        for (int axis = 0; axis < target.length; axis++) {
            target[axis] = axis >= from && axis < to ? new long[] {array.chunks().requireKnownShape("masking")[axis]} : array.chunks().axis(axis);
        }
        return Chunks.of(target);
    }

    private static String describe(List<ChunkedIndex> index) {
        return index.stream().map(item -> switch (item) {
            case ChunkedIndex.Item(Index inner) -> IndexText.item(inner);
            case ChunkedIndex.Mask(ChunkedArray mask) -> "chunked mask(shape=" + IndexText.shape(mask.shape()) + ")";
            case ChunkedIndex.Positions(ChunkedArray positions) -> "chunked positions(shape=" + IndexText.shape(positions.shape())
                    + ", dtype=" + positions.dtype() + ")";
        }).toList().toString();
    }

    /** The one block in a nest of one-element lists (what a contracted letter of one block gives). */
    private static NDArray single(Object value) {
        Object current = value;
        while (current instanceof List<?> list) {
            current = list.getFirst();
        }
        return Blocks.dense(current, "advanced indexing");
    }

    /** One block masked by the matching block of the mask. */
    record MaskBlock(int firstMaskAxis) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            NDArray block = single(arguments.get(0));
            NDArray mask = single(arguments.get(1));
            Index[] index = new Index[firstMaskAxis + 1];
            Arrays.fill(index, 0, firstMaskAxis, Index.all());
            index[firstMaskAxis] = new Index.BoolMask(mask);
            return Indexing.get(block, index);
        }

        @Override
        public String displayName() {
            return "getitem-mask";
        }
    }

    /**
     * One result block of chunked positions: the positions (made non-negative and checked against
     * the axis length) picked from each block of the axis that holds some of them.
     *
     * @param axis    the indexed axis
     * @param offsets where each block of that axis starts, and its length last
     */
    record PositionsBlock(int axis, long[] offsets) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            List<?> blocks = (List<?>) arguments.get(0);
            NDArray positions = Blocks.dense(arguments.get(1), "chunked selection");
            long length = offsets[offsets.length - 1];
            int count = Math.toIntExact(positions.size());
            List<List<long[]>> byBlock = new ArrayList<>();
            for (int block = 0; block < blocks.size(); block++) {
                byBlock.add(new ArrayList<>());
            }
            for (int element = 0; element < count; element++) {
                long raw = positions.getLong(element);
                if (raw < -length || raw >= length) {
                    throw new IndexOutOfBoundsException("index " + raw + " is out of bounds for axis " + axis + " with size " + length);
                }
                long position = raw < 0 ? raw + length : raw;
                int block = PointGather.blockHolding(offsets, position);
                byBlock.get(block).add(new long[] {element, position - offsets[block]});
            }
            NDArray first = Blocks.dense(blocks.getFirst(), "chunked selection");
            long[] shape = first.shape();
            shape[axis] = count;
            NDArray result = NDArray.zeros(first.dtype(), shape);
            NDArray resultAxisFirst = result.moveAxis(axis, 0);
            for (int block = 0; block < blocks.size(); block++) {
                List<long[]> picks = byBlock.get(block);
                if (picks.isEmpty()) {
                    continue;
                }
                long[] targets = picks.stream().mapToLong(pick -> pick[0]).toArray();
                long[] locals = picks.stream().mapToLong(pick -> pick[1]).toArray();
                NDArray picked = Indexing.get(Blocks.dense(blocks.get(block), "chunked selection").moveAxis(axis, 0), new Index.IntArray(GatherBlock.int64(locals)));
                Indexing.set(resultAxisFirst, picked, new Index.IntArray(GatherBlock.int64(targets)));
            }
            return result;
        }

        @Override
        public String displayName() {
            return "getitem-positions";
        }
    }
}
