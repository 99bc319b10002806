package org.tessera.array.fft;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.tessera.array.ChunkedArray;
import org.tessera.array.blockwise.BlockInfo;
import org.tessera.array.blockwise.Elementwise;
import org.tessera.array.blockwise.MapBlocks;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.BlockMaker;
import org.tessera.array.creation.Creation;
import org.tessera.array.join.ChunkedJoining;
import org.tessera.array.plan.Working;
import org.tessera.array.rechunk.Rechunk;
import org.tessera.array.shape.AxisOrder;
import org.tessera.array.shape.Dimensions;
import org.tessera.array.shape.Reordering;
import org.tessera.array.slicing.Slicing;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.fft.Fft;
import org.tessera.ndarray.fft.FftNorm;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * One-dimensional transforms of a chunked array along one axis, whatever its chunking.
 *
 * <ul>
 *   <li>The axis is one block: a blockwise map of the NDArray transform, as Dask does (the blocks
 *       are transformed exactly as NumPy would transform them, {@code n} and {@code norm}
 *       included).</li>
 *   <li>The axis spans several blocks and its length N is composite: the four-step (Cooley-Tukey)
 *       decomposition N = N1 N2. The axis is viewed as (N1, N2) (each block a run of whole rows
 *       of N2, so the view is a reshape of every block), transformed along N1 in blocks that hold
 *       N1 whole, multiplied by the twiddles {@code exp(-+2 pi i n2 k1 / N)} in the same task,
 *       transformed along N2 in blocks that hold N2 whole, and read back transposed, (k1, k2) to
 *       (k2, k1), in blocks that hold N1 whole, which reshape to runs of the result. The three
 *       changes of blocks are rechunks under the task memory limit (Dask's planner, split and
 *       merge where a task would hold too much), so no task holds more than the limit and a
 *       threaded scheduler's memory budget spills what waits. Both factors must fit a block
 *       ({@code N1, N2 <= limit / 4 / itemsize}), so N up to the square of that: 10^13 points
 *       of complex128 under the default limit.</li>
 *   <li>N prime (or with no split whose factors fit): the axis is rechunked to one block when a
 *       line of N fits the block limit (the other axes then in smaller blocks), transformed, and
 *       rechunked back; otherwise Bluestein's algorithm across blocks: the chirp-multiplied input
 *       zero-padded to a power of two M &gt;= 2N - 1, convolved with the chirp by two chunked
 *       transforms of length M (four-step), and multiplied by the chirp again.</li>
 * </ul>
 *
 * <p>The result's blocks are stated before anything runs: the input's blocks along every other
 * axis, and along the transformed axis the input's blocks when the length is unchanged, cut at
 * {@code n} when it shrinks, or followed by blocks of the input's largest block length when it
 * grows (rfft: those of the full transform, cut at {@code n/2 + 1}; irfft: blocks of the input's
 * largest block length). The scale of {@code norm} is applied once, in the twiddle (or chirp)
 * step. Results agree with NumPy's to about 1e-15 relative to the largest magnitude (complex128).
 */
final class AxisTransform {
    /** The recursion of Bluestein's inner transforms never goes deeper than this. */
    private static final int MAX_DEPTH = 8;

    enum Kind { FFT, IFFT, RFFT, IRFFT }

    private final long taskMemoryBytes;
    private final long blockElements;
    private final DType work;

    private AxisTransform(long taskMemoryBytes, DType work) {
        this.taskMemoryBytes = taskMemoryBytes;
        this.work = work;
        // A task holds its input block, its output block and the transform's scratch: a block gets a quarter of the task.
        this.blockElements = Math.max(1, taskMemoryBytes / 4 / work.byteSize());
    }

    /** {@code numpy.fft.fft} / {@code ifft} along one axis. */
    static ChunkedArray complexToComplex(ChunkedArray x, Long n, int axis, FftNorm norm, boolean forward, long taskMemoryBytes) {
        return transform(forward ? Kind.FFT : Kind.IFFT, x, n, axis, norm, taskMemoryBytes);
    }

