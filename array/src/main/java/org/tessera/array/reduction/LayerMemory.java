package org.tessera.array.reduction;

import java.io.Serial;
import java.io.Serializable;

import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.LayerFootprint;
import org.tessera.array.plan.Working;
import org.tessera.graph.Key;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.memory.Footprint;

/**
 * The memory declarations that the reductions, rechunks, products, transforms and sorts share:
 * internal layers whose tasks return several arrays (a partial's count, sum and M2; a block's Q
 * and R) or a wrapper of them, counted as the scheduler counts what it holds; working memory in
 * proportion to an input block; and what a task that borrows a scratch may add to it.
 */
public final class LayerMemory {
    /** What the scheduler counts for an {@code NDArray[]} result beside its arrays (NDArraySizeOf). */
    static final long ARRAY_OF_ARRAYS_BYTES = 16;

    private LayerMemory() {
    }

    /**
     * {@code graph} with the internal layer {@code name} declared: each task returns an
     * {@code NDArray[]} of {@code arrays} arrays whose elements, all together, take
     * {@code itemBytes} per element of the block of {@code chunks} at its key (a count and a mean of
     * float64: 16), and allocates {@code working} besides.
     */
    public static HighLevelGraph arrays(HighLevelGraph graph, String name, Chunks chunks, long itemBytes, int arrays, Working working) {
        LayerFootprint blocks = new LayerFootprint(chunks, chunks, itemBytes, working, LayerFootprint.Traffic.NONE);
        return graph.withFootprint(name, new Parts(blocks, ARRAY_OF_ARRAYS_BYTES + (arrays - 1L) * LayerFootprint.HEADER_BYTES));
    }

    /**
     * {@code graph} with the internal layer {@code name} declared task by task: {@code result}, the
     * bytes the scheduler counts for a task's result (its arrays' data with a header each), and
     * {@code working}, what the task allocates besides. For layers of a few tasks whose results are
     * not blocks of one chunking (a decomposition's factors).
     */
    public static HighLevelGraph tasks(HighLevelGraph graph, String name, Bytes result, Bytes working) {
        return graph.withFootprint(name, new Tasks(result, working));
    }

    /** The bytes {@code arrays} arrays of {@code elements} elements of {@code itemSize} bytes each take as a result. */
    public static long arrayBytes(long elements, long itemSize, int arrays) {
        return arrays * (elements * itemSize + LayerFootprint.HEADER_BYTES) + (arrays > 1 ? ARRAY_OF_ARRAYS_BYTES : 0);
    }

    /**
     * An upper bound of what a task running in a scratch it borrowed allocates for {@code bytes} of
     * arrays carved from it. The allocation meter counts how far the task carves into the slabs, not
     * the slabs (they stay in the pool), and arrays are carved at multiples of
     * {@value #SCRATCH_ALIGNMENT} bytes: room for that rounding is left for up to
     * {@value #SCRATCH_ARRAYS} arrays.
     */
    public static long inScratch(long bytes) {
        if (bytes <= 0) {
            return 0;
        }
        return (bytes + SCRATCH_ALIGNMENT - 1) / SCRATCH_ALIGNMENT * SCRATCH_ALIGNMENT + SCRATCH_ARRAYS * SCRATCH_ALIGNMENT;
    }

    /** The alignment of arrays carved from a scratch's slabs. */
    static final long SCRATCH_ALIGNMENT = 64;
    /** How many arrays' rounding {@link #inScratch} leaves room for. */
    static final long SCRATCH_ARRAYS = 16;

    /**
     * Working memory in proportion to the block of {@code blocks} at the task's key (the input
     * block a partial is made of, which the result's size does not tell), to the result, and fixed.
     * A key of another rank than the blocks stands for the largest block.
     */
    public record PerBlock(Chunks blocks, double bytesPerElement, double timesResult, long fixed) implements Working {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long bytes(Key key, long resultBytes) {
            return (long) Math.ceil(elements(blocks, key) * bytesPerElement + timesResult * resultBytes) + fixed;
        }
    }

    /** The elements of the block of {@code blocks} at {@code key} (the largest for a key of another rank, the last past the end). */
    public static long elements(Chunks blocks, Key key) {
        long elements = 1;
        for (long length : blockShape(blocks, key)) {
            elements *= Math.max(0, length);
        }
        return elements;
    }

    /** The shape of the block of {@code blocks} at {@code key} (the largest for a key of another rank, the last past the end). */
    public static long[] blockShape(Chunks blocks, Key key) {
        if (key.rank() != blocks.ndim()) {
            return blocks.largestBlock();
        }
        long[] shape = new long[blocks.ndim()];
        for (int axis = 0; axis < shape.length; axis++) {
            shape[axis] = blocks.length(axis, Math.min(key.index(axis), blocks.blockCount(axis) - 1));
        }
        return shape;
    }

    /** Bytes of a task, by its key. */
    @FunctionalInterface
    public interface Bytes extends Serializable {
        long of(Key key);
    }

    /**
     * A layer of blocks whose tasks return an array of arrays (or an object wrapping them): the
     * blocks' footprint, with {@code extraBytes} more for each result than one array's header.
     */
    public record Parts(LayerFootprint blocks, long extraBytes) implements Footprint {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long resultBytes(Key key) {
            return blocks.resultBytes(key) + extraBytes;
        }

        @Override
        public long workingBytes(Key key) {
            return blocks.workingBytes(key);
        }

        @Override
        public long headerBytes(Key key) {
            return blocks.headerBytes(key) + extraBytes;
        }

        @Override
        public boolean declared() {
            return blocks.declared();
        }

        @Override
        public boolean pullsInParts() {
            return blocks.pullsInParts();
        }

        @Override
        public boolean asksRowParts() {
            return blocks.asksRowParts();
        }

        @Override
        public long pulledElements(Key key) {
            return blocks.pulledElements(key);
        }

        @Override
        public Footprint takingParts() {
            return new Parts(blocks.takingParts(), extraBytes);
        }

        @Override
        public Footprint takingOrdered() {
            return new Parts(blocks.takingOrdered(), extraBytes);
        }

        @Override
        public Footprint takingWhole() {
            return new Parts(blocks.takingWhole(), extraBytes);
        }

        /** The same results with another working memory. */
        public Parts withWorking(Working working) {
            return new Parts(new LayerFootprint(blocks.chunks(), blocks.bounds(), blocks.itemSize(), working, blocks.traffic()), extraBytes);
        }
    }

    /** A layer declared task by task. */
    public record Tasks(Bytes result, Bytes working) implements Footprint {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long resultBytes(Key key) {
            return result.of(key);
        }

        @Override
        public long workingBytes(Key key) {
            return working.of(key);
        }
    }
}
