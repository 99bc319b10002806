package org.tessera.array.creation;

import java.io.Serial;
import java.util.Arrays;

import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Working;
import org.tessera.graph.Key;

/**
 * The working memory of a task that reads or writes one block of an array kept in stored chunks
 * of {@code chunkShape} (a Zarr array, a chunked HDF5 dataset): the chunks the block overlaps,
 * each made whole in memory.
 *
 * <ul>
 *   <li>Reading ({@link #reading}): every chunk the block overlaps is decoded whole, and the parts
 *       are copied into the block; a block inside one chunk is a view of the decoded chunk, which
 *       then costs what the chunk holds beyond the block.</li>
 *   <li>Writing ({@link #assembling}): a chunk the block covers only in part is gathered whole
 *       (the parts of the other blocks join it later), so the task that starts it allocates it.</li>
 * </ul>
 *
 * @param blocks     the array's blocks
 * @param chunkShape the stored chunks' shape (edge chunks are stored whole, so they count whole)
 * @param itemSize   bytes per element of the stored dtype
 * @param copies     the arrays of a chunk's size that decoding one makes (a codec that transposes, or a shard's inner
 *                   chunks assembled, makes more than one); with one, a block inside a chunk is a view of it
 * @param writing    whether the tasks write the blocks (only chunks shared with other blocks count)
 * @param slabs      whether a block inside one chunk reads a run of its rows alone (see
 *                   {@link org.tessera.array.RegionSource#readsSlabs}): a reader pulling it in strips then holds a strip
 * @param wholeChunks whether every block is one whole chunk (the last along the first axis may be cut short by
 *                   the array's end): read, it is a new C-ordered array, not a view of a larger one
 */
