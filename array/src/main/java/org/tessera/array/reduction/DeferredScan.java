package org.tessera.array.reduction;

import java.util.List;

import org.tessera.array.Blocks;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.memory.Scratch;
import org.tessera.ndarray.ufunc.Reductions;

/**
 * The scan of a block not computed yet, along one axis, itself deferred: a part of it folds the
 * block's slices before the part onto the running total in strips, keeping only that total, then
 * scans the part on from it. The strips go through scratch memory, so the scan's last slice of a block (all a
 * cumulative sum's carry, or {@code x.cumsum(0)[-1]}, reads of it) costs one pass over the block in
 * cache and no block-sized memory. Each slice is folded onto the running total as the whole block's
 * scan folds it, so the values are the whole scan's, bit for bit.
 *
 * <p>A reader that asks for consecutive parts (a reduction reading the scan in strips) would make
 * each part scan everything before it again; the running total at the end of the last part is kept,
 * so such a reader scans the block once. A deferred value lives inside one task, on one thread.
 */
final class DeferredScan implements DeferredBlock {
    private final CumulativeScan.Kind kind;
    private final int axis;
    private final DeferredBlock block;
    /** The running total after the last part asked, and where that part was: its end along the axis and its box on the other axes. */
    private NDArray lastTotal;
    private long lastEnd;
    private long[] lastStart;
    private long[] lastShape;

    DeferredScan(CumulativeScan.Kind kind, int axis, DeferredBlock block) {
        this.kind = kind;
        this.axis = axis;
        this.block = block;
    }

    @Override
    public long[] shape() {
        return block.shape();
    }

    @Override
    public NDArray part(long[] start, long[] shape) throws Exception {
        boolean continues = lastTotal != null && lastEnd <= start[axis] && sameBoxAcross(start, shape);
        NDArray total = continues ? lastTotal : null;
        long[] before = start.clone();
        long[] stripShape = shape.clone();
        long sliceElements = 1;
        for (int other = 0; other < shape.length; other++) {
            sliceElements *= other == axis ? 1 : shape[other];
        }
        long stripSlices = DeferredBlock.stripRows(sliceElements);
        Scratch scratch = Scratch.borrow();
        try {
            for (long position = continues ? lastEnd : 0; position < start[axis]; position += stripSlices) {
                before[axis] = position;
                stripShape[axis] = Math.min(stripSlices, start[axis] - position);
                NDArray carried = total;
                // The strip and its fold live in scratch memory; only the fold, the new running total, is kept.
                NDArray last = scratch.call(() -> lastOn(carried, block.part(before, stripShape)));
                total = Scratch.outside(last::copy);
                scratch.reset();
            }
        } finally {
            scratch.giveBack();
        }
        NDArray scanned = scanOn(total, block.part(start, shape));
        if (shape[axis] > 0) {
            lastTotal = Scratch.outside(lastSlice(scanned)::copy);
            lastEnd = start[axis] + shape[axis];
            lastStart = start.clone();
            lastShape = shape.clone();
        }
        return scanned;
    }

    /** Whether the box of {@code start}/{@code shape} on the axes other than the scanned one is the last part's. */
    private boolean sameBoxAcross(long[] start, long[] shape) {
        for (int other = 0; other < shape.length; other++) {
            if (other != axis && (start[other] != lastStart[other] || shape[other] != lastShape[other])) {
                return false;
            }
        }
        return true;
    }

    private NDArray lastSlice(NDArray scanned) {
        return scanned.slice(axis, scanned.shape(axis) - 1, 1, 1);
    }

    /**
     * The last slice of the scan of {@code values} continued from {@code total}: the slices folded
     * onto one, the scan's operations in its order, without writing its other slices (a third of
     * {@code y.cumsum(0)[-1].sum()}'s time). Only sums and products stay deferred, and neither skips NaN.
     */
    private NDArray lastOn(NDArray total, NDArray values) {
        return Reductions.accumulateLast(kind.combine, values, axis, total);
    }

    /** The scan of {@code values} continued from the running total {@code total} (one slice along the axis), or begun when it is null. */
    private NDArray scanOn(NDArray total, NDArray values) {
        if (total == null) {
            return CumulativeScan.blockScan(kind, values, axis, null);
        }
        NDArray scanned = CumulativeScan.blockScan(kind, (NDArray) Blocks.concatenate(List.of(total, values), axis), axis, null);
        return scanned.slice(axis, 1, 1, values.shape(axis));
    }
}
