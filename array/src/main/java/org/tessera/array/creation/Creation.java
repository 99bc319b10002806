package org.tessera.array.creation;

import java.util.SplittableRandom;

import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.Tokens;
import org.tessera.array.blockwise.Workings;
import org.tessera.array.chunks.ChunkNormalization;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Working;
import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.RunCombiner;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * Arrays made from nothing but their parameters, or read from a source region by region. Every
 * function has an overload with a trailing {@code like} argument (NumPy's {@code like=}, see
 * {@link LikeArrays}); the {@code ...Like} functions take shape, chunks and block type from a chunked
 * array. Negative lengths are refused with an IllegalArgumentException naming the shape.
 */
public final class Creation {
    private Creation() {
    }

    /**
     * An array over a source; each block reads its region (a view for an in-memory NDArray). A
     * source the library does not know is taken to decode at most a block's worth besides each
     * block; a reader that knows better says so with {@link #fromSource(RegionSource, ChunkSpec, Working)}
     * or {@link #fromStoredChunks}.
     */
    public static ChunkedArray fromSource(RegionSource source, ChunkSpec spec) {
        if (source instanceof RegionSource.ArraySource) {
            // Views of an array in memory: nothing is read from a store, nothing allocated.
            Chunks chunks = ChunkNormalization.normalize(spec, source.shape(), source.dtype());
            return CreationLayer.create(Tokens.name("array", source.identity(), chunks), chunks, ChunkedArray.metaOf(source.dtype(), chunks.ndim()), "read",
                    new SourceBlocks(source), Working.none());
        }
        return fromSource(source, spec, Working.ofResult(1));
    }

    /**
     * An array over a source whose reads allocate {@code working} besides each block (see
     * {@link Working}): {@code Working.none()} for a source that reads straight into the block.
     */
    public static ChunkedArray fromSource(RegionSource source, ChunkSpec spec, Working working) {
        Chunks chunks = ChunkNormalization.normalize(spec, source.shape(), source.dtype());
        String name = Tokens.name("array", source.identity(), chunks);
        return CreationLayer.createReading(name, chunks, ChunkedArray.metaOf(source.dtype(), chunks.ndim()), "read", new SourceBlocks(source), working);
    }

    /**
     * An array over a source kept in stored chunks of {@code chunkShape} (a Zarr array, a chunked
     * HDF5 dataset), each of which a read decodes whole: each block's read costs the chunks it
     * overlaps (see {@link StoredChunks}).
     */
    public static ChunkedArray fromStoredChunks(RegionSource source, ChunkSpec spec, long[] chunkShape) {
        return fromStoredChunks(source, spec, chunkShape, 1);
    }

    /** As {@link #fromStoredChunks(RegionSource, ChunkSpec, long[])} where decoding a chunk makes {@code copies} arrays of its size. */
    public static ChunkedArray fromStoredChunks(RegionSource source, ChunkSpec spec, long[] chunkShape, int copies) {
        Chunks chunks = ChunkNormalization.normalize(spec, source.shape(), source.dtype());
        String name = Tokens.name("array", source.identity(), chunks);
        return CreationLayer.createReading(name, chunks, ChunkedArray.metaOf(source.dtype(), chunks.ndim()), "read", new SourceBlocks(source),
                StoredChunks.reading(chunks, chunkShape, source.dtype().byteSize(), copies).readingSlabs(source.readsSlabs()));
    }

    /** {@link #fromSource(RegionSource, ChunkSpec)} in the array family of {@code like} (see {@link LikeArrays}). */
    public static ChunkedArray fromSource(RegionSource source, ChunkSpec spec, Object like) {
        return LikeArrays.inFamilyOf(fromSource(source, spec), like);
    }

    /**
     * An in-memory array in blocks, as Dask's {@code asarray}: each block is a view of its region, so
     * nothing is copied until a block is computed, and later writes to {@code array} are seen.
     */
    public static ChunkedArray asarray(NDArray array, ChunkSpec spec) {
        return fromSource(RegionSource.of(array), spec);
    }

    public static ChunkedArray asarray(NDArray array, ChunkSpec spec, Object like) {
        return LikeArrays.inFamilyOf(asarray(array, spec), like);
    }

