package org.tessera.array.slicing;

import java.io.Serial;
import java.util.Arrays;
import java.util.List;

import org.tessera.array.Blocks;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.array.blockwise.DefersOneBlock;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.index.Indexing;
import org.tessera.ndarray.memory.Scratch;

/**
 * The first of an unsorted gather's two steps (see {@link PointGather}): the slabs of one input
 * block at its distinct points along one axis, in increasing order, stacked compact. A block not
 * computed yet stays deferred, and a part of the picks asks the block only for the slabs under it:
 * picks of a generated block then cost nothing until read, and the optimiser copies them into the
 * gathers that read them, while picks of a stored block are a task that reads the block once.
 *
 * @param axis      the gathered axis
 * @param positions the distinct points within the block along {@code axis}, increasing
 */
record PickRows(int axis, long[] positions) implements DefersOneBlock {
    @Serial
    private static final long serialVersionUID = 1L;

    @Override
    public Object apply(List<Object> arguments) {
        NDArray block = Blocks.dense(arguments.getFirst(), "gather block");
        Index[] index = new Index[block.ndim()];
        Arrays.fill(index, Index.all());
        index[axis] = new Index.IntArray(GatherBlock.int64(positions));
        return Indexing.get(block, index);
    }

    @Override
    public DeferredBlock deferred(DeferredBlock block) {
        return new Picked(block, axis, positions);
    }

    @Override
    public String displayName() {
        return "take-picks";
    }

    /** The picks of a block not computed yet: each part asks the block for the slabs at its positions. */
    record Picked(DeferredBlock block, int axis, long[] positions) implements DeferredBlock {
        @Override
        public long[] shape() {
            long[] shape = block.shape();
            shape[axis] = positions.length;
            return shape;
        }

        @Override
        public NDArray part(long[] start, long[] shape) throws Exception {
            if (shape[axis] == 0) {
                long[] empty = shape.clone();
                empty[axis] = 0;
                long[] blockStart = start.clone();
                blockStart[axis] = 0;
                return block.part(blockStart, empty);
            }
            long[] chosen = Arrays.copyOfRange(positions, (int) start[axis], (int) (start[axis] + shape[axis]));
            // The slabs are made where the picks keep them: when they are the picks exactly (a
            // stored block's rows, whole), they are the result; a box narrower than the slabs (a
            // block at the edge of a slice) is copied out compact, so the picks do not hold the rest.
            // Made in scratch memory and copied out always, R4's picks went through the collector
            // twice (peak memory 412-464 MB against 361-417 MB).
            NDArray slabs = Scratch.outside(() -> block.slabs(axis, chosen, start, shape));
            return slabs.isCContiguous() && slabs.ownsData() ? slabs : slabs.copy();
        }

        @Override
        public NDArray slabs(int slabAxis, long[] ranks, long[] start, long[] shape) throws Exception {
            if (slabAxis != axis) {
                return DeferredBlock.super.slabs(slabAxis, ranks, start, shape);
            }
            long[] chosen = new long[ranks.length];
            for (int rank = 0; rank < ranks.length; rank++) {
                chosen[rank] = positions[(int) ranks[rank]];
            }
            return block.slabs(axis, chosen, start, shape);
        }
    }
}