    static ChunkedArray transform(Kind kind, ChunkedArray x, Long n, int axis, FftNorm norm, long taskMemoryBytes) {
        FftNorm scaling = norm == null ? FftNorm.BACKWARD : norm;
        requireDense(x);
        if (taskMemoryBytes <= 0) {
            throw new IllegalArgumentException("chunked " + kind.name().toLowerCase(java.util.Locale.ROOT) + " of " + x
                    + ": the task memory limit must be positive, got " + taskMemoryBytes);
        }
        // The NDArray transform of a tiny array of the same dtype and axes raises what NumPy raises for these
        // arguments (a bad axis, n < 1, a complex input to rfft) and gives the result's dtype.
        DType resultType = probe(kind, x, n, axis, scaling);
        int ax = axis < 0 ? axis + x.ndim() : axis;
        long length = x.chunks().requireKnownShape("fft")[ax];
        long transformed = switch (kind) {
            case FFT, IFFT, RFFT -> n == null ? length : n;
            case IRFFT -> n == null ? 2 * (length - 1) : n;
        };
        if (transformed < 1) {
            throw new IllegalArgumentException("Invalid number of FFT data points (" + transformed + ") specified.");
        }
        long outLength = kind == Kind.RFFT ? transformed / 2 + 1 : transformed;
        if (x.size() == 0) {
            return zeros(x, ax, outLength, resultType);
        }
        if (x.chunks().blockCount(ax) == 1) {
            long[][] chunks = lengths(x.chunks());
            chunks[ax] = new long[] {outLength};
            // The NDArray transform: its result, and a copy of the block's size (cast to complex, or lines gathered along the axis).
            return MapBlocks.of(new NumpyBlock(kind, n, ax, scaling), x).chunks(chunks).dtype(resultType).label(label(kind))
                    .token(kind.name(), String.valueOf(n), ax, scaling.name()).working(Working.ofResult(1)).build();
        }
        DType workType = resultType.isComplex() ? resultType : resultType == DType.FLOAT64 ? DType.COMPLEX128 : DType.COMPLEX64;
        DType scaleType = Fft.realResultType(x.dtype());
        AxisTransform engine = new AxisTransform(taskMemoryBytes, workType);
        return switch (kind) {
            case FFT, IFFT -> {
                ChunkedArray y = cast(engine.resize(x, ax, transformed), workType);
                boolean forward = kind == Kind.FFT;
                yield engine.top(y, ax, forward, scaling.scale(transformed, forward, scaleType));
            }
            case RFFT -> {
                ChunkedArray y = cast(engine.resize(x, ax, transformed), workType);
                yield slice(engine.top(y, ax, true, scaling.scale(transformed, true, scaleType)), ax, 0, outLength);
            }
            case IRFFT -> {
                // The Hermitian-symmetric full spectrum: X_0 .. X_h-1, then conj(X_n-k) for k = h .. n-1. The real
                // part of its inverse ignores the imaginary parts of X_0 and X_n/2, as NumPy's c2r transform does.
                long half = transformed / 2 + 1;
                ChunkedArray head = engine.resize(cast(x, workType), ax, half);
                ChunkedArray full = head;
                long tail = transformed - half;
                if (tail > 0) {
                    ChunkedArray mirrored = Reordering.flip(slice(head, ax, 1, 1 + tail), ax);
                    full = ChunkedJoining.concatenate(List.of(head, MapBlocks.of(new Conjugate(), mirrored).dtype(workType).label("conj").working(Working.none()).build()), ax);
                }
                long[][] target = lengths(full.chunks());
                target[ax] = Chunks.regularAxis(transformed, largest(x.chunks().axis(ax)));
                full = engine.rechunk(full, Chunks.of(target));
                ChunkedArray spectrum = engine.top(full, ax, false, scaling.scale(transformed, false, scaleType));
                yield MapBlocks.of(new RealPart(resultType), spectrum).dtype(resultType).label("real").token(resultType.numpyName())
                    .working(Working.none()).build();
            }
        };
    }