    public static ChunkedArray zeros(long[] shape, DType dtype, ChunkSpec spec) {
        return filled("zeros", shape, 0, dtype, spec);
    }

    public static ChunkedArray zeros(long[] shape, DType dtype, ChunkSpec spec, Object like) {
        return LikeArrays.inFamilyOf(zeros(shape, dtype, spec), like);
    }

    public static ChunkedArray ones(long[] shape, DType dtype, ChunkSpec spec) {
        return filled("ones", shape, 1, dtype, spec);
    }

    public static ChunkedArray ones(long[] shape, DType dtype, ChunkSpec spec, Object like) {
        return LikeArrays.inFamilyOf(ones(shape, dtype, spec), like);
    }

    /**
     * An array whose values the caller must not rely on, as NumPy's {@code empty}. Its blocks are
     * zeros: allocating a block clears it anyway, so garbage would cost as much and help no one.
     */
    public static ChunkedArray empty(long[] shape, DType dtype, ChunkSpec spec) {
        return filled("empty", shape, 0, dtype, spec);
    }

    public static ChunkedArray empty(long[] shape, DType dtype, ChunkSpec spec, Object like) {
        return LikeArrays.inFamilyOf(empty(shape, dtype, spec), like);
    }

    public static ChunkedArray full(long[] shape, double value, DType dtype, ChunkSpec spec) {
        return filled("full", shape, value, dtype, spec);
    }

    public static ChunkedArray full(long[] shape, double value, DType dtype, ChunkSpec spec, Object like) {
        return LikeArrays.inFamilyOf(full(shape, value, dtype, spec), like);
    }

    /** Zeros with the shape, chunks, dtype and block type of {@code like}. */
    public static ChunkedArray zerosLike(ChunkedArray like) {
        return zerosLike(like, like.dtype());
    }

    /** Zeros of {@code dtype} with the shape, chunks and block type of {@code like}. */
    public static ChunkedArray zerosLike(ChunkedArray like, DType dtype) {
        return filledLike("zeros", like, 0, dtype);
    }

    public static ChunkedArray onesLike(ChunkedArray like) {
        return onesLike(like, like.dtype());
    }

    public static ChunkedArray onesLike(ChunkedArray like, DType dtype) {
        return filledLike("ones", like, 1, dtype);
    }

    /** As {@link #empty}: the values are zeros but must not be relied on. */
    public static ChunkedArray emptyLike(ChunkedArray like) {
        return emptyLike(like, like.dtype());
    }

    public static ChunkedArray emptyLike(ChunkedArray like, DType dtype) {
        return filledLike("empty", like, 0, dtype);
    }

    public static ChunkedArray fullLike(ChunkedArray like, double value) {
        return fullLike(like, value, like.dtype());
    }

    public static ChunkedArray fullLike(ChunkedArray like, double value, DType dtype) {
        return filledLike("full", like, value, dtype);
    }

    private static ChunkedArray filled(String label, long[] shape, double value, DType dtype, ChunkSpec spec) {
        Chunks chunks = ChunkNormalization.normalize(spec, requireDimensions(label, shape), dtype);
        return filled(label, chunks, value, dtype);
    }

    private static ChunkedArray filledLike(String label, ChunkedArray like, double value, DType dtype) {
        like.chunks().requireKnownShape(label + "Like");
        return LikeArrays.inFamilyOf(filled(label, like.chunks(), value, dtype), like);
    }

    private static ChunkedArray filled(String label, Chunks chunks, double value, DType dtype) {
        // Raw bits, so that -0.0 still fills (a float block of zeros holds +0.0).
        boolean zero = Double.doubleToRawLongBits(value) == 0;
        return CreationLayer.create(Tokens.name(label, value, dtype.numpyName(), chunks), chunks, ChunkedArray.metaOf(dtype, chunks.ndim()), label,
                (index, blockShape, start) -> zero ? NDArray.zeros(dtype, blockShape) : NDArrays.full(dtype, value, blockShape), Working.none());
    }

    /**
     * {@code shape} if no length is negative, else an IllegalArgumentException in NumPy's words that
     * names the operation and the shape.
     */
    static long[] requireDimensions(String operation, long... shape) {
        for (long length : shape) {
            if (length < 0) {
                throw new IllegalArgumentException(operation + ": negative dimensions are not allowed, got shape " + java.util.Arrays.toString(shape));
            }
        }
        return shape.clone();
    }

