package org.tessera.array.plan;

import java.io.Serial;

import org.tessera.array.chunks.Chunks;
import org.tessera.graph.Key;
import org.tessera.graph.memory.Footprint;
import org.tessera.graph.memory.Footprint.PartMaking;

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
    public long headerBytes(Key key) {
        return HEADER_BYTES;
    }

    /** A block that is a view of its input (a transpose, a slice) allocates only its working memory. */
    @Override
    public long allocatedBytes(Key key) {
        return working != null && working.viewsInput() ? workingBytes(key) : Footprint.super.allocatedBytes(key);
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

    @Override
    public PartMaking partMaking() {
        return working == null ? PartMaking.WHOLE : working.partMaking();
    }

    @Override
    public boolean asksRowParts() {
        return working != null && working.asksRowParts();
    }

    @Override
    public int inputsAtOnce() {
        return working == null ? Integer.MAX_VALUE : working.inputsAtOnce();
    }

    /**
     * A part: its working memory at the part's size and the part unless it is written into the
     * reader's memory or is its input's. A block read from a store makes parts only as slabs of
     * rows of one chunk (asked in rows, of a codec that decodes pieces); otherwise the read decodes
     * it whole.
     */
    @Override
    public long partBytes(Key key, Ask ask) {
        PartMaking making = partMaking();
        if (making == PartMaking.WHOLE || traffic == Traffic.READS && !(ask.rows() && working.readsSlabs(key))) {
            return allocatedBytes(key);
        }
        long part = partElements(key, ask) * itemSize;
        long own = making == PartMaking.MADE || making == PartMaking.COMBINED || making == PartMaking.FILLED && !ask.inPlace() ? part : 0;
        return own + working.partBytes(key, part);
    }

    @Override
    public Ask inputAsk(Key key, Ask ask) {
        Ask asked = Footprint.super.inputAsk(key, ask);
        return working == null ? asked : new Ask(working.askedElements(partElements(key, ask)), asked.inPlace(), asked.rows());
    }

    /** The elements of the part {@code ask} asks of block {@code key}: at most the block, whatever was asked. */
    private long partElements(Key key, Ask ask) {
        return Math.min(blockBytes(key) / Math.max(1, itemSize), ask.elements());
    }

    @Override
    public boolean pullsInParts() {
        return working != null && working.pullsInParts();
    }

    @Override
    public long pulledElements(Key key) {
        return working == null ? Long.MAX_VALUE : working.pulledElements(key, blockBytes(key) / Math.max(1, itemSize));
    }

    @Override
    public LayerFootprint takingParts() {
        return working == null ? this : new LayerFootprint(chunks, bounds, itemSize, working.takingParts(), traffic);
    }

    @Override
    public boolean freshResults() {
        return working != null && working.freshResults();
    }

    /** A stored block's slab is cut to the block's columns: new and C-ordered only where blocks are whole chunks. */
    @Override
    public boolean freshParts() {
        return traffic == Traffic.READS ? freshResults() : Footprint.super.freshParts();
    }

    @Override
    public LayerFootprint takingOrdered() {
        return working == null ? this : new LayerFootprint(chunks, bounds, itemSize, working.takingOrdered(), traffic);
    }

    @Override
    public LayerFootprint takingWhole() {
        return working == null ? this : new LayerFootprint(chunks, bounds, itemSize, working.takingWhole(), traffic);
    }

    /** The same footprint over other chunks (known lengths after computing them), keeping the declaration. */
    public LayerFootprint withChunks(Chunks known) {
        return new LayerFootprint(known, known.isKnown() ? known : bounds, itemSize, working, traffic);
    }
}
