package org.tessera.array.overlap;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.BlockGrid;
import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.array.blockwise.ReadsDeferredBlocks;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.array.rechunk.Rechunk;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;

/**
 * Dask's {@code overlap} and {@code map_overlap}: every block is enlarged by ghost cells, {@code
 * depth[k]} elements on each side of axis k taken from its neighbours (or, at the ends of an axis,
 * made by the axis's {@link Boundary}); a function runs on each enlarged block, and its result is
 * trimmed back to the block. A stencil of radius {@code depth} then gives the same values over
 * blocks as over the whole array.
 *
 * <p>Design: one task per block and axis copies the block's edges along that axis (its first and
 * last {@code depth}); one task per block reads the block and the edges of the neighbours it needs
 * (up to 3 per axis, so 9 in 2-D, for the corners, which come from the edges along the first axis
 * that the corner crosses) and copies them into the enlarged block; {@code mapOverlap} runs the
 * function and the trim in that same task, so the enlarged block lives only while its task runs.
 * A block is then held, once read, until its own enlarged block and its edges are made, not until
 * the last of its neighbours has taken its ghost cells from it. Neighbours
 * give ghost cells only from their own elements, so where a block is shorter than the depth the
 * axis is first rechunked (small blocks merged into their neighbours), as Dask does.
 */
public final class Overlap {
    private Overlap() {
    }

    /** What {@code mapOverlap} computes from one enlarged block: an array of the same shape (its dtype may differ). */
    @FunctionalInterface
    public interface OverlapFunction extends Serializable {
        NDArray apply(NDArray enlargedBlock) throws Exception;
    }

    /** {@link #mapOverlap(ChunkedArray, OverlapFunction, long[], Boundary[])} with one depth and one boundary for every axis. */
    public static ChunkedArray mapOverlap(ChunkedArray x, OverlapFunction function, long depth, Boundary boundary) {
        return mapOverlap(x, function, new long[] {depth}, new Boundary[] {boundary});
    }

    /**
     * {@code function} applied to every block enlarged by {@code depth[k]} ghost cells on both sides
     * of axis k, its result trimmed back to the block. The function must return an array of the
     * enlarged block's shape; its dtype is found by running it on an empty array (the input's dtype
     * when that fails). One depth or boundary applies to every axis.
     */
    public static ChunkedArray mapOverlap(ChunkedArray x, OverlapFunction function, long[] depth, Boundary[] boundary) {
        return mapOverlap(x, function, depth, boundary, null);
    }

    /**
     * As {@link #mapOverlap(ChunkedArray, OverlapFunction, long[], Boundary[])} with the output dtype given. What the
     * function allocates besides its result is unknown here, so a memory plan names the layer as
     * undeclared; declare it with {@link #mapOverlap(ChunkedArray, OverlapFunction, long[], Boundary[], DType, Working)}.
     */
    public static ChunkedArray mapOverlap(ChunkedArray x, OverlapFunction function, long[] depth, Boundary[] boundary, DType dtype) {
        return mapOverlap(x, function, depth, boundary, dtype, null);
    }

    /**
     * As {@link #mapOverlap(ChunkedArray, OverlapFunction, long[], Boundary[], DType)} (a null dtype is found by running the function on an
     * empty array), with {@code functionWorking} declaring what the function allocates besides the array it returns, as
     * a function of that array's bytes (see {@link Working}; {@code Working.none()} for a function that allocates its
     * result alone). The enlarged block and the part of the function's result that the trim drops are counted on top.
     */
    public static ChunkedArray mapOverlap(ChunkedArray x, OverlapFunction function, long[] depth, Boundary[] boundary, DType dtype,
            Working functionWorking) {
        Plan plan = plan(x, depth, boundary);
        DType outputDtype = dtype != null ? dtype : outputDtype(x, function);
        String name = Tokens.name("map-overlap", plan.input().name(), plan.depth(), plan.boundaryText(), function, outputDtype.numpyName());
        return plan.build(name, function, plan.input().chunks(), outputDtype, functionWorking);
    }