    /** {@code start, start + step, ...} below {@code stop}, as NumPy's arange with float steps. */
    public static ChunkedArray arange(double start, double stop, double step, DType dtype, ChunkSpec spec) {
        if (step == 0) {
            throw new IllegalArgumentException("arange: step must not be 0 (start " + start + ", stop " + stop + ")");
        }
        long length = Math.max(0, (long) Math.ceil((stop - start) / step));
        long[] shape = {length};
        Chunks chunks = ChunkNormalization.normalize(spec, shape, dtype);
        // positions() makes four float64 or int64 arrays of the block's length, then the cast to dtype is the block.
        Working positions = Workings.plus(Working.ofResult(4.0 * Long.BYTES / Math.max(1, dtype.byteSize())), Working.fixed(POSITIONS_SCALAR_BYTES));
        return CreationLayer.create(Tokens.name("arange", start, stop, step, dtype.numpyName(), chunks), chunks, ChunkedArray.metaOf(dtype, 1), "arange",
                (index, blockShape, blockStart) -> positions(blockStart[0], blockShape[0], start, step).astype(dtype), positions);
    }

    public static ChunkedArray arange(double start, double stop, double step, DType dtype, ChunkSpec spec, Object like) {
        return LikeArrays.inFamilyOf(arange(start, stop, step, dtype, spec), like);
    }

    /** {@code count} values from {@code start} to {@code stop}, as NumPy's linspace (endpoint included). */
    public static ChunkedArray linspace(double start, double stop, long count, ChunkSpec spec, Object like) {
        return LikeArrays.inFamilyOf(linspace(start, stop, count, spec), like);
    }

    public static ChunkedArray linspace(double start, double stop, long count, ChunkSpec spec) {
        if (count < 0) {
            throw new IllegalArgumentException("linspace: the number of samples must be non-negative, got " + count);
        }
        long[] shape = {count};
        Chunks chunks = ChunkNormalization.normalize(spec, shape, DType.FLOAT64);
        double step = count > 1 ? (stop - start) / (count - 1) : 0;
        return CreationLayer.create(Tokens.name("linspace", start, stop, count, chunks), chunks, ChunkedArray.metaOf(DType.FLOAT64, 1), "linspace",
                (index, blockShape, blockStart) -> {
                    NDArray values = positions(blockStart[0], blockShape[0], start, step);
                    if (count > 1 && blockStart[0] + blockShape[0] == count) {
                        values.setDouble(stop, blockShape[0] - 1);
                    }
                    return values;
                }, Workings.plus(Working.ofResult(3), Working.fixed(POSITIONS_SCALAR_BYTES)));
    }

    /** The 0-d arrays that the step and start of {@link #positions} become in the ufunc calls. */
    private static final long POSITIONS_SCALAR_BYTES = 2L * Double.BYTES;

    /** {@code start + (first + i) * step} for i below {@code length}, computed as NumPy computes it. */
    private static NDArray positions(long first, long length, double start, double step) {
        NDArray offsets = NDArrays.arange(first, first + length, 1).astype(DType.FLOAT64);
        return Ufuncs.ADD.apply(Ufuncs.MULTIPLY.apply(offsets, step), start);
    }

    /** Ones on the k-th diagonal of a rows x columns array. */
    public static ChunkedArray eye(long rows, long columns, long k, DType dtype, ChunkSpec spec, Object like) {
        return LikeArrays.inFamilyOf(eye(rows, columns, k, dtype, spec), like);
    }

    public static ChunkedArray eye(long rows, long columns, long k, DType dtype, ChunkSpec spec) {
        long[] shape = requireDimensions("eye", rows, columns);
        Chunks chunks = ChunkNormalization.normalize(spec, shape, dtype);
        return CreationLayer.create(Tokens.name("eye", rows, columns, k, dtype.numpyName(), chunks), chunks, ChunkedArray.metaOf(dtype, 2), "eye",
                (index, blockShape, start) -> {
                    NDArray block = NDArray.zeros(dtype, blockShape);
                    for (long row = 0; row < blockShape[0]; row++) {
                        long column = start[0] + row + k - start[1];
                        if (column >= 0 && column < blockShape[1]) {
                            block.setDouble(1, row, column);
                        }
                    }
                    return block;
                }, Working.none());
    }

