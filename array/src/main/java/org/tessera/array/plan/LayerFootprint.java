package org.tessera.array.plan;

import java.io.Serial;

import org.tessera.array.chunks.Chunks;
import org.tessera.graph.Key;
import org.tessera.graph.memory.Footprint;

/**
 * The footprint of a layer of array blocks: each task's result is the block of its key, whose
 * shape the chunks give (or, where a length is unknown until computed, the bound an operation
 * declared: a mask keeps at most its input block), and its working memory is what the operation
 * declared. A result is counted at its data and a header, as the scheduler counts what it holds.
 *
 * @param chunks   the blocks of the layer
 * @param bounds   chunks no smaller than the blocks, for lengths {@code chunks} does not know; may be {@code chunks}
 * @param itemSize bytes per element
 * @param working  the operation's declaration, or null where it made none
 * @param traffic  whether each task reads its block from a store, writes it to one, or neither
 */
public record LayerFootprint(Chunks chunks, Chunks bounds, long itemSize, Working working, Traffic traffic) implements Footprint {
    @Serial
    private static final long serialVersionUID = 1L;

    /** What the scheduler counts for an array beside its data (see NDArraySizeOf). */
    public static final long HEADER_BYTES = 128;

    /** What a layer's tasks move to or from stores. */
    public enum Traffic { NONE, READS, WRITES }

    /** The bytes of data of block {@code key}: its shape's product times the item size. */
    public long blockBytes(Key key) {
        if (key.rank() != chunks.ndim()) {
            // A key of another rank (a scalar result, a partial) is not one of these blocks: the largest stands for it.
            long elements = 1;
            for (long length : bounds.largestBlock()) {
                elements *= Math.max(length, 0);
            }
            return elements * itemSize;
        }
        long elements = 1;
        for (int axis = 0; axis < chunks.ndim(); axis++) {
            int block = Math.min(key.index(axis), chunks.blockCount(axis) - 1);
            long length = chunks.length(axis, block);
            if (length == Chunks.UNKNOWN) {
                length = bounds.length(axis, Math.min(block, bounds.blockCount(axis) - 1));
            }
            elements *= Math.max(length, 0);
        }
        return elements * itemSize;
    }

    @Override
    public long resultBytes(Key key) {
        return traffic == Traffic.WRITES ? HEADER_BYTES : blockBytes(key) + HEADER_BYTES;
    }

    @Override
    public long workingBytes(Key key) {
        long data = blockBytes(key);
        return working == null ? 0 : working.bytes(key, data) + (traffic == Traffic.WRITES ? data : 0);
    }

    @Override
    public long bytesRead(Key key) {
        return traffic == Traffic.READS ? blockBytes(key) : 0;
    }

    @Override
    public long bytesWritten(Key key) {
        return traffic == Traffic.WRITES ? blockBytes(key) : 0;
    }

    @Override
    public boolean declared() {
        return working != null;
    }

    /**
     * The most elements of a part a reader pulls at once from a block it takes deferred: reductions
     * pull strips of 64 Ki elements (at least a row), and a block too short for two strips whole.
     */
    static final long PART_ELEMENTS = 2 * 65_536;

    /**
     * Where a reader pulls these blocks in parts, no block is made whole: a task holds a part of its
     * result (at most {@link #PART_ELEMENTS}, or two rows) and its working memory for that part.
     * Blocks read from a store are counted whole, since a read across the rows decodes its chunk
     * whole.
     */
    @Override
    public Footprint inParts() {
        return traffic == Traffic.READS ? this : new InParts(this);
    }

    @Override
    public boolean pullsInParts() {
        return working != null && working.pullsInParts();
    }

    @Override
    public LayerFootprint takingParts() {
        return working == null ? this : new LayerFootprint(chunks, bounds, itemSize, working.takingParts(), traffic);
    }

    /** The bytes of the part of block {@code key} a reader pulls at once. */
    long partBytes(Key key) {
        long rowElements = 1;
        if (key.rank() == chunks.ndim()) {
            for (int axis = 1; axis < chunks.ndim(); axis++) {
                long length = chunks.length(axis, Math.min(key.index(axis), chunks.blockCount(axis) - 1));
                rowElements *= Math.max(length == Chunks.UNKNOWN ? 1 : length, 1);
            }
        }
        return Math.min(blockBytes(key), Math.max(PART_ELEMENTS, 2 * rowElements) * itemSize);
    }

    /** The footprint of {@link #inParts}. */
    record InParts(LayerFootprint blocks) implements Footprint.Delegating {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Footprint delegate() {
            return blocks;
        }

        @Override
        public long resultBytes(Key key) {
            return blocks.partBytes(key) + HEADER_BYTES;
        }

        @Override
        public long workingBytes(Key key) {
            return blocks.working() == null ? 0 : blocks.working().bytes(key, blocks.partBytes(key));
        }
    }

    /** The same footprint over other chunks (known lengths after computing them), keeping the declaration. */
    public LayerFootprint withChunks(Chunks known) {
        return new LayerFootprint(known, known.isKnown() ? known : bounds, itemSize, working, traffic);
    }
}