    /** {@link #overlap(ChunkedArray, long[], Boundary[])} with one depth and one boundary for every axis. */
    public static ChunkedArray overlap(ChunkedArray x, long depth, Boundary boundary) {
        return overlap(x, new long[] {depth}, new Boundary[] {boundary});
    }

    /**
     * The enlarged blocks themselves, Dask's {@code overlap}: block i of axis k grows by
     * {@code depth[k]} on each side (not at an end whose boundary is none), so the chunks grow too.
     */
    public static ChunkedArray overlap(ChunkedArray x, long[] depth, Boundary[] boundary) {
        Plan plan = plan(x, depth, boundary);
        long[][] lengths = new long[x.ndim()][];
        for (int axis = 0; axis < lengths.length; axis++) {
            List<List<Part>> partsOfAxis = plan.parts().get(axis);
            lengths[axis] = partsOfAxis.stream().mapToLong(parts -> parts.stream().mapToLong(Part::width).sum()).toArray();
        }
        String name = Tokens.name("overlap", plan.input().name(), plan.depth(), plan.boundaryText());
        return plan.build(name, null, Chunks.of(lengths), x.dtype(), Working.none());
    }

    private static Plan plan(ChunkedArray x, long[] depth, Boundary[] boundary) {
        int ndim = x.ndim();
        if ((depth.length != 1 && depth.length != ndim) || (boundary.length != 1 && boundary.length != ndim)) {
            throw new IllegalArgumentException("overlap: depths " + Arrays.toString(depth) + " and boundaries " + Arrays.toString(boundary)
                    + " must give one value, or one per axis of the array of shape " + Shapes.format(x.shape()));
        }
        long[] shape = x.chunks().requireKnownShape("overlap");
        long[] depths = new long[ndim];
        Boundary[] boundaries = new Boundary[ndim];
        long[][] lengths = new long[ndim][];
        boolean rechunk = false;
        for (int axis = 0; axis < ndim; axis++) {
            depths[axis] = depth[depth.length == 1 ? 0 : axis];
            boundaries[axis] = java.util.Objects.requireNonNull(boundary[boundary.length == 1 ? 0 : axis], "the boundary of axis " + axis);
            if (depths[axis] < 0) {
                throw new IllegalArgumentException("overlap: depth " + depths[axis] + " of axis " + axis + " is negative");
            }
            if (depths[axis] > shape[axis]) {
                throw new IllegalArgumentException("overlap: depth " + depths[axis] + " of axis " + axis + " is larger than the axis (shape "
                        + Shapes.format(shape) + ")");
            }
            lengths[axis] = atLeast(x.chunks().axis(axis), depths[axis]);
            rechunk |= !Arrays.equals(lengths[axis], x.chunks().axis(axis));
        }
        ChunkedArray input = rechunk ? Rechunk.rechunk(x, Chunks.of(lengths)) : x;
        List<List<List<Part>>> parts = new ArrayList<>();
        for (int axis = 0; axis < ndim; axis++) {
            parts.add(axisParts(lengths[axis], depths[axis], boundaries[axis]));
        }
        return new Plan(input, depths, boundaries, parts);
    }

    /**
     * Block lengths with every block at least {@code depth} long: blocks merged forwards until they
     * reach it, a short remainder joined to the last block. Unchanged when no block is too short.
     */
    static long[] atLeast(long[] lengths, long depth) {
        if (Arrays.stream(lengths).allMatch(length -> length >= depth)) {
            return lengths;
        }
        List<Long> merged = new ArrayList<>();
        long pending = 0;
        for (long length : lengths) {
            pending += length;
            if (pending >= depth && pending > 0) {
                merged.add(pending);
                pending = 0;
            }
        }
        if (pending > 0 || merged.isEmpty()) {
            if (merged.isEmpty()) {
                merged.add(pending);
            } else {
                merged.set(merged.size() - 1, merged.getLast() + pending);
            }
        }
        return merged.stream().mapToLong(Long::longValue).toArray();
    }

