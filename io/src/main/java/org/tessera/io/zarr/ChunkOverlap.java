package org.tessera.io.zarr;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.tessera.ndarray.NDArray;

/**
 * Where a region meets one chunk of a regular grid: the chunk's index, and the overlap's start in
 * the chunk and in the region, with its shape.
 */
record ChunkOverlap(int[] chunkIndex, long[] inChunkStart, long[] inRegionStart, long[] shape) {

    /** The overlaps of region {@code [start, start + regionShape)} with chunks of {@code chunkShape}, in C order of the grid; none for an empty region. */
    static List<ChunkOverlap> of(long[] start, long[] regionShape, long[] chunkShape) {
        int ndim = start.length;
        int[] first = new int[ndim];
        int[] span = new int[ndim];
        for (int axis = 0; axis < ndim; axis++) {
            if (regionShape[axis] == 0) {
                return List.of();
            }
            first[axis] = Math.toIntExact(start[axis] / chunkShape[axis]);
            span[axis] = Math.toIntExact((start[axis] + regionShape[axis] - 1) / chunkShape[axis]) - first[axis] + 1;
        }
        List<ChunkOverlap> overlaps = new ArrayList<>();
        int[] step = new int[ndim];
        do {
            int[] chunkIndex = new int[ndim];
            long[] inChunkStart = new long[ndim];
            long[] inRegionStart = new long[ndim];
            long[] shape = new long[ndim];
            for (int axis = 0; axis < ndim; axis++) {
                chunkIndex[axis] = first[axis] + step[axis];
                long chunkStart = chunkIndex[axis] * chunkShape[axis];
                long from = Math.max(start[axis], chunkStart);
                long to = Math.min(start[axis] + regionShape[axis], chunkStart + chunkShape[axis]);
                inChunkStart[axis] = from - chunkStart;
                inRegionStart[axis] = from - start[axis];
                shape[axis] = to - from;
            }
            overlaps.add(new ChunkOverlap(chunkIndex, inChunkStart, inRegionStart, shape));
        } while (GridIndex.next(step, span));
        return overlaps;
    }

    /** The overlap as a view of an array holding the region. */
    NDArray inRegion(NDArray region) {
        return view(region, inRegionStart);
    }

    /** The overlap as a view of an array holding the chunk. */
    NDArray inChunk(NDArray chunk) {
        return view(chunk, inChunkStart);
    }

    private NDArray view(NDArray array, long[] at) {
        NDArray view = array;
        for (int axis = 0; axis < shape.length; axis++) {
            view = view.slice(axis, at[axis], 1, shape[axis]);
        }
        return view;
    }

    boolean coversRegion(long[] regionShape) {
        return Arrays.equals(shape, regionShape);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ChunkOverlap that && Arrays.equals(chunkIndex, that.chunkIndex) && Arrays.equals(inChunkStart, that.inChunkStart)
                && Arrays.equals(inRegionStart, that.inRegionStart) && Arrays.equals(shape, that.shape);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(chunkIndex) * 31 + Arrays.hashCode(inChunkStart);
    }

    @Override
    public String toString() {
        return "ChunkOverlap[chunk=" + Arrays.toString(chunkIndex) + ", inChunk=" + Arrays.toString(inChunkStart) + ", inRegion="
                + Arrays.toString(inRegionStart) + ", shape=" + Arrays.toString(shape) + "]";
    }
}
