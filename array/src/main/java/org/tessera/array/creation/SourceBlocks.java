package org.tessera.array.creation;

import java.io.Serial;

import org.tessera.array.RegionSource;
import org.tessera.ndarray.NDArray;

/**
 * The blocks of an array over a {@link RegionSource}: each block reads its region. A fused reader
 * that takes its block deferred gets a {@link SourceBlock}, which reads slabs of rows where the
 * source can.
 */
record SourceBlocks(RegionSource source) implements BlockMaker {
    @Serial
    private static final long serialVersionUID = 1L;

    @Override
    public NDArray make(int[] blockIndex, long[] blockShape, long[] blockStart) {
        return source.read(blockStart, blockShape);
    }
}