    /** For each block of the axis, where the enlarged block's pieces come from along this axis, in order. */
    private static List<List<Part>> axisParts(long[] lengths, long depth, Boundary boundary) {
        int count = lengths.length;
        List<List<Part>> all = new ArrayList<>(count);
        for (int block = 0; block < count; block++) {
            List<Part> parts = new ArrayList<>(3);
            if (depth > 0) {
                Part before = block > 0 ? Part.edge(block - 1, lengths[block - 1] - depth, depth, false, depth, lengths[block - 1], depth, false)
                        : boundaryPart(boundary, 0, lengths[0], count - 1, lengths[count - 1], depth, true);
                if (before != null) {
                    parts.add(before);
                }
            }
            parts.add(Part.center(block, lengths[block]));
            if (depth > 0) {
                Part after = block < count - 1 ? Part.edge(block + 1, 0, depth, false, depth, lengths[block + 1], depth, true)
                        : boundaryPart(boundary, block, lengths[block], 0, lengths[0], depth, false);
                if (after != null) {
                    parts.add(after);
                }
            }
            all.add(parts);
        }
        return all;
    }

    /** The ghost cells beyond one end of the axis ({@code atStart}: before block 0), or null for none. */
    private static Part boundaryPart(Boundary boundary, int edgeBlock, long edgeLength, int otherEndBlock, long otherEndLength, long depth, boolean atStart) {
        return switch (boundary.kind()) {
            case NONE -> null;
            case REFLECT -> Part.edge(edgeBlock, atStart ? 0 : edgeLength - depth, depth, true, depth, edgeLength, depth, atStart);
            case PERIODIC -> Part.edge(otherEndBlock, atStart ? otherEndLength - depth : 0, depth, false, depth, otherEndLength, depth, !atStart);
            case NEAREST -> Part.edge(edgeBlock, atStart ? 0 : edgeLength - 1, 1, false, depth, edgeLength, depth, atStart);
            case CONSTANT -> new Part(-1, 0, 0, false, depth, boundary.constant(), false, 0);
        };
    }

    /**
     * One piece of an enlarged block along one axis: {@code length} elements of block {@code block}
     * from {@code start} (backwards when reversed), stretched to {@code width} when they are a single
     * repeated edge element, or {@code width} copies of {@code constant} when that is set. A piece
     * other than the center lies within {@code depth} of one end of its block, and starts at {@code
     * edgeStart} in that block's edges ({@link Edges}: the first and the last {@code depth} along the
     * axis, one after the other).
     */
    record Part(int block, long start, long length, boolean reversed, long width, Number constant, boolean center, long edgeStart)
            implements Serializable {
        @Serial
        private static final long serialVersionUID = 2L;

        /** A piece from the first {@code depth} of its block ({@code atStart}) or the last, its block {@code blockLength} long. */
        static Part edge(int block, long start, long length, boolean reversed, long width, long blockLength, long depth, boolean atStart) {
            return new Part(block, start, length, reversed, width, null, false, atStart ? start : depth + start - (blockLength - depth));
        }

        static Part center(int block, long length) {
            return new Part(block, 0, length, false, length, null, true, 0);
        }
    }

    /** The rechunked input and, per axis and block, the parts of each enlarged block. */
    private record Plan(ChunkedArray input, long[] depth, Boundary[] boundaries, List<List<List<Part>>> parts) {
        String boundaryText() {
            return Arrays.toString(boundaries);
        }