public record StoredChunks(Chunks blocks, long[] chunkShape, long itemSize, int copies, boolean writing, boolean slabs, boolean wholeChunks)
        implements Working {
    @Serial
    private static final long serialVersionUID = 1L;

    public StoredChunks {
        chunkShape = chunkShape.clone();
        if (copies < 1) {
            throw new IllegalArgumentException("a decoded chunk makes at least one array, not " + copies);
        }
        if (chunkShape.length != blocks.ndim()) {
            throw new IllegalArgumentException("stored chunks " + Arrays.toString(chunkShape) + " have " + chunkShape.length + " axes but the blocks "
                    + blocks + " have " + blocks.ndim());
        }
    }

    /** Reading blocks of {@code blocks} from chunks of {@code chunkShape} and {@code itemSize} bytes per element. */
    public static StoredChunks reading(Chunks blocks, long[] chunkShape, long itemSize) {
        return new StoredChunks(blocks, chunkShape, itemSize, 1, false, false, wholeChunks(blocks, chunkShape));
    }

    /** As {@link #reading(Chunks, long[], long)} where decoding a chunk makes {@code copies} arrays of its size. */
    public static StoredChunks reading(Chunks blocks, long[] chunkShape, long itemSize, int copies) {
        return new StoredChunks(blocks, chunkShape, itemSize, copies, false, false, wholeChunks(blocks, chunkShape));
    }

    /** Writing blocks of {@code blocks} into chunks of {@code chunkShape}, gathering the chunks that blocks share. */
    public static StoredChunks assembling(Chunks blocks, long[] chunkShape, long itemSize) {
        return new StoredChunks(blocks, chunkShape, itemSize, 1, true, false, false);
    }

    /** The same reads, of a source that reads a block inside one chunk in slabs of rows when {@code inSlabs}. */
    public StoredChunks readingSlabs(boolean inSlabs) {
        return new StoredChunks(blocks, chunkShape, itemSize, copies, writing, inSlabs, wholeChunks);
    }

    /** Whether every block of {@code blocks} is one chunk of {@code chunkShape}, the last along the first axis perhaps shorter. */
    private static boolean wholeChunks(Chunks blocks, long[] chunkShape) {
        if (!blocks.isKnown() || chunkShape.length != blocks.ndim()) {
            return false;
        }
        for (int axis = 0; axis < chunkShape.length; axis++) {
            long[] lengths = blocks.axis(axis);
            for (int block = 0; block < lengths.length - 1; block++) {
                if (lengths[block] != chunkShape[axis]) {
                    return false;
                }
            }
            // A chunk cut short along its first axis is a run of its rows, still C-ordered; along another it is not.
            long last = lengths.length == 0 ? 0 : lengths[lengths.length - 1];
            if (axis == 0 ? last > chunkShape[axis] : last != chunkShape[axis] && lengths.length > 0) {
                return false;
            }
        }
        return true;
    }

    /** A whole chunk decodes into a new array of its own (one copy, the default codecs). */
    @Override
    public boolean freshResults() {
        return wholeChunks && copies == 1 && !writing;
    }

    @Override
    public boolean readsSlabs(Key key) {
        return slabs && !writing && copies == 1 && overlapped(key) == 1;
    }

    /** A slab is decoded into the part itself, through the codec's pooled window. */
    @Override
    public long partBytes(Key key, long partBytes) {
        return readsSlabs(key) ? 0 : bytes(key, partBytes);
    }

    /** The stored chunks block {@code key} overlaps; 0 for a key of another rank or unknown blocks. */
    private long overlapped(Key key) {
        long[][] region = region(key);
        if (region == null) {
            return 0;
        }
        long overlapped = 1;
        for (int axis = 0; axis < chunkShape.length; axis++) {
            long chunk = Math.max(1, chunkShape[axis]);
            long start = region[0][axis];
            long length = region[1][axis];
            overlapped *= length == 0 ? 0 : (start + length - 1) / chunk - start / chunk + 1;
        }
        return overlapped;
    }

    /** The start and shape of the block of {@code key} (the last past the end), or null for a key of another rank or unknown blocks. */
    private long[][] region(Key key) {
        int ndim = chunkShape.length;
        if (key.rank() != ndim || !blocks.isKnown()) {
            return null;
        }
        int[] index = key.index();
        for (int axis = 0; axis < ndim; axis++) {
            index[axis] = Math.min(index[axis], blocks.blockCount(axis) - 1);
        }
        return new long[][] {blocks.blockStart(index), blocks.blockShape(index)};
    }

    @Override
    public long bytes(Key key, long resultBytes) {
        long[][] region = region(key);
        if (region == null) {
            return 0;
        }
        int ndim = chunkShape.length;
        long[] start = region[0];
        long[] shape = region[1];
        long chunkElements = 1;
        long overlapped = 1;
        long inside = 1;
        for (int axis = 0; axis < ndim; axis++) {
            if (shape[axis] == 0) {
                return 0;
            }
            long chunk = Math.max(1, chunkShape[axis]);
            long first = start[axis] / chunk;
            long last = (start[axis] + shape[axis] - 1) / chunk;
            chunkElements *= chunk;
            overlapped *= last - first + 1;
            // Chunks whose whole extent lies in the block along this axis.
            long firstWhole = Math.ceilDiv(start[axis], chunk);
            long endWhole = (start[axis] + shape[axis]) / chunk;
            inside *= Math.max(0, endWhole - firstWhole);
        }
        long chunkBytes = chunkElements * itemSize;
        if (writing) {
            return (overlapped - inside) * chunkBytes;
        }
        return overlapped == 1 && copies == 1 ? Math.max(0, chunkBytes - resultBytes) : overlapped * chunkBytes * copies;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StoredChunks that && blocks.equals(that.blocks) && Arrays.equals(chunkShape, that.chunkShape) && itemSize == that.itemSize
                && copies == that.copies && writing == that.writing && slabs == that.slabs && wholeChunks == that.wholeChunks;
    }

    @Override
    public int hashCode() {
        return blocks.hashCode() * 31 + Arrays.hashCode(chunkShape);
    }

    @Override
    public String toString() {
        return "StoredChunks[" + (writing ? "writing" : "reading") + " chunks " + Arrays.toString(chunkShape) + " of blocks " + blocks + "]";
    }
}
