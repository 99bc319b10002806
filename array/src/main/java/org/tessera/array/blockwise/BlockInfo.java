package org.tessera.array.blockwise;

import java.io.Serial;
import java.io.Serializable;
import java.util.Arrays;

import org.tessera.array.chunks.Chunks;

/**
 * Where one block sits in its array, as a {@link MapBlocks} function is told (Dask's
 * {@code block_info}): the block's index in the block grid, the index of its first element and
 * its shape in the whole array, the number of blocks per axis and the whole array's shape. A
 * length or start that depends on unknown block lengths is {@link Chunks#UNKNOWN}.
 */
public record BlockInfo(int[] blockIndex, long[] start, long[] shape, int[] blockCounts, long[] arrayShape) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    public BlockInfo {
        blockIndex = blockIndex.clone();
        start = start.clone();
        shape = shape.clone();
        blockCounts = blockCounts.clone();
        arrayShape = arrayShape.clone();
        int ndim = blockIndex.length;
        if (start.length != ndim || shape.length != ndim || blockCounts.length != ndim || arrayShape.length != ndim) {
            throw new IllegalArgumentException("block info: block index " + Arrays.toString(blockIndex) + ", start " + Arrays.toString(start)
                    + ", shape " + Arrays.toString(shape) + ", block counts " + Arrays.toString(blockCounts) + " and array shape "
                    + Arrays.toString(arrayShape) + " must have one entry per axis");
        }
    }

    /** The position of block {@code blockIndex} of an array with {@code chunks}. */
    public static BlockInfo of(Chunks chunks, int... blockIndex) {
        long[] start;
        if (chunks.isKnown()) {
            start = chunks.blockStart(blockIndex);
        } else {
            start = new long[blockIndex.length];
            for (int axis = 0; axis < start.length; axis++) {
                for (int block = 0; block < blockIndex[axis] && start[axis] != Chunks.UNKNOWN; block++) {
                    long length = chunks.length(axis, block);
                    start[axis] = length == Chunks.UNKNOWN ? Chunks.UNKNOWN : start[axis] + length;
                }
            }
        }
        return new BlockInfo(blockIndex, start, chunks.blockShape(blockIndex), chunks.blockCounts(), chunks.shape());
    }

    public int ndim() {
        return blockIndex.length;
    }

    @Override
    public int[] blockIndex() {
        return blockIndex.clone();
    }

    @Override
    public long[] start() {
        return start.clone();
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public int[] blockCounts() {
        return blockCounts.clone();
    }

    @Override
    public long[] arrayShape() {
        return arrayShape.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BlockInfo info && Arrays.equals(blockIndex, info.blockIndex) && Arrays.equals(start, info.start)
                && Arrays.equals(shape, info.shape) && Arrays.equals(blockCounts, info.blockCounts) && Arrays.equals(arrayShape, info.arrayShape);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(blockIndex) * 31 + Arrays.hashCode(start);
    }

    @Override
    public String toString() {
        return "BlockInfo[blockIndex=" + Arrays.toString(blockIndex) + ", start=" + Arrays.toString(start) + ", shape=" + Arrays.toString(shape)
                + ", blockCounts=" + Arrays.toString(blockCounts) + ", arrayShape=" + Arrays.toString(arrayShape) + "]";
    }
}