        ChunkedArray build(String name, OverlapFunction function, Chunks outputChunks, DType outputDtype, Working functionWorking) {
            int ndim = input.ndim();
            Map<Key, Task> tasks = new LinkedHashMap<>();
            // The pieces a block gives its neighbours come from tasks of their own, one per axis and block, which copy
            // its edges along that axis: a neighbour's task then holds those edges rather than the whole block, which
            // the scheduler can drop once its own enlarged block and its edges are made.
            List<Map<Key, Task>> edges = new ArrayList<>(ndim);
            for (int axis = 0; axis < ndim; axis++) {
                edges.add(new LinkedHashMap<>());
            }
            BlockGrid.forEach(input.numBlocks(), index -> {
                List<List<Part>> blockParts = new ArrayList<>(ndim);
                for (int axis = 0; axis < ndim; axis++) {
                    blockParts.add(parts.get(axis).get(index[axis]));
                }
                List<Object> sources = new ArrayList<>();
                List<Integer> edgeAxes = new ArrayList<>();
                BlockGrid.forEach(blockParts.stream().mapToInt(List::size).toArray(), combination -> {
                    int[] source = new int[ndim];
                    boolean constant = false;
                    int edgeAxis = -1;
                    for (int axis = 0; axis < ndim; axis++) {
                        Part part = blockParts.get(axis).get(combination[axis]);
                        constant |= part.constant() != null;
                        source[axis] = part.block();
                        if (edgeAxis < 0 && !part.center()) {
                            edgeAxis = axis;
                        }
                    }
                    if (constant) {
                        sources.add(null);
                        edgeAxes.add(-1);
                    } else if (edgeAxis < 0) {
                        sources.add(input.key(source));
                        edgeAxes.add(-1);
                    } else {
                        Key edgeKey = Key.of(edgesName(name, edgeAxis), source);
                        edges.get(edgeAxis).putIfAbsent(edgeKey, Task.call(new Edges(edgeAxis, depth[edgeAxis]), input.key(source)));
                        sources.add(edgeKey);
                        edgeAxes.add(edgeAxis);
                    }
                });
                int[] fromEdges = edgeAxes.stream().mapToInt(Integer::intValue).toArray();
                tasks.put(Key.of(name, index), Task.call(new GhostBlock(blockParts, fromEdges, function, name), sources));
            });
            HighLevelGraph graph = input.graph();
            Set<String> reads = new java.util.LinkedHashSet<>(Set.of(input.name()));
            for (int axis = 0; axis < ndim; axis++) {
                if (edges.get(axis).isEmpty()) {
                    continue;
                }
                String edgesName = edgesName(name, axis);
                graph = graph.with(new MaterializedLayer(edgesName, edges.get(axis)), Set.of(input.name()));
                long[][] lengths = new long[ndim][];
                for (int other = 0; other < ndim; other++) {
                    lengths[other] = input.chunks().axis(other);
                }
                lengths[axis] = new long[input.numBlocks()[axis]];
                Arrays.fill(lengths[axis], 2 * depth[axis]);
                // A deferred block's two boxes are written straight into the edges: the result is all they allocate.
                graph = Footprints.blocks(graph, edgesName, Chunks.of(lengths), input.dtype(), Working.none());
                reads.add(edgesName);
            }
            graph = graph.with(new MaterializedLayer(name, tasks), reads);
            if (functionWorking != null) {
                graph = Footprints.declare(graph, name, new GhostWorking(parts, input.dtype().byteSize(), function == null ? 0 : outputDtype.byteSize(),
                        function == null ? Working.none() : functionWorking));
            }
            return new ChunkedArray(graph, name, outputChunks, ChunkedArray.metaOf(outputDtype, ndim));
        }

        private static String edgesName(String name, int axis) {
            return name + "-edges-" + axis;
        }
    }

    /**
     * The edges of a block along one axis: its first {@code depth} and its last {@code depth}
     * along it, one after the other, copied compact (2 x depth long on that axis, whole on the
     * others). A deferred block computes only those two boxes, straight into the result.
     */
    record Edges(int axis, long depth) implements TaskFunction, org.tessera.graph.Deferring {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) throws Exception {
            return applyDeferring(arguments);
        }

        @Override
        public boolean acceptsDeferred(int position) {
            return position == 0;
        }

        @Override
        public Object applyDeferring(List<Object> arguments) throws Exception {
            Object block = arguments.getFirst();
            long[] shape = DeferredBlock.shapeOf(block);
            long[] edgesShape = shape.clone();
            edgesShape[axis] = 2 * depth;
            NDArray edges = NDArray.empty(GhostBlock.dtypeOf(List.of(block)), edgesShape);
            long[] start = new long[shape.length];
            for (int end = 0; end < 2; end++) {
                start[axis] = end == 0 ? 0 : shape[axis] - depth;
                NDArray target = edges.slice(axis, end * depth, 1, depth);
                if (block instanceof DeferredBlock deferred) {
                    deferred.partInto(start, target);
                } else {
                    target.assign(Blocks.dense(block, "map_overlap").slice(axis, start[axis], 1, depth));
                }
            }
            return edges;
        }

