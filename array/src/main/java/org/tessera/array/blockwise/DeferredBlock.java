package org.tessera.array.blockwise;

import java.util.ArrayList;
import java.util.List;

import org.tessera.graph.Deferred;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.join.Joining;
import org.tessera.ndarray.ufunc.RunCombiner;

/**
 * A dense block not computed yet, which computes any box of itself on request: what the creation,
 * elementwise and transpose functions of a fused chain hand on when their reader takes deferred
 * values (see {@link org.tessera.graph.Deferring}). A reduction at the end of the chain then pulls
 * the block through in strips of a few rows that stay in cache, and no intermediate block is ever
 * made whole. A box of a deferred block holds exactly the values the whole block holds there.
 */
public interface DeferredBlock extends Deferred {

    /**
     * Elements of a strip, the part a reader pulls a deferred block through at a time: 2 MiB of
     * float64 (131 rows of a 2000-wide block). Each strip costs a round of calls through the chain's
     * parts and a partial, which the JIT compiles while a program's first computation runs. On the
     * AMD EPYC (Zen 3, 512 KiB L2, 32 MiB L3), against strips of 64 Ki elements: W1's first run
     * 1.16 s instead of 1.30-1.46 s and its later runs 0.80-0.90 s instead of 0.89-0.94 s, W4 0.57
     * instead of 0.69 s, R3 1.30 instead of 1.78 s, the rest within their spread. Earlier, on a
     * machine with a 2 MiB L2, (x + x.T).mean(0) over 25 blocks of 2000 x 2000 took 185 ms in strips
     * of 16 Ki elements, 190 in 32 Ki, 125 in 64 Ki, 130 in 128 Ki.
     */
    long STRIP_ELEMENTS = 262_144;

    /** Rows of {@code rowElements} elements each in a strip: at least one. */
    static long stripRows(long rowElements) {
        return Math.max(1, STRIP_ELEMENTS / Math.max(1, rowElements));
    }

    /**
     * Rows of each strip when {@code rows} rows are cut into as few strips as {@link #stripRows}
     * allows, all of about one height: a last strip much shorter than the others lays its parts out
     * differently in the strips' scratch memory, and then reaches into slabs the others left alone.
     */
    static long evenStripRows(long rowElements, long rows) {
        long most = stripRows(rowElements);
        return Math.ceilDiv(rows, Math.ceilDiv(Math.max(1, rows), most));
    }

    /** The shape of the whole block. */
    long[] shape();

    /** The box of the block from {@code start} with shape {@code shape}, computed alone. */
    NDArray part(long[] start, long[] shape) throws Exception;

    /**
     * Writes {@code part(start, target.shape())} into {@code target}; a block that can compute
     * straight into memory it is given (a random block, a join of pieces) saves the copy.
     */
    default void partInto(long[] start, NDArray target) throws Exception {
        target.assign(part(start, target.shape()));
    }

    /**
     * Whether {@link #partInto} writes the part straight into the memory it is given, with no
     * array of its own between (a random block does); otherwise it makes the part and copies it,
     * and a reader with memory of its own gains nothing by handing it over.
     */
    default boolean fillsInPlace() {
        return false;
    }

    /**
     * Combines {@code part(start, target.shape())} into {@code target}, a C-contiguous array of the
     * combiner's dtype that holds the ufunc's other operand (see {@link RunCombiner}). By default
     * the part is made and then combined; a block that {@linkplain #combinesInPlace combines in
     * place} combines its values as it makes them.
     */
    default void combineInto(long[] start, NDArray target, RunCombiner combiner) throws Exception {
        combineMade(part(start, target.shape()), target, combiner);
    }

    /** Whether {@link #combineInto} makes no part of its own (a random block does not); such a block is float64. */
    default boolean combinesInPlace() {
        return false;
    }

    /** Combines {@code transposedPart(start, shape, axes)} into {@code target}, as {@link #combineInto} does its parts. */
    default void combineTransposedInto(long[] start, long[] shape, int[] axes, NDArray target, RunCombiner combiner) throws Exception {
        combineMade(transposedPart(start, shape, axes), target, combiner);
    }

    /** Whether {@link #combineTransposedInto} makes no part of its own for these axes. */
    default boolean combinesTransposedInPlace(int[] axes) {
        return false;
    }

    /** Combines a part already made into {@code target}, laid out and typed as the target first where it is not. */
    static void combineMade(NDArray made, NDArray target, RunCombiner combiner) {
        NDArray values = made.isCContiguous() && made.dtype() == combiner.dtype() ? made : made.astype(combiner.dtype());
        combiner.combine(values.segment(), values.byteOffset(), target.segment(), target.byteOffset(), target.size());
    }

    /**
     * The slabs at {@code positions} (at least one, increasing) along {@code axis}, each the box
     * {@code start}/{@code shape} on the other axes (the entries for {@code axis} are not read),
     * stacked in that order along {@code axis}: what a gather of scattered rows asks. Each slab is
     * computed alone; a stored block reads them all in one pass.
     */
    default NDArray slabs(int axis, long[] positions, long[] start, long[] shape) throws Exception {
        long[] slabStart = start.clone();
        long[] slabShape = shape.clone();
        slabShape[axis] = 1;
        List<NDArray> slabs = new ArrayList<>(positions.length);
        for (long position : positions) {
            slabStart[axis] = position;
            slabs.add(part(slabStart, slabShape));
        }
        return Joining.concatenate(slabs, axis);
    }

    /** {@code part(start, shape).transpose(axes)}, which a block that can make it in that order makes contiguous. */
    default NDArray transposedPart(long[] start, long[] shape, int[] axes) throws Exception {
        return part(start, shape).transpose(axes);
    }

    @Override
    default NDArray force() throws Exception {
        return part(new long[shape().length], shape());
    }

    /** The shape of a value among block operands: a block's shape, an empty shape for a scalar. */
    static long[] shapeOf(Object operand) {
        return operand instanceof DeferredBlock deferred ? deferred.shape() : operand instanceof NDArray array ? array.shape() : new long[0];
    }

    /**
     * The part of an operand that meets the box {@code start}/{@code shape} of an output of
     * {@code ndim} axes under NumPy's broadcasting: trailing axes align, and an axis of length 1 is
     * kept whole. Blocks become views or computed parts; scalars stay as they are.
     */
    static Object cut(Object operand, int ndim, long[] start, long[] shape) throws Exception {
        if (!(operand instanceof DeferredBlock) && !(operand instanceof NDArray)) {
            return operand;
        }
        long[] own = shapeOf(operand);
        long[] ownStart = new long[own.length];
        long[] ownShape = own.clone();
        for (int axis = 0; axis < own.length; axis++) {
            int outputAxis = ndim - own.length + axis;
            if (own[axis] != 1) {
                ownStart[axis] = start[outputAxis];
                ownShape[axis] = shape[outputAxis];
            }
        }
        if (operand instanceof DeferredBlock deferred) {
            return deferred.part(ownStart, ownShape);
        }
        NDArray view = (NDArray) operand;
        for (int axis = 0; axis < own.length; axis++) {
            if (ownShape[axis] != own[axis]) {
                view = view.slice(axis, ownStart[axis], 1, ownShape[axis]);
            }
        }
        return view;
    }

    /** Whether any of the values is deferred. */
    static boolean anyDeferred(List<Object> values) {
        for (Object value : values) {
            if (value instanceof Deferred) {
                return true;
            }
        }
        return false;
    }
}
