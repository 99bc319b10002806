package org.tessera.array;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * Anything that reads a rectangular region of an array: an NDArray in memory, later a Zarr or HDF5
 * dataset or a .npy file. {@code fromSource} builds a chunked array with one read per block.
 */
public interface RegionSource {

    long[] shape();

    DType dtype();

    /** The region {@code [start, start + shape)}; it may be a view of the source. */
    NDArray read(long[] start, long[] shape);

    /** A name for tokens: sources with the same identity give the same array name. */
    Object identity();

    /** An in-memory array as a source: regions are views. */
    static RegionSource of(NDArray array) {
        return new ArraySource(array);
    }

    /**
     * An NDArray as a region source. Serializable so that its read tasks can go to Spark, whose
     * serialization carries the NDArray itself as {@code .npy} bytes (plain Java serialization
     * cannot: an NDArray is not Serializable).
     */
    record ArraySource(NDArray array) implements RegionSource, java.io.Serializable {
        @java.io.Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long[] shape() {
            return array.shape();
        }

        @Override
        public DType dtype() {
            return array.dtype();
        }

        @Override
        public NDArray read(long[] start, long[] shape) {
            NDArray region = array;
            for (int axis = 0; axis < start.length; axis++) {
                region = region.slice(axis, start[axis], 1, shape[axis]);
            }
            return region;
        }

        @Override
        public Object identity() {
            return array;
        }
    }
}