        @Override
        public String displayName() {
            return "overlap-edges";
        }
    }

    /**
     * What a task of {@link GhostBlock} allocates besides its result. The enlarged block, which for
     * {@code overlap} is the result itself and for {@code mapOverlap} is allocated besides it; a
     * piece that a deferred neighbour makes on its own (a reversed or stretched edge, which cannot
     * be written in place), at most the pieces' elements; and for {@code mapOverlap} the function's
     * result whole, of which the trimmed result keeps only the block, and the function's own
     * temporaries.
     *
     * @param parts      per axis and block, the pieces of the enlarged block
     * @param itemSize   bytes per element of the enlarged block (the input's dtype)
     * @param outputItem bytes per element of the function's result; 0 for {@code overlap}, which has no function
     * @param function   the function's declared working memory, given the bytes of the array it returns
     */
    record GhostWorking(List<List<List<Part>>> parts, long itemSize, long outputItem, Working function) implements Working {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long bytes(Key key, long resultBytes) {
            int ndim = parts.size();
            if (key.rank() != ndim) {
                return 0;
            }
            long enlarged = 1;
            long straight = 1;
            for (int axis = 0; axis < ndim; axis++) {
                List<Part> pieces = parts.get(axis).get(Math.min(key.index(axis), parts.get(axis).size() - 1));
                long width = 0;
                long asIs = 0;
                for (Part part : pieces) {
                    width += part.width();
                    asIs += part.constant() == null && !part.reversed() && part.length() == part.width() ? part.width() : 0;
                }
                enlarged *= width;
                straight *= asIs;
            }
            // Pieces other than those copied straight: reversed or stretched edges, constants (which allocate nothing, counted anyway).
            long madeApart = (enlarged - straight) * itemSize;
            if (outputItem == 0) {
                return madeApart;
            }
            long functionResult = enlarged * outputItem;
            return enlarged * itemSize + madeApart + Math.max(0, functionResult - resultBytes) + function.bytes(key, functionResult);
        }
    }

    /**
     * Assembles one enlarged block from the pieces of its neighbours, then (for mapOverlap) applies
     * the function and trims the result back to the block. A neighbour still deferred (a random
     * block, a slice of one) computes only the box the enlarged block takes from it, so no
     * neighbour is made whole for the sake of its edge.
     */
    record GhostBlock(List<List<Part>> parts, int[] edgeAxes, OverlapFunction function, String label) implements TaskFunction, ReadsDeferredBlocks {
        @Serial
        private static final long serialVersionUID = 2L;

        @Override
        public Object apply(List<Object> arguments) throws Exception {
            return applyDeferring(arguments);
        }

        @Override
        public Object applyDeferring(List<Object> arguments) throws Exception {
            @SuppressWarnings("unchecked")
            List<Object> sources = (List<Object>) arguments.getFirst();
            int ndim = parts.size();
            long[] shape = new long[ndim];
            long[] before = new long[ndim];
            long[] centerLength = new long[ndim];
            for (int axis = 0; axis < ndim; axis++) {
                for (Part part : parts.get(axis)) {
                    if (part.center()) {
                        before[axis] = shape[axis];
                        centerLength[axis] = part.width();
                    }
                    shape[axis] += part.width();
                }
            }
            // Every element is written below, by a piece or a constant.
            NDArray enlarged = NDArray.empty(dtypeOf(sources), shape);
            int[] counts = parts.stream().mapToInt(List::size).toArray();
            List<int[]> combinations = new ArrayList<>();
            BlockGrid.forEach(counts, combination -> combinations.add(combination.clone()));
            for (int index = 0; index < combinations.size(); index++) {
                int[] combination = combinations.get(index);
                NDArray target = enlarged;
                Number constant = null;
                for (int axis = 0; axis < ndim; axis++) {
                    long offset = 0;
                    for (int earlier = 0; earlier < combination[axis]; earlier++) {
                        offset += parts.get(axis).get(earlier).width();
                    }
                    Part part = parts.get(axis).get(combination[axis]);
                    target = target.slice(axis, offset, 1, part.width());
                    if (part.constant() != null) {
                        constant = part.constant();
                    }
                }
                if (constant != null) {
                    fill(target, constant);
                } else {
                    copyPiece(sources.get(index), combination, edgeAxes[index], target);
                }
            }
            if (function == null) {
                return enlarged;
            }
            NDArray result = function.apply(enlarged);
            if (result == null || !Arrays.equals(result.shape(), shape)) {
                throw new IllegalStateException(label + ": the function returned " + (result == null ? "null" : "an array of shape "
                        + Shapes.format(result.shape())) + " for an enlarged block of shape " + Shapes.format(shape)
                        + "; it must keep the shape so that the ghost cells can be trimmed");
            }
            for (int axis = 0; axis < ndim; axis++) {
                result = result.slice(axis, before[axis], 1, centerLength[axis]);
            }
            return result;
        }

        /**
         * Copies into {@code target} what the parts of one combination take from {@code source}: a
         * deferred source writes its box straight into the target unless the parts reverse or
         * stretch it (a reflected or nearest edge, one element deep), a dense one gives a view.
         * A source that is a block's edges along {@code edgeAxis} (not -1) holds the part along
         * that axis at the part's place among them.
         */
        private void copyPiece(Object source, int[] combination, int edgeAxis, NDArray target) throws Exception {
            int ndim = parts.size();
            long[] boxStart = new long[ndim];
            long[] boxShape = new long[ndim];
            boolean asIs = true;
            for (int axis = 0; axis < ndim; axis++) {
                Part part = parts.get(axis).get(combination[axis]);
                boxStart[axis] = axis == edgeAxis ? part.edgeStart() : part.start();
                boxShape[axis] = part.length();
                asIs &= !part.reversed() && part.length() == part.width();
            }
            if (asIs && source instanceof DeferredBlock deferred) {
                deferred.partInto(boxStart, target);
                return;
            }
            NDArray piece = source instanceof DeferredBlock deferred ? deferred.part(boxStart, boxShape)
                    : box(Blocks.dense(source, "map_overlap"), boxStart, boxShape);
            for (int axis = 0; axis < ndim; axis++) {
                Part part = parts.get(axis).get(combination[axis]);
                if (part.reversed()) {
                    piece = piece.slice(axis, part.length() - 1, -1, part.length());
                }
            }
            target.assign(piece.broadcastTo(target.shape()));
        }

        /** The dtype of the sources: a dense one's, or that of an empty box of a deferred one. */
        static DType dtypeOf(List<Object> sources) throws Exception {
            Object deferred = null;
            for (Object source : sources) {
                if (source != null && !(source instanceof DeferredBlock)) {
                    return Blocks.dense(source, "map_overlap").dtype();
                }
                deferred = deferred == null ? source : deferred;
            }
            DeferredBlock block = (DeferredBlock) java.util.Objects.requireNonNull(deferred, "map_overlap: no block to enlarge");
            int ndim = block.shape().length;
            return block.part(new long[ndim], new long[ndim]).dtype();
        }

        private static NDArray box(NDArray block, long[] start, long[] shape) {
            NDArray view = block;
            for (int axis = 0; axis < shape.length; axis++) {
                if (start[axis] != 0 || shape[axis] != block.shape(axis)) {
                    view = view.slice(axis, start[axis], 1, shape[axis]);
                }
            }
            return view;
        }

        private static void fill(NDArray target, Number constant) {
            boolean integral = constant instanceof Long || constant instanceof Integer || constant instanceof Short || constant instanceof Byte;
            if (integral && target.dtype().kind() != DType.Kind.FLOAT && target.dtype().kind() != DType.Kind.COMPLEX) {
                target.fill(constant.longValue());
            } else {
                target.fill(constant.doubleValue());
            }
        }

        @Override
        public String displayName() {
            return function == null ? "overlap" : "map-overlap";
        }
    }

    private static DType outputDtype(ChunkedArray x, OverlapFunction function) {
        try {
            NDArray result = function.apply(ChunkedArray.metaOf(x.dtype(), x.ndim()));
            if (result != null) {
                return result.dtype();
            }
        } catch (Exception unsupportedOnEmptyBlocks) {
            // Many stencils cannot run on an empty array; the input's dtype is the usual answer then.
        }
        return x.dtype();
    }
}
