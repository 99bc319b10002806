package org.tessera.array.reduction;

import java.util.List;

import org.tessera.array.Blocks;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.memory.Scratch;

/**
 * The scan of a block not computed yet, along one axis, itself deferred: a part of it scans the
 * block's slices before the part in strips, keeping only the running total, then scans the part on
 * from that total. The strips go through scratch memory, so the scan's last slice of a block (all a
 * cumulative sum's carry, or {@code x.cumsum(0)[-1]}, reads of it) costs one pass over the block in
 * cache and no block-sized memory. Each slice is folded onto the running total as the whole block's
 * scan folds it, so the values are the whole scan's, bit for bit.
 */
record DeferredScan(CumulativeScan.Kind kind, int axis, DeferredBlock block) implements DeferredBlock {
    /** About how many elements a strip of slices holds. */
    private static final long STRIP_ELEMENTS = 65_536;

    @Override
    public long[] shape() {
        return block.shape();
    }

    @Override
    public NDArray part(long[] start, long[] shape) throws Exception {
        long[] before = start.clone();
        long[] stripShape = shape.clone();
        long sliceElements = 1;
        for (int other = 0; other < shape.length; other++) {
            sliceElements *= other == axis ? 1 : shape[other];
        }
        long stripSlices = Math.max(1, STRIP_ELEMENTS / Math.max(1, sliceElements));
        NDArray total = null;
        Scratch scratch = Scratch.borrow();
        try {
            for (long position = 0; position < start[axis]; position += stripSlices) {
                before[axis] = position;
                stripShape[axis] = Math.min(stripSlices, start[axis] - position);
                NDArray carried = total;
                // The strip's scan lives in scratch memory; only its last slice, the new running total, is kept.
                NDArray last = scratch.call(() -> {
                    NDArray scanned = scanOn(carried, block.part(before, stripShape));
                    return scanned.slice(axis, scanned.shape(axis) - 1, 1, 1);
                });
                total = last.copy();
                scratch.reset();
            }
        } finally {
            scratch.giveBack();
        }
        return scanOn(total, block.part(start, shape));
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
