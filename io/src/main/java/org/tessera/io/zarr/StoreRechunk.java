package org.tessera.io.zarr;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;

import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.rechunk.Rechunk;
import org.tessera.io.ChunkedStore;
import org.tessera.io.StoreOptions;
import org.tessera.io.StoreReport;
import org.tessera.io.store.Store;

/**
 * A stored array copied into new chunks, store to store, with every task under a memory budget,
 * as Pangeo's rechunker does it: each source chunk is read once and each target chunk written
 * once, by one task. Where blocks that hold whole source chunks and whole target chunks fit the
 * budget, one pass reads such blocks and writes their target chunks. Where they do not (source and
 * target chunks that cross, as column strips to row strips), the copy goes through an intermediate
 * store: blocks of whole source chunks, as large as the budget allows towards the target's
 * extent, are written as intermediate chunks that blocks of whole target chunks then read.
 *
 * <p>A task's memory is its block, plus one chunk being decoded and one being encoded;
 * {@link Plan#taskBytes()} is the largest, and the plan is refused, before anything is read, where
 * even one chunk of each does not fit.
 */
public final class StoreRechunk {
    /** Dask's default memory of a rechunk task: twice its default chunk size. */
    public static final long DEFAULT_BUDGET_BYTES = Rechunk.DEFAULT_TASK_MEMORY_BYTES;

    private StoreRechunk() {
    }

    /**
     * How a rechunk runs.
     *
     * @param readBlocks         the blocks read from the source (multiples of its chunks)
     * @param intermediateChunks the chunks of the intermediate store, or null when one pass does
     * @param writeBlocks        the blocks written to the target (multiples of its chunks)
     * @param taskBytes          the most memory one task holds: its block, a chunk being decoded, one being encoded
     */
    public record Plan(long[] shape, long[] sourceChunks, long[] targetChunks, long[] readBlocks, long[] intermediateChunks, long[] writeBlocks,
                       long taskBytes, long budgetBytes) {
        public boolean needsIntermediate() {
            return intermediateChunks != null;
        }

        @Override
        public String toString() {
            return "rechunk " + Arrays.toString(shape) + " from chunks " + Arrays.toString(sourceChunks) + " to " + Arrays.toString(targetChunks)
                    + (needsIntermediate() ? ": blocks " + Arrays.toString(readBlocks) + " into intermediate chunks " + Arrays.toString(intermediateChunks)
                            + ", then blocks " + Arrays.toString(writeBlocks) : ": one pass in blocks " + Arrays.toString(readBlocks))
                    + "; at most " + taskBytes + " bytes a task of a budget of " + budgetBytes;
        }
    }

    /** The plan for copying an array of {@code shape} and {@code itemSize}-byte items between these chunks within {@code budgetBytes} a task. */
    public static Plan plan(long[] shape, long[] sourceChunks, long[] targetChunks, int itemSize, long budgetBytes) {
        int ndim = shape.length;
        if (sourceChunks.length != ndim || targetChunks.length != ndim) {
            throw new IllegalArgumentException("rechunk of shape " + Arrays.toString(shape) + ": chunks " + Arrays.toString(sourceChunks) + " and "
                    + Arrays.toString(targetChunks) + " must have " + ndim + " axes");
        }
        long[] source = capped(sourceChunks, shape);
        long[] target = capped(targetChunks, shape);
        long sourceChunkBytes = bytes(source, itemSize);
        long targetChunkBytes = bytes(target, itemSize);
        // One pass: blocks that hold whole source chunks and whole target chunks.
        long[] common = new long[ndim];
        for (int axis = 0; axis < ndim; axis++) {
            common[axis] = Math.min(shape[axis], lcm(source[axis], target[axis]));
        }
        long direct = bytes(common, itemSize) + sourceChunkBytes + targetChunkBytes;
        if (direct <= budgetBytes) {
            return new Plan(shape.clone(), source, target, common, null, common, direct, budgetBytes);
        }
        long least = 2 * sourceChunkBytes + 2 * targetChunkBytes;
        if (least > budgetBytes) {
            throw new IllegalArgumentException("cannot rechunk " + Arrays.toString(shape) + " from chunks " + Arrays.toString(sourceChunks) + " ("
                    + sourceChunkBytes + " bytes) to " + Arrays.toString(targetChunks) + " (" + targetChunkBytes + " bytes) within " + budgetBytes
                    + " bytes a task: a task holds at least a block of one chunk, a chunk being decoded and one being encoded, " + least
                    + " bytes here; give a budget of at least that, or smaller chunks");
        }
        // Two passes: each side's blocks grow from its chunks towards the other side's, within what
        // the budget leaves; the intermediate chunks divide both, so each is one task's write and one task's read.
        long[] read = grow(source, target, shape, itemSize, budgetBytes / 2 - sourceChunkBytes);
        long[] write = grow(target, source, shape, itemSize, budgetBytes / 2 - targetChunkBytes);
        long[] intermediate = new long[ndim];
        for (int axis = 0; axis < ndim; axis++) {
            boolean readWhole = read[axis] >= shape[axis];
            boolean writeWhole = write[axis] >= shape[axis];
            intermediate[axis] = readWhole && writeWhole ? shape[axis] : readWhole ? write[axis] : writeWhole ? read[axis] : gcd(read[axis], write[axis]);
        }
        long intermediateBytes = bytes(intermediate, itemSize);
        long taskBytes = Math.max(bytes(read, itemSize) + sourceChunkBytes + intermediateBytes, bytes(write, itemSize) + intermediateBytes + targetChunkBytes);
        if (taskBytes > budgetBytes) {
            throw new IllegalArgumentException("cannot rechunk " + Arrays.toString(shape) + " from chunks " + Arrays.toString(sourceChunks) + " to "
                    + Arrays.toString(targetChunks) + " within " + budgetBytes + " bytes a task: the smallest plan, through intermediate chunks "
                    + Arrays.toString(intermediate) + ", needs " + taskBytes + " bytes a task; give a budget of at least that, or smaller chunks");
        }
        return new Plan(shape.clone(), source, target, read, intermediate, write, taskBytes, budgetBytes);
    }

