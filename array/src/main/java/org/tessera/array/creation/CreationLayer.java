package org.tessera.array.creation;

import java.io.Serial;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.blockwise.CombinesParts;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.graph.Deferring;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.BlockwiseArgument;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.memory.Footprint.PartMaking;
import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.RunCombiner;

/**
 * A new array whose blocks are made independently from their position: a blockwise layer with the
 * block index as its only argument, so an array of a million blocks is one small layer.
 */
public final class CreationLayer {
    private CreationLayer() {
    }

    /** Block axes are named with letters from this string (Dask uses the same idea). */
    public static final String AXIS_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

    /**
     * An array whose blocks {@code maker} makes, with no declaration of what it allocates besides
     * them: a memory plan names the layer as undeclared. Operations declare with
     * {@link #create(String, Chunks, AnyArray, String, BlockMaker, Working)}.
     */
    public static ChunkedArray create(String name, Chunks chunks, AnyArray<?> meta, String label, BlockMaker maker) {
        return create(name, chunks, meta, label, maker, null, false);
    }

    /** An array whose blocks {@code maker} makes, allocating {@code working} besides each block (see {@link Working}). */
    public static ChunkedArray create(String name, Chunks chunks, AnyArray<?> meta, String label, BlockMaker maker, Working working) {
        return create(name, chunks, meta, label, maker, working, false);
    }

    /** As {@link #create(String, Chunks, AnyArray, String, BlockMaker, Working)} for blocks read from a store (a plan counts the bytes read). */
    public static ChunkedArray createReading(String name, Chunks chunks, AnyArray<?> meta, String label, BlockMaker maker, Working working) {
        return create(name, chunks, meta, label, maker, java.util.Objects.requireNonNull(working, "working"), true);
    }

    private static ChunkedArray create(String name, Chunks chunks, AnyArray<?> meta, String label, BlockMaker maker, Working working, boolean reads) {
        String letters = AXIS_LETTERS.substring(0, chunks.ndim());
        Map<Character, Integer> counts = new HashMap<>();
        for (int axis = 0; axis < chunks.ndim(); axis++) {
            counts.put(letters.charAt(axis), chunks.blockCount(axis));
        }
        BlockwiseLayer layer = new BlockwiseLayer(name, letters, new MakeBlock(label, chunks, maker), List.of(BlockwiseArgument.blockIndex(letters)), counts, null);
        HighLevelGraph graph = HighLevelGraph.empty().with(layer, Set.of());
        if (working != null) {
            // A region maker makes each block, and each part, anew; other makers may return views (of an array given).
            Working parts = working.makingParts(partMaking(maker), false, maker instanceof RegionMaker || working.freshResults());
            graph = reads ? Footprints.declareReading(graph, name, parts) : Footprints.declare(graph, name, parts);
        }
        return new ChunkedArray(graph, name, chunks, meta);
    }

    /**
     * Whether {@code array} is read from a source block by block and the block at {@code index} is
     * one a reader can take rows of in slabs ({@link RegionSource#slabs}: a region inside one stored
     * chunk of a codec that decodes ranges, in a store where reading a chunk again costs no
     * transfer): a reader that nests the block's read task in its own and takes its result deferred
     * then reads only the rows it asks, where a reference to the block's own task would make the
     * block whole first.
     */
    public static boolean readsInSlabs(ChunkedArray array, int[] index) {
        if (!(array.graph().layer(array.name()) instanceof BlockwiseLayer layer) || !(layer.function() instanceof MakeBlock make)
                || !(make.maker() instanceof SourceBlocks blocks) || !blocks.source().readsSlabs() || !blocks.source().rereadsCheaply()) {
            return false;
        }
        Optional<RegionSource.SlabReader> reader = blocks.source().slabs(array.chunks().blockStart(index), array.chunks().blockShape(index));
        reader.ifPresent(RegionSource.SlabReader::close);
        return reader.isPresent();
    }

    /** How a reader that takes the blocks deferred gets a part of one: made box by box, read in slabs or made whole. */
    private static PartMaking partMaking(BlockMaker maker) {
        return switch (maker) {
            case RegionMaker regions -> regions.fillsInPlace() ? PartMaking.FILLED : PartMaking.MADE;
            case SourceBlocks ignored -> PartMaking.MADE;
            default -> PartMaking.WHOLE;
        };
    }

    /**
     * The task function: finds the block's shape and start from the chunks, then makes it. A reader
     * that takes deferred blocks gets one from a {@link RegionMaker}, which makes only the parts asked.
     */
    record MakeBlock(String label, Chunks chunks, BlockMaker maker) implements TaskFunction, Deferring, CombinesParts {
        @Serial
        private static final long serialVersionUID = 1L;

