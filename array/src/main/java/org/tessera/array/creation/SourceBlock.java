package org.tessera.array.creation;

import java.util.Optional;

import org.tessera.array.RegionSource;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.memory.Scratch;

/**
 * A block of a source, read as its reader asks: a box that spans part of the first axis is cut
 * from a slab of those rows (a stored chunk then decodes only the pieces that hold them, in
 * memory the reader's strip reuses); any other box, such as a column strip of a transposed read,
 * comes from the whole block, read once and kept while this block lives. Once the slabs asked add
 * up to the block's rows, later boxes also come from the whole block, so scattered reads never
 * decode more than about twice the block.
 */
final class SourceBlock implements DeferredBlock {
    private final RegionSource source;
    private final long[] start;
    private final long[] shape;
    private Optional<RegionSource.SlabReader> slabs;
    private long slabRows;
    private NDArray whole;

    SourceBlock(RegionSource source, long[] start, long[] shape) {
        this.source = source;
        this.start = start.clone();
        this.shape = shape.clone();
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public NDArray part(long[] partStart, long[] partShape) throws Exception {
        Optional<RegionSource.SlabReader> reader = slabReader(partShape);
        if (reader.isPresent()) {
            NDArray slab = reader.get().slab(partStart[0], partShape[0]);
            closeOnceRead(reader.get());
            return box(slab, 1, partStart, partShape);
        }
        keepWhole();
        return box(whole, 0, partStart, partShape);
    }

    /**
     * The part decoded straight into {@code target} where it comes from a slab: a rechunk's new
     * block takes the rows of each stored block it spans so, with no slab array between (R7 held
     * eight 4 MB slabs a task beyond its plan, and copied every byte twice).
     */
    @Override
    public void partInto(long[] partStart, NDArray target) throws Exception {
        Optional<RegionSource.SlabReader> reader = slabReader(target.shape());
        if (reader.isPresent()) {
            reader.get().slabInto(partStart, target);
            closeOnceRead(reader.get());
            return;
        }
        keepWhole();
        target.assign(box(whole, 0, partStart, target.shape()));
    }

    /** The slab reader that serves a box of {@code partShape}, counting its rows as read; empty where the box comes from the whole block. */
    private Optional<RegionSource.SlabReader> slabReader(long[] partShape) {
        if (whole == null && partShape.length > 0 && partShape[0] < shape[0] && slabRows < shape[0]) {
            if (slabs == null) {
                openSlabs();
            }
            if (slabs.isPresent()) {
                slabRows += partShape[0];
                return slabs;
            }
        }
        return Optional.empty();
    }

    /** Closes the reader once the slabs asked add up to the block's rows: a reader that pulled it through in strips is done with it. */
    private void closeOnceRead(RegionSource.SlabReader reader) {
        if (slabRows >= shape[0]) {
            reader.close();
        }
    }

    /** Scattered rows of a block not read whole come from the source in one pass (a stored chunk mapped once). */
    @Override
    public NDArray slabs(int axis, long[] positions, long[] partStart, long[] partShape) throws Exception {
        if (axis == 0 && whole == null && shape.length > 0) {
            if (slabs == null) {
                openSlabs();
            }
            if (slabs.isPresent()) {
                return box(slabs.get().rows(positions), 1, partStart, partShape);
            }
        }
        return DeferredBlock.super.slabs(axis, positions, partStart, partShape);
    }

    /** The source's slab reader for this block, closed when the task ends if its reader never reads all the rows (a rechunk's piece). */
    private void openSlabs() {
        slabs = source.slabs(start, shape);
        slabs.ifPresent(Scratch::closeAtTaskEnd);
    }

    /**
     * Read whole once, in the task's memory, for the several readers in the task that ask parts of
     * it, or for the boxes a reader asks that slabs do not serve: kept across the parts asked, it
     * must outlive the reader's strips, but not its task.
     */
    @Override
    public void keepWhole() throws Exception {
        if (whole == null) {
            whole = Scratch.forTask(() -> source.read(start, shape));
        }
    }

    @Override
    public NDArray force() {
        return whole != null ? whole : source.read(start, shape);
    }

    /** The view of {@code array} at {@code partStart}/{@code partShape} on the axes from {@code firstAxis} on. */
    private static NDArray box(NDArray array, int firstAxis, long[] partStart, long[] partShape) {
        NDArray view = array;
        for (int axis = firstAxis; axis < partShape.length; axis++) {
            if (partStart[axis] != 0 || partShape[axis] != view.shape()[axis]) {
                view = view.slice(axis, partStart[axis], 1, partShape[axis]);
            }
        }
        return view;
    }
}