    /**
     * Blocks computed by {@code maker} from their index, shape and start. What the maker allocates
     * besides its block is unknown here, so a memory plan names the layer as undeclared; declare it
     * with {@link #fromFunction(BlockMaker, long[], DType, ChunkSpec, String, Working)}.
     */
    public static ChunkedArray fromFunction(BlockMaker maker, long[] shape, DType dtype, ChunkSpec spec, String label) {
        return fromFunction(maker, shape, dtype, spec, label, (Working) null);
    }

    /**
     * Blocks computed by {@code maker}, which allocates {@code working} besides each block it
     * returns (see {@link Working}; {@code Working.none()} for a maker that allocates only its block).
     */
    public static ChunkedArray fromFunction(BlockMaker maker, long[] shape, DType dtype, ChunkSpec spec, String label, Working working) {
        Chunks chunks = ChunkNormalization.normalize(spec, requireDimensions(label, shape), dtype);
        String name = Tokens.name(label, maker.getClass().getName(), shape, dtype.numpyName(), chunks);
        AnyArray<?> meta = ChunkedArray.metaOf(dtype, shape.length);
        return working == null ? CreationLayer.create(name, chunks, meta, label, maker) : CreationLayer.create(name, chunks, meta, label, maker, working);
    }

    public static ChunkedArray fromFunction(BlockMaker maker, long[] shape, DType dtype, ChunkSpec spec, String label, Object like) {
        return LikeArrays.inFamilyOf(fromFunction(maker, shape, dtype, spec, label), like);
    }

    /** Which distribution a random array draws from. */
    public enum Distribution { UNIFORM, NORMAL }

    /**
     * Random values with one generator per block, seeded from the seed and the block index, so the
     * values do not depend on the scheduler, the thread count or the order blocks run in.
     */
    public static ChunkedArray random(long seed, Distribution distribution, long[] shape, ChunkSpec spec) {
        Chunks chunks = ChunkNormalization.normalize(spec, requireDimensions("random", shape), DType.FLOAT64);
        int[] counts = chunks.blockCounts();
        return CreationLayer.create(Tokens.name("random-" + distribution.name().toLowerCase(java.util.Locale.ROOT), seed, shape, chunks), chunks,
                ChunkedArray.metaOf(DType.FLOAT64, shape.length), "random", distribution == Distribution.UNIFORM ? new UniformBlocks(seed, counts)
                        : (index, blockShape, start) -> {
                            NDArray block = NDArray.zeros(DType.FLOAT64, blockShape);
                            SplittableRandom generator = blockGenerator(seed, index, counts);
                            long size = block.size();
                            java.lang.foreign.MemorySegment segment = block.segment();
                            long offset = block.byteOffset();
                            for (long element = 0; element < size; element++) {
                                segment.set(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, offset + element * 8, generator.nextGaussian());
                            }
                            return block;
                        }, Working.none());
    }

    /** Uniform blocks: the generator is counter-based, so any box of a block is made on its own. */
    private record UniformBlocks(long seed, int[] counts) implements RegionMaker {
        @Override
        public boolean fillsInPlace() {
            return true;
        }

        @Override
        public NDArray makeRegion(int[] blockIndex, long[] blockShape, long[] blockStart, long[] regionStart, long[] regionShape) {
            NDArray region = NDArray.empty(DType.FLOAT64, regionShape);
            SplitMixUniform.fillRegion(blockSeed(seed, blockIndex, counts), blockShape, regionStart, regionShape, region.segment(), region.byteOffset(),
                    region.byteStrides(), null);
            return region;
        }

        @Override
        public void makeRegionInto(int[] blockIndex, long[] blockShape, long[] blockStart, long[] regionStart, NDArray target) {
            if (!fillable(target)) {
                RegionMaker.super.makeRegionInto(blockIndex, blockShape, blockStart, regionStart, target);
                return;
            }
            SplitMixUniform.fillRegion(blockSeed(seed, blockIndex, counts), blockShape, regionStart, target.shape(), target.segment(), target.byteOffset(),
                    target.byteStrides(), null);
        }

