package org.tessera.array.slicing;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import org.tessera.array.Blocks;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.graph.Deferring;
import org.tessera.graph.TaskFunction;
import org.tessera.ndarray.NDArray;

/**
 * Basic indexing of one block: a view made of one step per block axis (plus new axes), in index
 * order. Views cost nothing, so the task is cheap and the optimiser may inline it into its readers.
 *
 * <p>A block not computed yet ({@link DeferredBlock}) is not made whole: a box of it stays deferred
 * for the reader, and any other selection computes only the box around what it selects, copied
 * compact when it keeps less, so that the box's memory is not held by the view.
 */
record BlockSlice(List<Step> steps) implements TaskFunction, Deferring {
    @Serial
    private static final long serialVersionUID = 1L;

    BlockSlice {
        steps = List.copyOf(steps);
    }

    /** What happens to one block axis. */
    sealed interface Step extends Serializable {
    }

    /** The axis stays as it is. */
    record Keep() implements Step {
    }

    /** Elements {@code start}, {@code start + step}, ... ({@code count} of them). */
    record Range(long start, long step, long count) implements Step {
    }

    /** One position; the axis goes. */
    record At(long position) implements Step {
    }

    /** A new axis of length 1. */
    record Insert() implements Step {
    }

    @Override
    public Object apply(List<Object> arguments) {
        Object block = arguments.getFirst();
        return block instanceof NDArray dense ? view(dense, steps) : select(block, steps);
    }

    @Override
    public boolean acceptsDeferred(int position) {
        return position == 0;
    }

    @Override
    public Object applyDeferring(List<Object> arguments) throws Exception {
        if (!(arguments.getFirst() instanceof DeferredBlock block)) {
            return apply(arguments);
        }
        long[] shape = block.shape();
        long[] boxStart = new long[shape.length];
        long[] boxShape = shape.clone();
        List<Step> withinBox = new ArrayList<>(steps.size());
        boolean plainBox = true;
        int axis = 0;
        for (Step step : steps) {
            switch (step) {
                case Keep keep -> {
                    withinBox.add(keep);
                    axis++;
                }
                case Range range -> {
                    long first = range.count() == 0 ? 0 : range.step() > 0 ? range.start() : range.start() + range.step() * (range.count() - 1);
                    boxStart[axis] = first;
                    boxShape[axis] = range.count() == 0 ? 0 : Math.abs(range.step()) * (range.count() - 1) + 1;
                    withinBox.add(new Range(range.start() - first, range.step(), range.count()));
                    plainBox &= range.step() == 1 || range.count() <= 1;
                    axis++;
                }
                case At at -> {
                    boxStart[axis] = at.position();
                    boxShape[axis] = 1;
                    withinBox.add(new At(0));
                    plainBox = false;
                    axis++;
                }
                case Insert insert -> {
                    withinBox.add(insert);
                    plainBox = false;
                }
            }
        }
        if (plainBox) {
            return DeferredBlock.box(block, boxStart, boxShape);
        }
        NDArray box = block.part(boxStart, boxShape);
        NDArray selected = view(box, withinBox);
        return selected.size() < box.size() ? selected.copy() : selected;
    }

    /** What {@link #view} selects, for a block of another family, through its namespace. */
    static Object select(Object block, List<Step> steps) {
        Object result = block;
        int axis = 0;
        for (Step step : steps) {
            switch (step) {
                case Keep ignored -> axis++;
                case Range range -> {
                    result = Blocks.slice(result, axis, range.start(), range.step(), range.count());
                    axis++;
                }
                case At at -> result = Blocks.take(result, axis, at.position());
                case Insert ignored -> result = Blocks.expandDims(result, axis++);
            }
        }
        return result;
    }

    /** The view of {@code block} that {@code steps} select (writeable when the block is). */
    static NDArray view(NDArray block, List<Step> steps) {
        NDArray result = block;
        int axis = 0;
        for (Step step : steps) {
            switch (step) {
                case Keep ignored -> axis++;
                case Range range -> {
                    if (range.start() != 0 || range.step() != 1 || range.count() != result.shape(axis)) {
                        result = result.slice(axis, range.start(), range.step(), range.count());
                    }
                    axis++;
                }
                case At at -> result = result.take(axis, at.position());
                case Insert ignored -> result = result.expandDims(axis++);
            }
        }
        return result;
    }

    @Override
    public String displayName() {
        return "getitem";
    }

    @Override
    public boolean isCheap() {
        return true;
    }
}
