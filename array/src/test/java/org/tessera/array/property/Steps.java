package org.tessera.array.property;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.chunks.UnknownChunksException;
import org.tessera.array.creation.Creation;
import org.tessera.array.join.ChunkedJoining;
import org.tessera.array.overlap.Boundary;
import org.tessera.array.overlap.Overlap;
import org.tessera.array.reduction.ChunkedStatistics.Request;
import org.tessera.array.reduction.CumulativeScan;
import org.tessera.array.slicing.ChunkedIndex;
import org.tessera.array.slicing.Slicing;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.ufunc.Reductions.Options;
import org.tessera.ndarray.ufunc.Ufunc;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * The interpretation of each {@link Step.Kind} on the dense array (the reference) and on the chunked one.
 * Float products (prod, cumprod) and matmuls that may overflow are skipped ({@link #mayOverflow}):
 * where an infinity from an overflow meets a zero or an infinity of the other sign, the order of the
 * operations decides between NaN, an infinity and a finite value (a blocked scan computes
 * {@code c (b 0)} where NumPy computes {@code (c b) 0}; blocked float16 matmul partials overflow
 * where NumPy's float32 accumulation does not), which no tolerance can bound. So are float sums
 * (sum, nansum, cumsum) that may overflow ({@link #maySumOverflow}): near the largest finite value,
 * the rounding of one order overflows where another's stays finite.
 *
 * <p>The sign of a NaN is compared only where it is defined. Java leaves the bits of a NaN that an
 * operation makes from two NaNs unspecified, and HotSpot's code for {@code x[i] + y[i]} differs:
 * {@code (-nan) + nan} is nan in the interpreter and in C2's vectorised loop, -nan in C1's code and
 * in C2's scalar code (NumPy leaves it to the hardware and the C compiler too). The dense array and
 * the blocks run the same loops at different moments of the JIT's warm-up, so their NaNs may carry
 * either sign; the comparison treats every NaN as one value, and a step that reads the sign of a
 * NaN ({@link #readsNanSign}: signbit, copysign taking its sign from the array) is skipped while
 * the array holds a NaN.
 */
final class Steps {
    /** The dtypes of start arrays and of other operands. */
    static final DType[] DTYPES = {DType.BOOL, DType.INT8, DType.INT32, DType.INT64, DType.UINT8, DType.FLOAT32, DType.FLOAT64, DType.COMPLEX64,
            DType.COMPLEX128};

    private static final Ufunc[] UNARY = {Ufuncs.NEGATIVE, Ufuncs.ABSOLUTE, Ufuncs.SQUARE, Ufuncs.SQRT, Ufuncs.EXP, Ufuncs.SIN, Ufuncs.FLOOR,
            Ufuncs.SIGN, Ufuncs.LOGICAL_NOT, Ufuncs.ISNAN, Ufuncs.INVERT, Ufuncs.RINT, Ufuncs.POSITIVE, Ufuncs.RECIPROCAL, Ufuncs.SIGNBIT};
    private static final Ufunc[] BINARY = {Ufuncs.ADD, Ufuncs.SUBTRACT, Ufuncs.MULTIPLY, Ufuncs.TRUE_DIVIDE, Ufuncs.FLOOR_DIVIDE, Ufuncs.REMAINDER,
            Ufuncs.POWER, Ufuncs.MAXIMUM, Ufuncs.FMIN, Ufuncs.LESS_EQUAL, Ufuncs.NOT_EQUAL, Ufuncs.LOGICAL_XOR, Ufuncs.BITWISE_OR, Ufuncs.HYPOT,
            Ufuncs.ARCTAN2, Ufuncs.COPYSIGN};
    /** What may follow a reordered float sum: a last-bit difference stays within the tolerance. */
    private static final Ufunc[] UNARY_TOLERANT = {Ufuncs.NEGATIVE, Ufuncs.ABSOLUTE, Ufuncs.SQUARE, Ufuncs.POSITIVE};
    private static final Ufunc[] BINARY_TOLERANT = {Ufuncs.ADD, Ufuncs.SUBTRACT, Ufuncs.MULTIPLY, Ufuncs.MAXIMUM, Ufuncs.MINIMUM};
    private static final Object[] SCALARS = {2L, 3L, 0.5, Boolean.TRUE, 0L, -1.5};

    private Steps() {
    }

    /** The dense array rejected a step, and so did the chunked one: the chain ends there. */
    static final class DenseRejected extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DenseRejected(RuntimeException cause) {
            super(cause.toString(), cause, false, false);
        }
    }

    /** The state after {@code step}, or null when it does not apply to this array. */
    static State apply(Step step, State state, Scheduler scheduler, String where) {
        SplittableRandom random = new SplittableRandom(step.seed());
        NDArray x = state.dense();
        int ndim = x.ndim();
        long[] shape = x.shape();
        return switch (step.kind()) {
            case UNARY -> {
                Ufunc ufunc = state.tolerant() ? pick(UNARY_TOLERANT, step.a()) : pick(UNARY, step.a());
                if (readsNanSign(ufunc, 0, x)) {
                    yield null;
                }
                yield both(state, scheduler, where, dense -> ufunc.apply(dense), chunked -> chunked.apply(ufunc), false);
            }
            case BINARY_SCALAR -> {
                Ufunc ufunc = state.tolerant() ? pick(BINARY_TOLERANT, step.a()) : pick(BINARY, step.a());
                Object scalar = state.tolerant() ? 2L : SCALARS[step.b() % SCALARS.length];
                boolean scalarFirst = step.c() % 2 == 1;
                if (readsNanSign(ufunc, scalarFirst ? 1 : 0, x)) {
                    yield null;
                }
                yield both(state, scheduler, where, dense -> scalarFirst ? ufunc.apply(scalar, dense) : ufunc.apply(dense, scalar),
                        chunked -> scalarFirst ? chunked(ufunc, scalar, chunked) : chunked(ufunc, chunked, scalar), false);
            }
            case BINARY_ARRAY -> {
                Ufunc ufunc = state.tolerant() ? pick(BINARY_TOLERANT, step.a()) : pick(BINARY, step.a());
                List<Long> otherShape = new ArrayList<>();
                int kept = random.nextInt(ndim + 1);
                if (ndim < 4 && random.nextInt(5) == 0) {
                    otherShape.add(1L + random.nextInt(2));
                }
                for (int axis = ndim - kept; axis < ndim; axis++) {
                    otherShape.add(random.nextInt(3) == 0 ? 1L : shape[axis]);
                }
                DType otherDtype = step.b() % 2 == 0 ? x.dtype() : pick(DTYPES, step.b() / 2);
                NDArray other = Chain.values(longs(otherShape), otherDtype, random.nextLong());
                Object chunkedOther = step.c() % 4 == 0 ? other : chunkedFrom(other, random);
                boolean otherFirst = step.c() % 3 == 1;
                if (readsNanSign(ufunc, otherFirst ? 1 : 0, x)) {
                    yield null;
                }
                yield both(state, scheduler, where, dense -> otherFirst ? ufunc.apply(other, dense) : ufunc.apply(dense, other),
                        chunked -> otherFirst ? chunked(ufunc, chunkedOther, chunked) : chunked(ufunc, chunked, chunkedOther), false);
            }
            case REDUCE -> reduce(step, state, scheduler, where, random);
            case ARG_REDUCE -> {
                if (state.tolerant()) {
                    yield null;
                }
                Integer axis = ndim == 0 || step.b() % 3 == 0 ? null : step.b() % ndim - (step.c() % 2 == 0 ? 0 : ndim);
                boolean max = step.a() % 2 == 0;
                yield both(state, scheduler, where, dense -> max ? NDArrays.argmax(dense, axis, false) : NDArrays.argmin(dense, axis, false),
                        chunked -> axis == null ? (max ? chunked.argmax() : chunked.argmin()) : (max ? chunked.argmax(axis) : chunked.argmin(axis)), false);
            }
            case BASIC_INDEX -> {
                Index[] index = basicIndex(shape, random, true);
                yield both(state, scheduler, where, dense -> NDArrays.get(dense, index), chunked -> chunked.get(index), false);
            }
            case FANCY_INDEX -> fancy(step, state, scheduler, where, random);
            case BOOL_INDEX -> {
                if (ndim == 0) {
                    yield null;
                }
                int position = ndim > 1 && random.nextBoolean() ? 1 : 0;
                int axes = 1 + random.nextInt(ndim - position);
                NDArray mask = mask(Arrays.copyOfRange(shape, position, position + axes), random);
                boolean chunkedMask = step.c() % 2 == 1;
                ChunkedArray maskChunks = chunkedFrom(mask, random);
                List<Index> dense = new ArrayList<>();
                List<ChunkedIndex> items = new ArrayList<>();
                if (position == 1) {
                    dense.add(Index.all());
                    items.add(ChunkedIndex.of(Index.all()));
                }
                dense.add(Index.of(mask));
                items.add(chunkedMask ? ChunkedIndex.mask(maskChunks) : ChunkedIndex.of(Index.of(mask)));
                yield both(state, scheduler, where, array -> NDArrays.get(array, dense.toArray(Index[]::new)), chunked -> Slicing.get(chunked, items), false);
            }
            case SET_BASIC -> setBasic(step, state, scheduler, where, random);
            case SET_MASK -> {
                if (ndim == 0) {
                    yield null;
                }
                int axes = 1 + random.nextInt(ndim);
                NDArray mask = mask(Arrays.copyOf(shape, axes), random);
                ChunkedArray maskChunks = chunkedFrom(mask, random);
                boolean chunkedMask = step.c() % 2 == 1;
                yield both(state, scheduler, where, dense -> {
                    NDArray copy = dense.copy();
                    NDArrays.set(copy, NDArray.scalar(7L), Index.of(mask));
                    return copy;
                }, chunked -> chunkedMask ? Slicing.set(chunked, maskChunks, 7L) : Slicing.set(chunked, new Index[] {Index.of(mask)}, 7L), false);
            }
            case RECHUNK -> {
                Chunks target = Chain.chunksFor(shape, step.seed());
                yield switch (step.c() % 3) {
                    case 0 -> both(state, scheduler, where, dense -> dense, chunked -> chunked.rechunk(target), false);
                    case 1 -> both(state, scheduler, where, dense -> dense, chunked -> chunked.rechunk(ChunkSpec.size(1 + step.b() % 4)), false);
                    default -> both(state, scheduler, where, dense -> dense, chunked -> chunked.rechunk(target, 64 + step.b()), false);
                };
            }
            case RESHAPE -> {
                long[] target = reshapeTarget(x.size(), random);
                yield both(state, scheduler, where, dense -> dense.reshape(target), chunked -> chunked.reshape(target), false);
            }
            case TRANSPOSE -> {
                if (step.c() % 4 == 0) {
                    yield both(state, scheduler, where, NDArray::transpose, ChunkedArray::T, false);
                }
                int[] order = permutation(ndim, random);
                yield both(state, scheduler, where, dense -> dense.transpose(order), chunked -> chunked.transpose(order), false);
            }
            case CONCATENATE -> {
                if (ndim == 0) {
                    yield null;
                }
                int axis = step.a() % ndim;
                long[] otherShape = shape.clone();
                otherShape[axis] = random.nextInt(5);
                int signedAxis = step.b() % 2 == 0 ? axis : axis - ndim;
                yield join(step, state, scheduler, where, random, otherShape, list -> NDArrays.concatenate(list, signedAxis),
                        list -> ChunkedJoining.concatenate(list, signedAxis));
            }
            case STACK -> {
                int axis = step.a() % (ndim + 1);
                yield join(step, state, scheduler, where, random, shape, list -> NDArrays.stack(list, axis), list -> ChunkedJoining.stack(list, axis));
            }
            case MATMUL -> matmul(step, state, scheduler, where, random);
            case CUMULATIVE -> {
                boolean sum = step.a() % 2 == 0;
                Integer axis = ndim == 0 || step.c() % 3 == 0 ? null : step.c() % ndim;
                long along = axis == null ? x.size() : shape[axis];
                if (sum ? maySumOverflow(x, along) : mayOverflow(x, along)) {
                    yield null;
                }
                CumulativeScan.Method method = step.b() % 3 == 0 ? null : CumulativeScan.Method.values()[step.b() % 2];
                long terms = x.dtype().isInexact() ? Math.max(1, axis == null ? x.size() : shape[axis]) : 0;
                yield both(state, scheduler, where, dense -> sum ? NDArrays.cumsum(dense, axis, null) : NDArrays.cumprod(dense, axis, null), chunked -> {
                    if (axis == null) {
                        return sum ? chunked.cumsum() : chunked.cumprod();
                    }
                    if (method == null) {
                        return sum ? chunked.cumsum(axis) : chunked.cumprod(axis);
                    }
                    return sum ? chunked.cumsum(axis, method) : chunked.cumprod(axis, method);
                }, terms);
            }
            case MAP_OVERLAP -> {
                if (ndim == 0) {
                    yield null;
                }
                long[] depth = new long[ndim];
                for (int axis = 0; axis < ndim; axis++) {
                    depth[axis] = Math.min(random.nextInt(3), shape[axis]);
                }
                Boundary boundary = switch (step.c() % 5) {
                    case 0 -> Boundary.NONE;
                    case 1 -> Boundary.REFLECT;
                    case 2 -> Boundary.PERIODIC;
                    case 3 -> Boundary.NEAREST;
                    default -> Boundary.constant(3);
                };
                NeighbourSum function = new NeighbourSum(depth);
                yield both(state, scheduler, where, dense -> overlapByHand(dense, function, depth, boundary),
                        chunked -> Overlap.mapOverlap(chunked, function, depth, new Boundary[] {boundary}, null, function.working()), false);
            }
            case ASTYPE -> {
                DType target = pick(DTYPES, step.a());
                if (state.tolerant() && !target.isInexact()) {
                    yield null;
                }
                yield both(state, scheduler, where, dense -> dense.astype(target), chunked -> chunked.astype(target), false);
            }
            case COMPUTE_CHUNK_SIZES -> state.chunked().chunks().isKnown() ? null
                    : state.then(state.dense(), state.chunked().computeChunkSizes(scheduler), 0);
        };
    }

    private static State reduce(Step step, State state, Scheduler scheduler, String where, SplittableRandom random) {
        NDArray x = state.dense();
        int ndim = x.ndim();
        int[] axes;
        int mode = step.c() % 4;
        if (ndim == 0 || mode == 0) {
            axes = null;
        } else if (mode == 1) {
            axes = new int[0];
        } else {
            List<Integer> chosen = new ArrayList<>();
            for (int axis = 0; axis < ndim; axis++) {
                if ((step.b() >> axis & 1) == 1) {
                    chosen.add(random.nextBoolean() ? axis : axis - ndim);
                }
            }
            if (chosen.isEmpty()) {
                chosen.add(step.b() % ndim);
            }
            axes = chosen.stream().mapToInt(Integer::intValue).toArray();
        }
        boolean keepdims = step.a() % 2 == 1;
        int splitEvery = new int[] {2, 3, 4, Request.all().splitEvery()}[random.nextInt(4)];
        Request request = new Request(axes, keepdims, null, splitEvery);
        Options options = new Options(axes, null, keepdims, null, null);
        long ddof = random.nextInt(2);
        boolean inexact = x.dtype().isInexact();
        String[] names = {"sum", "prod", "min", "max", "mean", "any", "all", "var", "std", "nansum", "nanmean", "nanmax", "nanmin", "nanvar",
                "count_nonzero"};
        String name = names[step.a() / 2 % names.length];
        Function<NDArray, NDArray> dense = switch (name) {
            case "sum" -> array -> NDArrays.sum(array, options);
            case "prod" -> array -> NDArrays.prod(array, options);
            case "min" -> array -> NDArrays.min(array, options);
            case "max" -> array -> NDArrays.max(array, options);
            case "mean" -> array -> NDArrays.mean(array, options);
            case "any" -> array -> NDArrays.any(array, options);
            case "all" -> array -> NDArrays.all(array, options);
            case "var" -> array -> NDArrays.var(array, options, ddof);
            case "std" -> array -> NDArrays.std(array, options, ddof);
            case "nansum" -> array -> NDArrays.nansum(array, options);
            case "nanmean" -> array -> NDArrays.nanmean(array, options);
            case "nanmax" -> array -> NDArrays.nanmax(array, options);
            case "nanmin" -> array -> NDArrays.nanmin(array, options);
            case "nanvar" -> array -> NDArrays.nanvar(array, options, ddof);
            default -> array -> NDArrays.countNonzero(array, options);
        };
        Function<ChunkedArray, ChunkedArray> chunked = switch (name) {
            case "sum" -> array -> array.sum(request);
            case "prod" -> array -> array.prod(request);
            case "min" -> array -> array.min(request);
            case "max" -> array -> array.max(request);
            case "mean" -> array -> array.mean(request);
            case "any" -> array -> array.any(request);
            case "all" -> array -> array.all(request);
            case "var" -> array -> array.var(request, ddof);
            case "std" -> array -> array.std(request, ddof);
            case "nansum" -> array -> array.nansum(request);
            case "nanmean" -> array -> array.nanmean(request);
            case "nanmax" -> array -> array.nanmax(request);
            case "nanmin" -> array -> array.nanmin(request);
            case "nanvar" -> array -> array.nanvar(request, ddof);
            default -> array -> array.countNonzero(request);
        };
        long reduced = 1;
        for (int axis = 0; axis < ndim; axis++) {
            final int current = axis;
            if (axes == null || Arrays.stream(axes).anyMatch(chosen -> chosen == current || chosen == current - ndim)) {
                reduced *= x.shape(axis);
            }
        }
        if (name.equals("prod") && mayOverflow(x, reduced) || (name.equals("sum") || name.equals("nansum")) && maySumOverflow(x, reduced)) {
            return null;
        }
        boolean reorders = switch (name) {
            case "sum", "prod", "nansum" -> inexact;
            case "mean", "var", "std", "nanmean", "nanvar" -> true;
            default -> false;
        };
        return both(state, scheduler, where, dense, chunked, reorders ? Math.max(1, reduced) : 0);
    }

    /**
     * Whether {@code ufunc}, given the chain's array {@code x} as its operand number {@code operand},
     * reads the sign of a NaN of {@code x}: signbit does, and copysign of its second operand, while
     * {@code x} (of a real float dtype) holds a NaN. That sign is not specified (see the class comment).
     */
    static boolean readsNanSign(Ufunc ufunc, int operand, NDArray x) {
        boolean readsSign = ufunc == Ufuncs.SIGNBIT || ufunc == Ufuncs.COPYSIGN && operand == 1;
        if (!readsSign || x.dtype().kind() != DType.Kind.FLOAT) {
            return false;
        }
        NDArray flat = x.copy().reshape(x.size());
        for (long element = 0; element < flat.size(); element++) {
            if (Double.isNaN(flat.getDouble(element))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a product of {@code factors} elements of {@code x} may leave the dtype's finite range:
     * the largest magnitude to that power passes the largest finite value (complex parts count with
     * a factor of the square root of two).
     */
    static boolean mayOverflow(NDArray x, long factors) {
        if (!x.dtype().isInexact() || factors <= 1) {
            return false;
        }
        if (holdsInfinity(x)) {
            // An infinity already there meets a zero as one from an overflow would.
            return true;
        }
        double largest = magnitude(x);
        return largest > 1 && factors * Math.log(largest) >= Math.log(largestFinite(x.dtype()));
    }

    /**
     * Whether a sum of {@code terms} elements of {@code x} may leave the dtype's finite range in one
     * order of addition and not in another: the terms times the largest magnitude reach the largest
     * finite value. Rounding differs between orders (in float16 a running total rounds away terms a
     * block's own total keeps), so near that value one order overflows to an infinity where the other
     * stays finite, which no tolerance bounds. Infinities already there sum alike in every order.
     */
    static boolean maySumOverflow(NDArray x, long terms) {
        return x.dtype().isInexact() && terms > 1 && magnitude(x) * terms >= largestFinite(x.dtype());
    }

    /** Whether an element (either part of a complex one) is infinite. */
    private static boolean holdsInfinity(NDArray x) {
        NDArray flat = x.copy().reshape(x.size());
        for (long element = 0; element < flat.size(); element++) {
            if (x.dtype().isComplex() ? Double.isInfinite(flat.getComplex(element).real()) || Double.isInfinite(flat.getComplex(element).imag())
                    : Double.isInfinite(flat.getDouble(element))) {
                return true;
            }
        }
        return false;
    }

    /** The largest finite magnitude of the elements (either part of complex ones, times the square root of two). */
    private static double magnitude(NDArray x) {
        if (x.dtype().isInexact()) {
            return Comparison.largestMagnitude(x) * (x.dtype().isComplex() ? Math.sqrt(2) : 1);
        }
        double largest = 0;
        NDArray flat = x.copy().reshape(x.size());
        for (long element = 0; element < flat.size(); element++) {
            largest = Math.max(largest, x.dtype().isBool() ? (flat.getBoolean(element) ? 1 : 0) : Math.abs(flat.getDouble(element)));
        }
        return largest;
    }

    private static double largestFinite(DType dtype) {
        DType real = dtype.realType();
        return real == DType.FLOAT16 ? 65504 : real == DType.FLOAT32 ? Float.MAX_VALUE : Double.MAX_VALUE;
    }

    private static State fancy(Step step, State state, Scheduler scheduler, String where, SplittableRandom random) {
        NDArray x = state.dense();
        int ndim = x.ndim();
        if (ndim == 0) {
            return null;
        }
        int axis = step.a() % ndim;
        long length = x.shape(axis);
        int variant = step.c() % 4;
        int count = variant == 1 ? 2 * random.nextInt(4) : random.nextInt(7);
        long[] positions = new long[length == 0 ? 0 : count];
        for (int element = 0; element < positions.length; element++) {
            positions[element] = random.nextLong(-length, length);
        }
        NDArray indices = NDArrays.array(positions);
        if (variant == 1) {
            indices = indices.reshape(2, positions.length / 2);
        } else if (variant == 3) {
            indices = indices.astype(DType.INT32);
        }
        NDArray chosen = indices;
        List<Index> dense = new ArrayList<>();
        List<ChunkedIndex> items = new ArrayList<>();
        for (int before = 0; before < axis; before++) {
            dense.add(Index.all());
            items.add(ChunkedIndex.of(Index.all()));
        }
        dense.add(Index.of(chosen));
        items.add(variant == 2 ? ChunkedIndex.positions(chunkedFrom(chosen, random)) : ChunkedIndex.of(Index.of(chosen)));
        return both(state, scheduler, where, array -> NDArrays.get(array, dense.toArray(Index[]::new)), chunked -> Slicing.get(chunked, items), false);
    }

    private static State setBasic(Step step, State state, Scheduler scheduler, String where, SplittableRandom random) {
        NDArray x = state.dense();
        Index[] index = basicIndex(x.shape(), random, false);
        long[] selected;
        try {
            selected = NDArrays.get(x, index).shape();
        } catch (RuntimeException invalid) {
            return null;
        }
        int variant = step.c() % 4;
        Object value;
        NDArray valueArray;
        switch (variant) {
            case 0 -> {
                value = 7L;
                valueArray = NDArray.scalar(7L);
            }
            case 1 -> {
                value = 1.5;
                valueArray = NDArray.scalar(1.5);
            }
            default -> {
                int kept = random.nextInt(selected.length + 1);
                long[] valueShape = Arrays.copyOfRange(selected, selected.length - kept, selected.length);
                for (int axis = 0; axis < valueShape.length; axis++) {
                    if (random.nextInt(3) == 0) {
                        valueShape[axis] = 1;
                    }
                }
                DType valueDtype = new DType[] {DType.INT64, DType.FLOAT64, DType.BOOL, x.dtype()}[step.b() % 4];
                valueArray = Chain.values(valueShape, valueDtype, random.nextLong());
                value = variant == 2 ? valueArray : chunkedFrom(valueArray, random);
            }
        }
        NDArray assigned = valueArray;
        return both(state, scheduler, where, dense -> {
            NDArray copy = dense.copy();
            NDArrays.set(copy, assigned, index);
            return copy;
        }, chunked -> Slicing.set(chunked, index, value), false);
    }

    private static State join(Step step, State state, Scheduler scheduler, String where, SplittableRandom random, long[] otherShape,
            Function<List<NDArray>, NDArray> dense, Function<List<ChunkedArray>, ChunkedArray> chunked) {
        DType otherDtype = step.b() % 3 == 0 ? pick(DTYPES, step.b() / 3) : state.dense().dtype();
        NDArray other = Chain.values(otherShape, otherDtype, random.nextLong());
        ChunkedArray otherChunks = chunkedFrom(other, random);
        int order = step.c() % 3;
        return both(state, scheduler, where, array -> dense.apply(switch (order) {
            case 0 -> List.of(array, other);
            case 1 -> List.of(other, array);
            default -> List.of(array, other, array);
        }), array -> chunked.apply(switch (order) {
            case 0 -> List.of(array, otherChunks);
            case 1 -> List.of(otherChunks, array);
            default -> List.of(array, otherChunks, array);
        }), false);
    }

    private static State matmul(Step step, State state, Scheduler scheduler, String where, SplittableRandom random) {
        NDArray x = state.dense();
        int ndim = x.ndim();
        long[] shape = x.shape();
        long columns = random.nextInt(5);
        long[] otherShape;
        boolean otherFirst = false;
        int variant = step.c() % 3;
        if (ndim == 0) {
            otherShape = new long[] {2};
        } else if (ndim == 1) {
            otherShape = switch (variant) {
                case 0 -> new long[] {shape[0]};
                case 1 -> new long[] {shape[0], columns};
                default -> new long[] {columns, shape[0]};
            };
            otherFirst = variant == 2;
        } else if (variant == 0) {
            otherShape = new long[] {shape[ndim - 1], columns};
        } else if (variant == 1) {
            otherShape = new long[] {columns, shape[ndim - 2]};
            otherFirst = true;
        } else {
            otherShape = Arrays.copyOf(shape, ndim);
            for (int axis = 0; axis < ndim - 2; axis++) {
                if (random.nextInt(3) == 0) {
                    otherShape[axis] = 1;
                }
            }
            otherShape[ndim - 2] = shape[ndim - 1];
            otherShape[ndim - 1] = columns;
        }
        DType otherDtype = step.b() % 2 == 0 ? x.dtype() : pick(DTYPES, step.b() / 2);
        if (state.tolerant() && !otherDtype.isInexact()) {
            otherDtype = DType.FLOAT64;
        }
        NDArray other = Chain.values(otherShape, otherDtype, random.nextLong());
        ChunkedArray otherChunks = chunkedFrom(other, random);
        boolean first = otherFirst;
        DType resultType = org.tessera.ndarray.dtype.Promotion.resultType(x.dtype(), otherDtype);
        // Judged by the result, not the operands: int64 with uint64 gives float64 (as in NumPy), whose
        // sums of products past 2^53 round in the order of the addition.
        boolean reorders = resultType.isInexact();
        long depth = ndim == 0 ? 1 : first ? shape[Math.max(0, ndim - 2)] : shape[ndim - 1];
        long terms = reorders ? Math.max(1, depth) : 0;
        if (resultType.isInexact() && magnitude(x) * magnitude(other) * depth >= largestFinite(resultType)) {
            // A partial sum of products that overflows in the dtype (a block's, in float16) may meet an
            // infinity of the other sign where NumPy's sum, accumulated wider, stays finite until then.
            return null;
        }
        return both(state, scheduler, where, dense -> first ? NDArrays.matmul(other, dense) : NDArrays.matmul(dense, other),
                chunked -> first ? otherChunks.matmul(chunked) : chunked.matmul(otherChunks), terms);
    }

    /**
     * Applies a step to both arrays. A dense rejection (NumPy's error) must be a chunked one too,
     * when the chunked array is built or computed; a chunked operation that needs chunk sizes
     * after a boolean mask gets them computed first, as a Dask user calls compute_chunk_sizes().
     */
    private static State both(State state, Scheduler scheduler, String where, Function<NDArray, NDArray> dense,
            Function<ChunkedArray, ChunkedArray> chunked, boolean reorders) {
        return both(state, scheduler, where, dense, chunked, reorders ? 1 : 0);
    }

    /** {@link #both(State, Scheduler, String, Function, Function, boolean)} where the step adds {@code reorderedTerms} values an element in another order. */
    private static State both(State state, Scheduler scheduler, String where, Function<NDArray, NDArray> dense,
            Function<ChunkedArray, ChunkedArray> chunked, long reorderedTerms) {
        NDArray nextDense;
        try {
            nextDense = dense.apply(state.dense());
        } catch (RuntimeException rejected) {
            expectRejected(state, scheduler, where, chunked, rejected);
            throw new DenseRejected(rejected);
        }
        ChunkedArray nextChunked;
        try {
            nextChunked = chunked.apply(state.chunked());
        } catch (UnknownChunksException unknown) {
            if (state.chunked().chunks().isKnown()) {
                throw unknown;
            }
            nextChunked = chunked.apply(state.chunked().computeChunkSizes(scheduler));
        }
        return state.then(nextDense, nextChunked, nextDense.dtype().isInexact() ? reorderedTerms : 0);
    }

    private static void expectRejected(State state, Scheduler scheduler, String where, Function<ChunkedArray, ChunkedArray> chunked,
            RuntimeException rejected) {
        NDArray computed;
        try {
            ChunkedArray result = chunked.apply(state.chunked());
            if (!result.chunks().isKnown()) {
                result = result.computeChunkSizes(scheduler);
            }
            computed = result.compute(scheduler);
        } catch (RuntimeException alsoRejected) {
            return;
        }
        throw new AssertionError(where + ": the dense array rejects it (" + rejected + ") but the chunked array computes " + computed, rejected);
    }

    static ChunkedArray chunked(Ufunc ufunc, Object first, Object second) {
        if (first instanceof ChunkedArray chunked) {
            return chunked.apply(ufunc, second);
        }
        return org.tessera.array.blockwise.Elementwise.apply(ufunc, first, second);
    }

    /** An array as a chunked one with a chunking drawn from {@code random}. */
    static ChunkedArray chunkedFrom(NDArray values, SplittableRandom random) {
        return Creation.fromSource(RegionSource.of(values), ChunkSpec.explicit(Chain.chunking(values.shape(), random)));
    }

    /** A random boolean mask: all false, all true, or about a third or two thirds true. */
    private static NDArray mask(long[] shape, SplittableRandom random) {
        double density = new double[] {0, 0.35, 0.7, 1}[random.nextInt(4)];
        NDArray mask = NDArray.zeros(DType.BOOL, shape);
        NDArray flat = mask.reshape(mask.size());
        for (long element = 0; element < mask.size(); element++) {
            flat.setBoolean(random.nextDouble() < density, element);
        }
        return mask;
    }

    /**
     * A basic index: per axis the whole axis, an integer (negative ones too) or a slice with any
     * start and stop (out of range ones too) and a step of 1, 2, 3, -1 or -2; sometimes a new axis
     * ({@code newAxes}), an ellipsis for the first item, or fewer items than axes.
     */
    private static Index[] basicIndex(long[] shape, SplittableRandom random, boolean newAxes) {
        List<Index> items = new ArrayList<>();
        for (long length : shape) {
            int choice = random.nextInt(6);
            if (choice < 2) {
                items.add(Index.all());
            } else if (choice == 2 && length > 0) {
                items.add(Index.at(random.nextLong(-length, length)));
            } else {
                Long start = random.nextInt(3) == 0 ? null : random.nextLong(-length - 2, length + 3);
                Long stop = random.nextInt(3) == 0 ? null : random.nextLong(-length - 2, length + 3);
                long step = new long[] {1, 1, 2, 3, -1, -2}[random.nextInt(6)];
                items.add(Index.range(start, stop, step));
            }
        }
        if (!items.isEmpty() && random.nextInt(4) == 0) {
            items.subList(items.size() - 1 - random.nextInt(items.size()), items.size()).clear();
        }
        if (!items.isEmpty() && random.nextInt(5) == 0) {
            items.set(0, Index.ellipsis());
        }
        if (newAxes && random.nextInt(4) == 0) {
            items.add(random.nextInt(items.size() + 1), Index.newAxis());
        }
        return items.toArray(Index[]::new);
    }

    /** A shape of the same size: its prime factors dealt to up to four axes, sometimes one axis -1. */
    private static long[] reshapeTarget(long size, SplittableRandom random) {
        int axes = random.nextInt(size == 1 ? 0 : 1, 5);
        long[] target = new long[axes];
        Arrays.fill(target, 1);
        if (size == 0) {
            for (int axis = 0; axis < axes; axis++) {
                target[axis] = random.nextInt(4);
            }
            target[random.nextInt(axes)] = 0;
            return target;
        }
        long left = size;
        for (long factor = 2; left > 1; factor++) {
            while (left % factor == 0) {
                target[random.nextInt(axes)] *= factor;
                left /= factor;
            }
        }
        if (axes > 0 && random.nextInt(4) == 0) {
            target[random.nextInt(axes)] = -1;
        }
        return target;
    }

    private static int[] permutation(int ndim, SplittableRandom random) {
        int[] order = new int[ndim];
        for (int axis = 0; axis < ndim; axis++) {
            order[axis] = axis;
        }
        for (int axis = ndim - 1; axis > 0; axis--) {
            int other = random.nextInt(axis + 1);
            int kept = order[axis];
            order[axis] = order[other];
            order[other] = kept;
        }
        return order;
    }

    /** The dense reference of mapOverlap: the whole array padded by the boundary rule, the function, the padding cut off. */
    static NDArray overlapByHand(NDArray values, Overlap.OverlapFunction function, long[] depth, Boundary boundary) {
        try {
            if (boundary.kind() == Boundary.Kind.NONE) {
                return function.apply(values);
            }
            NDArray padded = values;
            for (int axis = 0; axis < values.ndim(); axis++) {
                padded = pad(padded, axis, depth[axis], boundary);
            }
            NDArray result = function.apply(padded);
            for (int axis = 0; axis < values.ndim(); axis++) {
                result = result.slice(axis, depth[axis], 1, values.shape(axis));
            }
            return result;
        } catch (RuntimeException failure) {
            throw failure;
        } catch (Exception failure) {
            throw new IllegalStateException(failure);
        }
    }

    private static NDArray pad(NDArray values, int axis, long depth, Boundary boundary) {
        long length = values.shape(axis);
        if (depth == 0) {
            return values;
        }
        if (boundary.kind() == Boundary.Kind.CONSTANT) {
            long[] edge = values.shape();
            edge[axis] = depth;
            NDArray constant = NDArrays.full(values.dtype(), boundary.constant().doubleValue(), edge);
            return NDArrays.concatenate(List.of(constant, values, constant), axis);
        }
        long[] sources = new long[(int) (length + 2 * depth)];
        for (int position = 0; position < sources.length; position++) {
            long inside = position - depth;
            sources[position] = inside >= 0 && inside < length ? inside : switch (boundary.kind()) {
                case REFLECT -> inside < 0 ? -inside - 1 : 2 * length - 1 - inside;
                case PERIODIC -> Math.floorMod(inside, length);
                default -> inside < 0 ? 0 : length - 1;
            };
        }
        return take(values, axis, sources);
    }

    private static NDArray take(NDArray values, int axis, long[] positions) {
        Index[] index = new Index[axis + 1];
        Arrays.fill(index, Index.all());
        index[axis] = Index.of(NDArrays.array(positions));
        return NDArrays.get(values, index);
    }

    /**
     * The overlap function of the chains: each element plus its next {@code depth[k]} neighbours
     * along every axis k, the last element of an axis standing in for those past the end (so only
     * elements within the depth are read, and the result is the block's shape and dtype).
     */
    record NeighbourSum(long[] depth) implements Overlap.OverlapFunction {
        private static final long serialVersionUID = 1L;

        /**
         * Its working memory, for memory plans: a copy of the enlarged block, and per shift a gather
         * and a sum of it. An enlarged block is at most (1 + 2 depth) times the block along each axis.
         */
        org.tessera.array.plan.Working working() {
            long copies = 1;
            long enlarged = 1;
            for (long axisDepth : depth) {
                copies += 2 * axisDepth;
                enlarged *= 1 + 2 * axisDepth;
            }
            return org.tessera.array.plan.Working.ofResult((double) copies * enlarged);
        }

        @Override
        public NDArray apply(NDArray block) {
            NDArray result = block.copy();
            for (int axis = 0; axis < block.ndim(); axis++) {
                long length = block.shape(axis);
                for (long shift = 1; shift <= depth[axis] && length > 0; shift++) {
                    long[] positions = new long[(int) length];
                    for (int position = 0; position < length; position++) {
                        positions[position] = Math.min(position + shift, length - 1);
                    }
                    result = Ufuncs.ADD.apply(result, take(block, axis, positions));
                }
            }
            return result.astype(block.dtype());
        }

        @Override
        public String toString() {
            return "NeighbourSum" + Arrays.toString(depth);
        }
    }

    private static <T> T pick(T[] choices, int choice) {
        return choices[choice % choices.length];
    }

    private static long[] longs(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).toArray();
    }
}