        @Override
        public void combineRegionInto(int[] blockIndex, long[] blockShape, long[] blockStart, long[] regionStart, NDArray target, RunCombiner combiner) {
            if (!fillable(target) || combiner.dtype() != DType.FLOAT64) {
                RegionMaker.super.combineRegionInto(blockIndex, blockShape, blockStart, regionStart, target, combiner);
                return;
            }
            SplitMixUniform.fillRegion(blockSeed(seed, blockIndex, counts), blockShape, regionStart, target.shape(), target.segment(), target.byteOffset(),
                    target.byteStrides(), combiner);
        }

        /** A writeable float64 target whose rows are runs of consecutive elements. */
        private static boolean fillable(NDArray target) {
            int ndim = target.ndim();
            return target.dtype() == DType.FLOAT64 && target.isWriteable() && (ndim == 0 || target.shape(ndim - 1) <= 1 || target.byteStride(ndim - 1) == Double.BYTES);
        }

        @Override
        public boolean transposesInPlace(int ndim, int[] axes) {
            return ndim == 2 && axes[0] == 1;
        }

        @Override
        public NDArray makeRegionTransposed(int[] blockIndex, long[] blockShape, long[] blockStart, long[] regionStart, long[] regionShape, int[] axes) {
            if (!transposesInPlace(blockShape.length, axes)) {
                return RegionMaker.super.makeRegionTransposed(blockIndex, blockShape, blockStart, regionStart, regionShape, axes);
            }
            NDArray region = NDArray.empty(DType.FLOAT64, regionShape[1], regionShape[0]);
            SplitMixUniform.fillRegionTransposed(blockSeed(seed, blockIndex, counts), blockShape, regionStart, regionShape, region.segment(),
                    region.byteOffset(), null);
            return region;
        }

        @Override
        public void combineRegionTransposedInto(int[] blockIndex, long[] blockShape, long[] blockStart, long[] regionStart, long[] regionShape, int[] axes,
                NDArray target, RunCombiner combiner) {
            if (!transposesInPlace(blockShape.length, axes) || combiner.dtype() != DType.FLOAT64 || target.dtype() != DType.FLOAT64 || !target.isCContiguous()
                    || !target.isWriteable()) {
                RegionMaker.super.combineRegionTransposedInto(blockIndex, blockShape, blockStart, regionStart, regionShape, axes, target, combiner);
                return;
            }
            SplitMixUniform.fillRegionTransposed(blockSeed(seed, blockIndex, counts), blockShape, regionStart, regionShape, target.segment(),
                    target.byteOffset(), combiner);
        }
    }

    /** Random integers in {@code [low, high)}, seeded per block as {@link #random}. */
    public static ChunkedArray randomIntegers(long seed, long low, long high, long[] shape, ChunkSpec spec) {
        if (high <= low) {
            throw new IllegalArgumentException("random integers: low " + low + " must be below high " + high);
        }
        Chunks chunks = ChunkNormalization.normalize(spec, requireDimensions("random integers", shape), DType.INT64);
        int[] counts = chunks.blockCounts();
        return CreationLayer.create(Tokens.name("random-integers", seed, low, high, shape, chunks), chunks, ChunkedArray.metaOf(DType.INT64, shape.length),
                "random", (index, blockShape, start) -> {
                    SplittableRandom generator = blockGenerator(seed, index, counts);
                    NDArray block = NDArray.zeros(DType.INT64, blockShape);
                    for (long element = 0; element < block.size(); element++) {
                        block.segment().set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, block.byteOffset() + element * 8, generator.nextLong(low, high));
                    }
                    return block;
                }, Working.none());
    }

    private static SplittableRandom blockGenerator(long seed, int[] index, int[] counts) {
        return new SplittableRandom(blockSeed(seed, index, counts));
    }

    /** SplittableRandom mixes its seed (SplitMix64), so neighbouring seeds give unrelated streams. */
    static long blockSeed(long seed, int[] index, int[] counts) {
        long linear = 0;
        for (int axis = 0; axis < index.length; axis++) {
            linear = linear * counts[axis] + index[axis];
        }
        return seed * 0x9E3779B97F4A7C15L + linear;
    }
}