        /** A region maker that fills memory in place (the uniform generator) combines into it too. */
        @Override
        public boolean combinesParts(HighLevelGraph graph, BlockwiseLayer layer) {
            return fillsParts();
        }

        @Override
        public boolean fillsParts() {
            return maker instanceof RegionMaker regions && regions.fillsInPlace();
        }

        @Override
        public boolean combinesTransposedParts(int ndim, int[] axes) {
            return maker instanceof RegionMaker regions && regions.fillsInPlace() && regions.transposesInPlace(ndim, axes);
        }

        @Override
        public Object apply(List<Object> arguments) {
            int[] index = (int[]) arguments.getFirst();
            return maker.make(index, chunks.blockShape(index), chunks.blockStart(index));
        }

        @Override
        public boolean acceptsDeferred(int position) {
            return false;
        }

        @Override
        public Object applyDeferring(List<Object> arguments) {
            int[] index = (int[]) arguments.getFirst();
            return switch (maker) {
                case RegionMaker regions -> new DeferredRegion(regions, index, chunks.blockShape(index), chunks.blockStart(index));
                case SourceBlocks sources -> new SourceBlock(sources.source(), chunks.blockStart(index), chunks.blockShape(index));
                default -> apply(arguments);
            };
        }

        /** A stored block's source is told which region it will be asked for, so a remote store can fetch it ahead. */
        @Override
        public void prefetch(List<Object> arguments) {
            if (maker instanceof SourceBlocks sources && !arguments.isEmpty() && arguments.getFirst() instanceof int[] index) {
                sources.source().prefetch(chunks.blockStart(index), chunks.blockShape(index));
            }
        }

        @Override
        public boolean prefetches() {
            return maker instanceof SourceBlocks;
        }

        /**
         * A generated block is copied into each reader that takes it deferred, since each computes
         * only the parts it reads; a stored block is not (its reader computes it as before), so that
         * no chunk is decoded once per reader.
         */
        @Override
        public boolean defersCheaply() {
            return maker instanceof RegionMaker;
        }

        @Override
        public String displayName() {
            return label;
        }
    }

    /** A block of a region maker, made box by box. */
    private record DeferredRegion(RegionMaker maker, int[] index, long[] shape, long[] blockStart) implements DeferredBlock {
        @Override
        public long[] shape() {
            return shape.clone();
        }

        @Override
        public NDArray part(long[] start, long[] partShape) {
            return maker.makeRegion(index, shape, blockStart, start, partShape);
        }

        @Override
        public void partInto(long[] start, NDArray target) {
            maker.makeRegionInto(index, shape, blockStart, start, target);
        }

        @Override
        public boolean fillsInPlace() {
            return maker.fillsInPlace();
        }

        @Override
        public NDArray transposedPart(long[] start, long[] partShape, int[] axes) {
            return maker.makeRegionTransposed(index, shape, blockStart, start, partShape, axes);
        }

        @Override
        public void combineInto(long[] start, NDArray target, RunCombiner combiner) {
            maker.combineRegionInto(index, shape, blockStart, start, target, combiner);
        }

        @Override
        public boolean combinesInPlace() {
            return maker.fillsInPlace();
        }

        @Override
        public void combineTransposedInto(long[] start, long[] partShape, int[] axes, NDArray target, RunCombiner combiner) {
            maker.combineRegionTransposedInto(index, shape, blockStart, start, partShape, axes, target, combiner);
        }

        @Override
        public boolean combinesTransposedInPlace(int[] axes) {
            return maker.fillsInPlace() && maker.transposesInPlace(shape.length, axes);
        }

        /**
         * Each slab made straight into its place in the stack: a gather of scattered rows of a
         * random block asked a region and then a join per row (W6's gathers: 300 of the 650 MB its
         * run allocated).
         */
        @Override
        public NDArray slabs(int axis, long[] positions, long[] start, long[] partShape) {
            long[] slabStart = start.clone();
            slabStart[axis] = positions[0];
            long[] slabShape = partShape.clone();
            slabShape[axis] = 1;
            // A maker that fills memory in place makes float64; any other tells its dtype by its first slab.
            NDArray first = maker.fillsInPlace() ? null : maker.makeRegion(index, shape, blockStart, slabStart, slabShape);
            long[] stackedShape = partShape.clone();
            stackedShape[axis] = positions.length;
            NDArray stacked = NDArray.empty(first == null ? DType.FLOAT64 : first.dtype(), stackedShape);
            for (int rank = 0; rank < positions.length; rank++) {
                NDArray target = stacked.slice(axis, rank, 1, 1);
                if (rank == 0 && first != null) {
                    target.assign(first);
                } else {
                    slabStart[axis] = positions[rank];
                    maker.makeRegionInto(index, shape, blockStart, slabStart, target);
                }
            }
            return stacked;
        }
    }
}
