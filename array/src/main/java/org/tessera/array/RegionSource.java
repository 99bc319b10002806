package org.tessera.array;

import java.util.ArrayList;
import java.util.List;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.join.Joining;

/**
 * Anything that reads a rectangular region of an array: an NDArray in memory, later a Zarr or HDF5
 * dataset or a .npy file. {@code fromSource} builds a chunked array with one read per block.
 */
public interface RegionSource {

    long[] shape();

    DType dtype();

    /** The region {@code [start, start + shape)}; it may be a view of the source. */
    NDArray read(long[] start, long[] shape);

    /**
     * A hint that the region {@code [start, start + shape)} will be read soon: a source in a remote
     * store starts fetching the bytes it needs. It returns at once and never fails; the default,
     * for sources whose reads cost the same either way, does nothing.
     */
    default void prefetch(long[] start, long[] shape) {
    }

    /** A name for tokens: sources with the same identity give the same array name. */
    Object identity();

    /**
     * A reader of slabs (runs of whole rows along the first axis) of the region {@code [start,
     * start + shape)}, each costing in proportion to its rows, where the source can read them so:
     * a chunk whose codec decodes in pieces (Blosc's internal blocks) or an uncompressed one. A
     * fused reduction then pulls a stored block through in strips that stay in cache, and no
     * block is decoded whole. Empty (the default) where a part costs as much as the whole region.
     */
    default java.util.Optional<SlabReader> slabs(long[] start, long[] shape) {
        return java.util.Optional.empty();
    }

    /** Whether {@link #slabs} gives a reader for every region that lies inside one stored chunk (a plan counts such reads in slabs). */
    default boolean readsSlabs() {
        return false;
    }

    /**
     * Whether reading a stored chunk again costs only its decoding (a file mapped from the page
     * cache, memory), not another transfer (a remote store, where each read fetches the whole
     * value): only then may several readers each read rows of the same chunk.
     */
    default boolean rereadsCheaply() {
        return true;
    }

    /**
     * Slabs of one region of a source, read one at a time by one thread. It may keep what it
     * decoded last (the codec's pieces around the slab asked), so that consecutive slabs do not
     * decode a piece twice.
     */
    interface SlabReader extends AutoCloseable {
        /** Rows {@code [firstRow, firstRow + rows)} of the region along its first axis, all of its other axes, as a new array. */
        NDArray slab(long firstRow, long rows);

        /**
         * Writes the box of the region at {@code start} of {@code target}'s shape into
         * {@code target}: rows {@code [start[0], start[0] + target.shape(0))}, and on each other
         * axis from {@code start} on. A reader that decodes straight into the target (a rechunk
         * writing the rows of eight stored chunks into its new block) needs no slab between; the
         * default copies a slab in.
         */
        default void slabInto(long[] start, NDArray target) {
            NDArray box = slab(start[0], target.shape(0));
            for (int axis = 1; axis < start.length; axis++) {
                box = box.slice(axis, start[axis], 1, target.shape(axis));
            }
            target.assign(box);
        }

        /**
         * Rows {@code rows} (increasing) of the region, all of its other axes, stacked in that order
         * as a new array: what a gather of scattered rows asks, which a stored chunk serves in one
         * pass (mapped once, each codec piece decoded once) where a slab per row would map it anew.
         */
        default NDArray rows(long[] rows) {
            List<NDArray> slabs = new ArrayList<>(rows.length);
            for (long row : rows) {
                slabs.add(slab(row, 1));
            }
            return Joining.concatenate(slabs, 0);
        }

        /** Lets go of what the reader holds (a mapping of the stored chunk); a slab asked later opens it again. */
        @Override
        default void close() {
        }
    }

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