    /**
     * {@code chunks} grown, axis by axis, in whole multiples towards {@code towards}'s extent (the
     * axes where the other side's chunks are longest relative to these first), while the block
     * stays within {@code limitBytes}; never below one chunk.
     */
    private static long[] grow(long[] chunks, long[] towards, long[] shape, int itemSize, long limitBytes) {
        long[] block = chunks.clone();
        Integer[] axes = new Integer[chunks.length];
        for (int axis = 0; axis < axes.length; axis++) {
            axes[axis] = axis;
        }
        Arrays.sort(axes, (a, b) -> Double.compare((double) towards[b] / chunks[b], (double) towards[a] / chunks[a]));
        for (int axis : axes) {
            long wanted = Math.min(shape[axis], roundUp(towards[axis], chunks[axis]));
            long others = bytes(block, itemSize) / block[axis];
            long fitting = others == 0 ? wanted : Math.max(chunks[axis], limitBytes / others / chunks[axis] * chunks[axis]);
            block[axis] = Math.max(block[axis], Math.min(wanted, Math.min(shape[axis], fitting)));
        }
        return block;
    }

    /**
     * Copies {@code source} into a new array at {@code path} of {@code target}, with
     * {@code targetMetadata} (its shape and dtype must be the source's), every task within
     * {@code budgetBytes}; an intermediate array, when the plan needs one, goes to
     * {@code temporary} at {@code path} and is deleted afterwards.
     */
    public static StoreReport rechunk(ZarrArray source, Store target, String path, ArrayMetadata targetMetadata, long budgetBytes, Store temporary,
                                      StoreOptions options) throws IOException {
        if (!Arrays.equals(source.shape(), targetMetadata.shape()) || source.dtype() != targetMetadata.dtype()) {
            throw new IllegalArgumentException("cannot rechunk " + source.describe() + " (" + Arrays.toString(source.shape()) + ", " + source.dtype()
                    + ") into an array of shape " + Arrays.toString(targetMetadata.shape()) + " and dtype " + targetMetadata.dtype());
        }
        Plan plan = plan(source.shape(), source.chunkShape(), targetMetadata.chunkShape(), source.dtype().byteSize(), budgetBytes);
        ZarrArray output = ZarrArray.create(target, path, targetMetadata, Map.of(), false);
        if (!plan.needsIntermediate()) {
            return ChunkedStore.store(Zarr.fromZarr(source, ChunkSpec.of(plan.readBlocks())), output, options);
        }
        ArrayMetadataV2 stage = ArrayMetadataV2.of(source.shape(), plan.intermediateChunks(), source.dtype());
        ZarrArray intermediate = ZarrArray.create(temporary, path, stage, Map.of(), true);
        try {
            ChunkedStore.store(Zarr.fromZarr(source, ChunkSpec.of(plan.readBlocks())), intermediate, options);
            return ChunkedStore.store(Zarr.fromZarr(intermediate, ChunkSpec.of(plan.writeBlocks())), output, options);
        } finally {
            temporary.deletePrefix(intermediate.path());
        }
    }

    private static long[] capped(long[] chunks, long[] shape) {
        long[] capped = new long[chunks.length];
        for (int axis = 0; axis < chunks.length; axis++) {
            if (chunks[axis] <= 0) {
                throw new IllegalArgumentException("chunk lengths must be positive, got " + Arrays.toString(chunks));
            }
            capped[axis] = Math.max(1, Math.min(chunks[axis], shape[axis]));
        }
        return capped;
    }

    private static long bytes(long[] block, int itemSize) {
        long bytes = itemSize;
        for (long length : block) {
            bytes = Math.multiplyExact(bytes, length);
        }
        return bytes;
    }

    private static long roundUp(long length, long multiple) {
        return (length + multiple - 1) / multiple * multiple;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** The least common multiple, or Long.MAX_VALUE where it would overflow (the caller caps it at the axis). */
    private static long lcm(long a, long b) {
        long reduced = a / gcd(a, b);
        return reduced > Long.MAX_VALUE / b ? Long.MAX_VALUE : reduced * b;
    }
}