    private static String label(Kind kind) {
        return kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    // ------------------------------------------------------------------ the chunked algorithms

    /** The transform with exactly {@code y}'s blocks (the blocks stated up front). */
    private ChunkedArray top(ChunkedArray y, int axis, boolean forward, double scale) {
        Chunks stated = y.chunks();
        ChunkedArray result = any(y, axis, forward, scale, true, 0);
        return rechunk(result, stated);
    }

    /**
     * The unscaled-then-scaled transform of {@code y} along {@code axis}, in whatever blocks the
     * algorithm ends with. {@code top}: the caller's axis, where a composite length goes through the
     * four-step even when a line would fit a block (the blocks stay as they are, the issue's
     * promise); an inner transform (Bluestein's) rechunks to whole lines whenever they fit.
     */
    private ChunkedArray any(ChunkedArray y, int axis, boolean forward, double scale, boolean top, int depth) {
        if (depth > MAX_DEPTH) {
            throw tooLarge(y, axis, "the transforms nest more than " + MAX_DEPTH + " deep");
        }
        long length = y.shape(axis);
        if (y.chunks().blockCount(axis) == 1) {
            return lineStep(y, axis, forward, scale, null);
        }
        long[] split = split(length, y.chunks().axis(axis));
        boolean fits = length <= blockElements;
        if (fits && (!top || split == null)) {
            return lineStep(rechunk(y, pencil(y, axis, -1)), axis, forward, scale, null);
        }
        if (split != null) {
            return fourStep(y, axis, forward, scale, split[0], split[1]);
        }
        return bluestein(y, axis, forward, scale, depth);
    }

    /** The four-step transform with N = n1 n2 (both fit a block). */
    private ChunkedArray fourStep(ChunkedArray y, int axis, boolean forward, double scale, long n1, long n2) {
        long length = y.shape(axis);
        // Blocks of whole rows of n2, so that each block views as (rows, n2).
        long[][] rows = lengths(y.chunks());
        rows[axis] = multiplesOf(n2, y.chunks().axis(axis), length, Math.max(n2, blockElements / Math.max(1, otherBlockElements(y.chunks(), axis, -1)) / n2 * n2));
        ChunkedArray v = rechunk(y, Chunks.of(rows));
        v = splitAxis(v, axis, n1, n2);
        // Along n1, every line whole; the twiddles (and the norm's scale) in the same task.
        v = rechunk(v, pencil(v, axis, axis + 1));
        v = lineStep(v, axis, forward, 1.0, new Twiddle(length, axis + 1, forward, scale));
        // Along n2, every line whole.
        v = rechunk(v, pencil(v, axis + 1, axis));
        v = lineStep(v, axis + 1, forward, 1.0, null);
        // (k1, k2) read as (k2, k1), k1 whole in every block, so that blocks are runs of the result.
        v = AxisOrder.swapaxes(v, axis, axis + 1);
        v = rechunk(v, pencil(v, axis + 1, axis));
        return mergeAxes(v, axis, n1, n2);
    }

    /** Bluestein's algorithm across blocks, for a prime length whose line does not fit a block. */
    private ChunkedArray bluestein(ChunkedArray y, int axis, boolean forward, double scale, int depth) {
        long length = y.shape(axis);
        long padded = Long.highestOneBit(2 * length - 2) << 1;
        if (split(padded, new long[] {padded}) == null) {
            throw tooLarge(y, axis, "Bluestein's padded length " + padded + " has no split into two factors of at most " + blockElements);
        }
        ChunkedArray chirped = chirpStep(y, axis, length, forward, 1.0);
        ChunkedArray a = any(resize(chirped, axis, padded), axis, true, 1.0, false, depth + 1);
        long[] axisBlocks = a.chunks().axis(axis);
        // The kernel is made in complex128, then cast where the transform works in complex64 (twice the result's bytes).
        ChunkedArray kernel = Creation.fromFunction(new ChirpKernel(length, padded, forward, work), new long[] {padded}, work,
                ChunkSpec.explicit(axisBlocks), "fft-chirp-kernel", work == DType.COMPLEX128 ? Working.none() : Working.ofResult(2));
        ChunkedArray kernelSpectrum = rechunk(any(kernel, 0, true, 1.0, false, depth + 1), Chunks.of(axisBlocks));
        int trailing = y.ndim() - 1 - axis;
        if (trailing > 0) {
            int[] positions = new int[trailing];
            Arrays.setAll(positions, position -> position + 1);
            kernelSpectrum = Dimensions.expandDims(kernelSpectrum, positions);
        }
        ChunkedArray product = Elementwise.apply(Ufuncs.MULTIPLY, a, kernelSpectrum);
        ChunkedArray convolved = any(product, axis, false, 1.0, false, depth + 1);
        return chirpStep(slice(convolved, axis, 0, length), axis, length, forward, scale / padded);
    }

    // ------------------------------------------------------------------ block layouts

    /**
     * Blocks that hold axis {@code whole} whole: the other axes keep their blocks, but the partner
     * axis (-1 for none) is cut, then the largest others, until a block holds at most the block
     * limit (never below one element per axis).
     */
    private Chunks pencil(ChunkedArray array, int whole, int partner) {
        Chunks chunks = array.chunks();
        long[] shape = chunks.shape();
        long[][] target = lengths(chunks);
        target[whole] = new long[] {shape[whole]};
        long[] blockLength = chunks.largestBlock();
        blockLength[whole] = shape[whole];
        if (partner >= 0) {
            long others = otherBlockElements(chunks, whole, partner);
            long room = blockElements / Math.max(1, shape[whole]) / Math.max(1, others);
            blockLength[partner] = Math.max(1, Math.min(shape[partner], room));
            target[partner] = Chunks.regularAxis(shape[partner], blockLength[partner]);
        }
        while (product(blockLength) > blockElements) {
            int widest = -1;
            for (int axis = 0; axis < shape.length; axis++) {
                if (axis != whole && blockLength[axis] > 1 && (widest < 0 || blockLength[axis] > blockLength[widest])) {
                    widest = axis;
                }
            }
            if (widest < 0) {
                break;
            }
            double fitting = Math.floor(blockLength[widest] * ((double) blockElements / product(blockLength)));
            blockLength[widest] = Math.max(1, (long) Math.max(blockLength[widest] / 2, fitting));
            target[widest] = Chunks.regularAxis(shape[widest], blockLength[widest]);
        }
        return Chunks.of(target);
    }

    /** The elements of the largest block over every axis but {@code skip} and {@code alsoSkip}. */
    private static long otherBlockElements(Chunks chunks, int skip, int alsoSkip) {
        long[] largest = chunks.largestBlock();
        long product = 1;
        for (int axis = 0; axis < largest.length; axis++) {
            if (axis != skip && axis != alsoSkip) {
                product *= Math.max(1, largest[axis]);
            }
        }
        return product;
    }

    /** Block lengths that are multiples of {@code unit} near the given boundaries, none over {@code most}. */
    static long[] multiplesOf(long unit, long[] blocks, long length, long most) {
        List<Long> result = new ArrayList<>();
        long previous = 0;
        long boundary = 0;
        for (long block : blocks) {
            boundary += block;
            long rounded = Math.min(length, Math.round((double) boundary / unit) * unit);
            while (rounded - previous > most) {
                result.add(most);
                previous += most;
            }
            if (rounded > previous) {
                result.add(rounded - previous);
                previous = rounded;
            }
        }
        if (previous < length) {
            result.add(length - previous);
        }
        return result.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * The split N = n1 n2 of the four-step, both factors at least 2 and at most the block limit;
     * null when there is none (N prime, or too large). Preferred: n2 dividing the block lengths (the
     * view of the axis as rows of n2 needs no rechunk), then n1 dividing them (the result reshapes
     * straight into the input's blocks), then factors near sqrt(N).
     */
    long[] split(long length, long[] blocks) {
        long[] best = null;
        double bestScore = Double.MAX_VALUE;
        for (long factor = 2; factor * factor <= length; factor++) {
            if (length % factor != 0) {
                continue;
            }
            for (long n1 : new long[] {factor, length / factor}) {
                long n2 = length / n1;
                if (n1 > blockElements || n2 > blockElements) {
                    continue;
                }
                double score = (dividesAll(n2, blocks) ? 0 : 20) + (dividesAll(n1, blocks) ? 0 : 10) + Math.abs(Math.log((double) n1 / n2));
                if (score < bestScore) {
                    bestScore = score;
                    best = new long[] {n1, n2};
                }
            }
        }
        return best;
    }

    private static boolean dividesAll(long unit, long[] blocks) {
        for (int block = 0; block < blocks.length - 1; block++) {
            if (blocks[block] % unit != 0) {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ layers

    private ChunkedArray lineStep(ChunkedArray v, int axis, boolean forward, double scale, Twiddle twiddle) {
        // The lines' transform, and a copy of its size where the result must be made writable (scaled, twiddled) or lines gathered.
        return MapBlocks.withBlockInfo(new LineStep(axis, forward, scale, twiddle), v).dtype(work).label(forward ? "fft-lines" : "ifft-lines")
                .token(axis, forward, scale, twiddle == null ? "none" : twiddle.toString()).working(Working.ofResult(1)).build();
    }

    private ChunkedArray chirpStep(ChunkedArray v, int axis, long length, boolean forward, double scale) {
        return MapBlocks.withBlockInfo(new ChirpStep(axis, length, forward, scale), v).dtype(work).label("fft-chirp")
                .token(axis, length, forward, scale).working(Working.none()).build();
    }

    /** Axis {@code axis} of length n1 n2 in blocks of whole rows of n2, as the two axes (n1, n2). */
    private ChunkedArray splitAxis(ChunkedArray v, int axis, long n1, long n2) {
        long[][] source = lengths(v.chunks());
        long[][] target = new long[source.length + 1][];
        for (int position = 0, from = 0; position < target.length; position++) {
            if (position == axis) {
                target[position] = Arrays.stream(source[axis]).map(rows -> rows / n2).toArray();
                from++;
            } else if (position == axis + 1) {
                target[position] = new long[] {n2};
            } else {
                target[position] = source[from++];
            }
        }
        // A view of the block, or its copy where it is not contiguous: the result either way.
        return MapBlocks.of(new SplitAxis(axis, n2), v).newAxis(axis + 1).chunks(target).dtype(work).label("fft-split")
                .token(axis, n1, n2).working(Working.none()).build();
    }

    /** Axes (k2, k1), k1 whole in every block, as one axis of k2 n1 + k1. */
    private ChunkedArray mergeAxes(ChunkedArray v, int axis, long n1, long n2) {
        long[][] source = lengths(v.chunks());
        long[][] target = new long[source.length - 1][];
        for (int position = 0, from = 0; position < target.length; position++, from++) {
            if (position == axis) {
                target[position] = Arrays.stream(source[axis]).map(rows -> rows * n1).toArray();
                from++;
            } else {
                target[position] = source[from];
            }
        }
        return MapBlocks.of(new MergeAxes(axis), v).dropAxis(axis + 1).chunks(target).dtype(work).label("fft-merge")
                .token(axis, n1, n2).working(Working.none()).build();
    }

    private ChunkedArray rechunk(ChunkedArray array, Chunks target) {
        return array.chunks().equals(target) ? array : Rechunk.rechunk(array, target, taskMemoryBytes);
    }

    /** {@code x} cut or zero-padded along {@code axis} to {@code length}. */
    private ChunkedArray resize(ChunkedArray x, int axis, long length) {
        long current = x.shape(axis);
        if (length == current) {
            return x;
        }
        if (length < current) {
            return slice(x, axis, 0, length);
        }
        long[] shape = x.shape();
        shape[axis] = length - current;
        long[][] chunks = lengths(x.chunks());
        chunks[axis] = Chunks.regularAxis(length - current, Math.max(1, largest(x.chunks().axis(axis))));
        ChunkedArray padding = Creation.zeros(shape, x.dtype(), ChunkSpec.explicit(chunks));
        return current == 0 ? padding : ChunkedJoining.concatenate(List.of(x, padding), axis);
    }

    static ChunkedArray slice(ChunkedArray x, int axis, long start, long stop) {
        if (start == 0 && stop == x.shape(axis)) {
            return x;
        }
        Index[] index = new Index[x.ndim()];
        Arrays.fill(index, Index.all());
        index[axis] = Index.range(start, stop, 1L);
        return Slicing.get(x, index);
    }

    private static ChunkedArray cast(ChunkedArray x, DType dtype) {
        return x.dtype() == dtype ? x : x.astype(dtype);
    }

    private static ChunkedArray zeros(ChunkedArray x, int axis, long length, DType dtype) {
        long[] shape = x.shape();
        shape[axis] = length;
        long[][] chunks = lengths(x.chunks());
        chunks[axis] = new long[] {length};
        return Creation.zeros(shape, dtype, ChunkSpec.explicit(chunks));
    }

    static long[][] lengths(Chunks chunks) {
        long[][] lengths = new long[chunks.ndim()][];
        Arrays.setAll(lengths, chunks::axis);
        return lengths;
    }

    private static long largest(long[] blocks) {
        return Arrays.stream(blocks).max().orElse(1);
    }

    private static long product(long[] values) {
        long product = 1;
        for (long value : values) {
            product = Math.multiplyHigh(product, value) != 0 ? Long.MAX_VALUE : product * value;
        }
        return product;
    }

    private IllegalArgumentException tooLarge(ChunkedArray y, int axis, String why) {
        return new IllegalArgumentException("cannot transform an array of shape " + Arrays.toString(y.shape()) + " in blocks " + y.chunks()
                + " along axis " + axis + " under a task memory limit of " + taskMemoryBytes + " bytes (blocks of at most " + blockElements + " "
                + work.numpyName() + " elements): " + why + "; raise the limit");
    }

    private static void requireDense(ChunkedArray x) {
        if (!(x.meta() instanceof NDArray)) {
            throw new UnsupportedOperationException("the chunked FFT needs dense (NDArray) blocks, but " + x + " has blocks of type "
                    + x.chunkType() + "; convert the chunks first");
        }
    }

    private static DType probe(Kind kind, ChunkedArray x, Long n, int axis, FftNorm norm) {
        long[] shape = new long[x.ndim()];
        Arrays.fill(shape, 1);
        if (axis >= -x.ndim() && axis < x.ndim()) {
            shape[axis < 0 ? axis + x.ndim() : axis] = 2;
        }
        NDArray sample = NDArray.zeros(x.dtype(), shape);
        Long probeN = n == null ? null : Long.valueOf(Math.min(n, 2));
        NDArray result = switch (kind) {
            case FFT -> Fft.fft(sample, probeN, axis, norm);
            case IFFT -> Fft.ifft(sample, probeN, axis, norm);
            case RFFT -> Fft.rfft(sample, probeN, axis, norm);
            case IRFFT -> Fft.irfft(sample, probeN, axis, norm);
        };
        return result.dtype();
    }

    // ------------------------------------------------------------------ block functions

    /** NumPy's transform of one block that holds the whole axis. */
    record NumpyBlock(Kind kind, Long n, int axis, FftNorm norm) implements MapBlocks.BlockMapper {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray apply(NDArray... blocks) {
            NDArray block = blocks[0];
            return switch (kind) {
                case FFT -> Fft.fft(block, n, axis, norm);
                case IFFT -> Fft.ifft(block, n, axis, norm);
                case RFFT -> Fft.rfft(block, n, axis, norm);
                case IRFFT -> Fft.irfft(block, n, axis, norm);
            };
        }
    }

    /** The four-step twiddle {@code exp(-+2 pi i n2 k1 / N)} times the norm's scale; k1 along the transformed axis, n2 along {@code otherAxis}. */
    record Twiddle(long length, int otherAxis, boolean forward, double scale) implements java.io.Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    /** Every line of the block along the axis transformed (unscaled), then scaled or twiddled. */
    record LineStep(int axis, boolean forward, double scale, Twiddle twiddle) implements MapBlocks.PositionedBlockMapper {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray apply(BlockInfo info, NDArray... blocks) {
            NDArray block = blocks[0];
            NDArray result = FftKernels.lines(block, axis, forward, twiddle == null ? scale : 1.0);
            if (twiddle != null) {
                result = owned(result, block);
                FftKernels.twiddle(result, axis, info.start()[axis], twiddle.otherAxis(), info.start()[twiddle.otherAxis()],
                        new UnitRoots(twiddle.length(), twiddle.forward() ? -1 : 1), twiddle.scale() * scale);
            }
            return result;
        }
    }

    /** The block multiplied by Bluestein's chirp {@code exp(-+pi i g^2 / N)} at global positions g along the axis, and a scale. */
    record ChirpStep(int axis, long length, boolean forward, double scale) implements MapBlocks.PositionedBlockMapper {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray apply(BlockInfo info, NDArray... blocks) {
            NDArray result = blocks[0].copy();
            FftKernels.chirp(result, axis, info.start()[axis], new UnitRoots(2 * length, forward ? -1 : 1), scale);
            return result;
        }
    }

    /**
     * Bluestein's convolution kernel of padded length M: {@code conj(chirp(r))} at m with
     * {@code r = min(m, M - m) < N}, zero elsewhere.
     */
    record ChirpKernel(long length, long padded, boolean forward, DType dtype) implements BlockMaker {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray make(int[] blockIndex, long[] blockShape, long[] blockStart) {
            NDArray block = NDArray.zeros(DType.COMPLEX128, blockShape);
            UnitRoots roots = new UnitRoots(2 * length, forward ? 1 : -1);
            double[] root = new double[2];
            java.lang.foreign.MemorySegment memory = block.segment();
            for (long position = 0; position < blockShape[0]; position++) {
                long m = blockStart[0] + position;
                long r = Math.min(m, padded - m);
                if (r < length) {
                    roots.root(UnitRoots.multiplyMod(r, r, 2 * length), root, 0);
                    long at = block.byteOffset() + 16 * position;
                    memory.set(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, at, root[0]);
                    memory.set(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, at + 8, root[1]);
                }
            }
            return dtype == DType.COMPLEX128 ? block : block.astype(dtype);
        }
    }

    /** A block of (rows n2) along the axis reshaped to (rows, n2). */
    record SplitAxis(int axis, long n2) implements MapBlocks.BlockMapper {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray apply(NDArray... blocks) {
            long[] shape = blocks[0].shape();
            long[] target = new long[shape.length + 1];
            for (int position = 0, from = 0; position < target.length; position++) {
                target[position] = position == axis ? shape[axis] / n2 : position == axis + 1 ? n2 : shape[from];
                if (position != axis + 1) {
                    from++;
                }
            }
            return blocks[0].reshape(target);
        }
    }

    /** A block of (rows, n1) at the axis reshaped to (rows n1). */
    record MergeAxes(int axis) implements MapBlocks.BlockMapper {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray apply(NDArray... blocks) {
            long[] shape = blocks[0].shape();
            long[] target = new long[shape.length - 1];
            for (int position = 0, from = 0; position < target.length; position++, from++) {
                target[position] = position == axis ? shape[axis] * shape[axis + 1] : shape[from];
                if (position == axis) {
                    from++;
                }
            }
            return blocks[0].ascontiguousarray().reshape(target);
        }
    }

    /** The complex conjugate of a block. */
    record Conjugate() implements MapBlocks.BlockMapper {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray apply(NDArray... blocks) {
            NDArray result = blocks[0].copy();
            FftKernels.conjugateInPlace(result);
            return result;
        }
    }

    /** The real part of a complex block, as the given dtype. */
    record RealPart(DType dtype) implements MapBlocks.BlockMapper {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray apply(NDArray... blocks) {
            return blocks[0].real().astype(dtype);
        }
    }

    /** {@code result} itself unless it shares memory with {@code input} or cannot be written in place. */
    private static NDArray owned(NDArray result, NDArray input) {
        java.lang.foreign.MemorySegment mine = result.segment();
        java.lang.foreign.MemorySegment theirs = input.segment();
        boolean shared = result == input || (mine.heapBase().isPresent() ? theirs.heapBase().isPresent() && mine.heapBase().get() == theirs.heapBase().get()
                : theirs.heapBase().isEmpty() && mine.address() == theirs.address());
        return shared ? result.copy() : FftKernels.writable(result);
    }
}
