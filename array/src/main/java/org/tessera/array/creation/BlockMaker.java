package org.tessera.array.creation;

import java.io.Serializable;

import org.tessera.ndarray.NDArray;

/** Makes one block of a new array from where the block sits: its index, shape and first element. */
@FunctionalInterface
public interface BlockMaker extends Serializable {
    NDArray make(int[] blockIndex, long[] blockShape, long[] blockStart);
}
