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
import org.tessera.ndarray.memory.Scratch;

/**
 * Basic indexing of one block: a view made of one step per block axis (plus new axes), in index
 * order. Views cost nothing, so the task is cheap and the optimiser may inline it into its readers.
 *
 * <p>A block not computed yet ({@link DeferredBlock}) is not made whole: the selection stays
 * deferred, so its reader computes only what it reads, and the task costs nothing to repeat in
 * each reader that takes it deferred.
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
    public Object applyDeferring(List<Object> arguments) {
        if (!(arguments.getFirst() instanceof DeferredBlock block)) {
            return apply(arguments);
        }
        long[] inputShape = block.shape();
        List<Long> shape = new ArrayList<>();
        int axis = 0;
        for (Step step : steps) {
            switch (step) {
                case Keep ignored -> shape.add(inputShape[axis++]);
                case Range range -> {
                    shape.add(range.count());
                    axis++;
                }
                case At ignored -> axis++;
                case Insert ignored -> shape.add(1L);
            }
        }
        return new DeferredSelection(block, steps, shape.stream().mapToLong(Long::longValue).toArray());
    }

    @Override
    public boolean defersCheaply() {
        return true;
    }

    /**
     * What the steps select of a deferred block, itself deferred: a part of it computes the box of
     * the block around the part's elements and selects them from it, copied compact when the box
     * holds more, so a step of 3 keeps a third of what it computed, not a view of all of it. A box
     * of more than a strip of rows is pulled through in strips, each in scratch memory that the
     * next reuses and each copied compact into the part: a stepped view of a stored chunk then
     * decodes the chunk slab by slab, where a whole box (32 MB for a 2000 x 2000 float64 chunk)
     * would be made only to keep a third of it.
     */
    record DeferredSelection(DeferredBlock block, List<Step> steps, long[] shape) implements DeferredBlock {
        @Override
        public long[] shape() {
            return shape.clone();
        }

        @Override
        public NDArray part(long[] start, long[] partShape) throws Exception {
            long stripRows = stripRows(partShape);
            if (stripRows == Long.MAX_VALUE || stripRows >= partShape[0]) {
                return selected(start, partShape, false);
            }
            NDArray part = null;
            Scratch scratch = Scratch.borrow();
            try {
                for (long row = 0; row < partShape[0]; row += stripRows) {
                    long[] stripStart = start.clone();
                    long[] stripShape = partShape.clone();
                    stripStart[0] += row;
                    stripShape[0] = Math.min(stripRows, partShape[0] - row);
                    NDArray strip = scratch.call(() -> selected(stripStart, stripShape, true));
                    if (part == null) {
                        // Outside the strips' scratch: the part lives as long as its reader wants it.
                        part = NDArray.empty(strip.dtype(), partShape);
                    }
                    part.slice(0, row, 1, stripShape[0]).assign(strip);
                    scratch.reset();
                }
            } finally {
                scratch.giveBack();
            }
            return part;
        }

        /** A selection that keeps a box of the block (no steps, no axes taken or added) has the block make the part in place. */
        @Override
        public void partInto(long[] start, NDArray target) throws Exception {
            if (!selectsBox()) {
                DeferredBlock.super.partInto(start, target);
                return;
            }
            block.partInto(box(start, target.shape(), false).start(), target);
        }

        @Override
        public boolean fillsInPlace() {
            return selectsBox() && block.fillsInPlace();
        }

        private boolean selectsBox() {
            return steps.stream().allMatch(step -> step instanceof Keep || step instanceof Range range && range.step() == 1);
        }

        /**
         * Output rows of a strip of {@code partShape}, or at least all of them where the part is not
         * pulled through in strips: the first step must keep the block's first axis in order (a
         * stepped view of a block with a negative step, or one that takes a single row, is computed
         * in one box), and the part must hold fewer elements than its box.
         */
        private long stripRows(long[] partShape) {
            if (partShape.length == 0 || partShape[0] <= 1) {
                return Long.MAX_VALUE;
            }
            long rowStep = forwardRowStep();
            if (rowStep == 0) {
                return Long.MAX_VALUE;
            }
            long[] blockShape = block.shape();
            long boxRowElements = 1;
            long partRowElements = 1;
            for (int axis = 1; axis < blockShape.length; axis++) {
                boxRowElements *= blockShape[axis];
            }
            for (int axis = 1; axis < partShape.length; axis++) {
                partRowElements *= partShape[axis];
            }
            if (rowStep == 1 && partRowElements >= boxRowElements) {
                return Long.MAX_VALUE;
            }
            return DeferredBlock.stripRows(boxRowElements * rowStep);
        }

        /**
         * The part's elements selected from the box around them. With {@code throughStep}, the
         * selection stays a view of the box, and the box runs on along the first axis to just
         * before the next strip's first row (within the block), so that consecutive strips ask
         * consecutive rows, which a stored chunk decodes as one run of slabs.
         */
        private NDArray selected(long[] start, long[] partShape, boolean throughStep) throws Exception {
            Box box = box(start, partShape, throughStep);
            NDArray whole = block.part(box.start(), box.shape());
            NDArray selected = view(whole, box.withinBox());
            // A strip's selection is copied compact into the part by its caller.
            return !throughStep && selected.size() < whole.size() ? selected.copy() : selected;
        }

        /**
         * Scattered rows of a selection that keeps the block's first axis in order are the block's
         * own scattered rows, asked all at once (a stored chunk then decodes in one pass); each slab
         * is cut to the selection on the other axes.
         */
        @Override
        public NDArray slabs(int axis, long[] positions, long[] start, long[] partShape) throws Exception {
            long step = forwardRowStep();
            if (axis != 0 || step == 0) {
                return DeferredBlock.super.slabs(axis, positions, start, partShape);
            }
            long[] slabStart = start.clone();
            long[] slabShape = partShape.clone();
            slabStart[0] = positions[0];
            slabShape[0] = 1;
            Box box = box(slabStart, slabShape, false);
            long[] rows = new long[positions.length];
            for (int rank = 0; rank < rows.length; rank++) {
                rows[rank] = box.start()[0] + step * (positions[rank] - positions[0]);
            }
            List<Step> withinRows = new ArrayList<>(box.withinBox());
            withinRows.set(0, new Keep());
            return view(block.slabs(0, rows, box.start(), box.shape()), withinRows);
        }

        /**
         * The step between the block rows of consecutive output rows where the first step keeps the
         * block's first axis in order (1 for the whole axis), else 0 (a negative step, one row taken).
         */
        private long forwardRowStep() {
            return switch (steps.getFirst()) {
                case Keep ignored -> 1;
                case Range range when range.step() > 0 -> range.step();
                default -> 0;
            };
        }

        /** The box of the block around a part's elements, and the steps that select them within it. */
        private record Box(long[] start, long[] shape, List<Step> withinBox) {
        }

        /**
         * The box around the part's elements; with {@code throughStep} it runs on along the first
         * axis to just before the next strip's first row (see {@link #selected}).
         */
        private Box box(long[] start, long[] partShape, boolean throughStep) {
            long[] blockShape = block.shape();
            long[] boxStart = new long[blockShape.length];
            long[] boxShape = new long[boxStart.length];
            List<Step> withinBox = new ArrayList<>(steps.size());
            int axis = 0;
            int output = 0;
            for (Step step : steps) {
                switch (step) {
                    case Keep keep -> {
                        boxStart[axis] = start[output];
                        boxShape[axis++] = partShape[output++];
                        withinBox.add(keep);
                    }
                    case Range range -> {
                        long count = partShape[output];
                        long first = range.start() + range.step() * start[output++];
                        long lowest = range.step() > 0 ? first : first + range.step() * (count - 1);
                        // An empty part asks an empty box at the block's start, wherever its range would begin.
                        boxStart[axis] = count == 0 ? 0 : lowest;
                        boxShape[axis] = count == 0 ? 0 : Math.abs(range.step()) * (count - 1) + 1;
                        if (throughStep && axis == 0 && count > 0) {
                            boxShape[axis] = Math.min(range.step() * count, blockShape[axis] - lowest);
                        }
                        axis++;
                        withinBox.add(count == 0 ? new Range(0, 1, 0) : new Range(first - lowest, range.step(), count));
                    }
                    case At at -> {
                        boxStart[axis] = at.position();
                        boxShape[axis++] = 1;
                        withinBox.add(new At(0));
                    }
                    case Insert insert -> {
                        output++;
                        withinBox.add(insert);
                    }
                }
            }
            return new Box(boxStart, boxShape, withinBox);
        }
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
