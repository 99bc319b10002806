package org.tessera.array.slicing;

import java.util.List;
import java.util.Objects;

import org.tessera.array.ChunkedArray;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.index.IndexItems;
import org.tessera.ndarray.index.Indexing;

/**
 * Indexing and assignment of chunked arrays: NumPy's meaning, Dask's chunks (see the package notes).
 * Every operation is lazy; errors in the index itself (out of bounds, too many indices, a mask of
 * the wrong shape) are raised at once, as IndexOutOfBoundsException naming the shape, index and axis.
 */
public final class Slicing {
    private Slicing() {
    }

    /**
     * {@code x[index]}: integers, slices (any step), ellipsis, new axes, boolean scalars, and
     * integer arrays or boolean masks given as NDArrays, combined as NumPy combines them.
     */
    public static ChunkedArray get(ChunkedArray array, Index... index) {
        Objects.requireNonNull(index, "index");
        if (IndexItems.hasBooleanScalars(index)) {
            IndexItems.Rewritten rewritten = IndexItems.withoutBooleanScalars(array.ndim(), index);
            return get(withNewAxes(array, rewritten.newAxes()), rewritten.index());
        }
        ResolvedIndex resolved = IndexResolver.resolve(array.shape(), index, IndexResolver.Mode.NUMPY);
        if (!resolved.gathers()) {
            return BasicSlicing.apply(array, resolved.selectors(), List.of());
        }
        ChunkedArray view = BasicSlicing.apply(array, resolved.viewSelectors(), List.of());
        return PointGather.gather(view, resolved.gatheredViewAxes(), resolved.gatheredArrays(), resolved.pointShape(), resolved.pointPosition(),
                false, List.of());
    }

    /**
     * {@code x[index]} where one item may be an index array that is itself a chunked array: a
     * boolean mask, after which the result's lengths along the masked axis are unknown ({@link
     * org.tessera.array.chunks.Chunks#UNKNOWN}) until {@code computeChunkSizes()}, or 1-D integer
     * positions, whose chunks the result takes along that axis. It combines with integers, slices,
     * ellipsis and new axes.
     */
    public static ChunkedArray get(ChunkedArray array, List<ChunkedIndex> index) {
        if (index.stream().allMatch(ChunkedIndex.Item.class::isInstance)) {
            return get(array, index.stream().map(item -> ((ChunkedIndex.Item) item).index()).toArray(Index[]::new));
        }
        return ChunkedSelection.get(array, index);
    }

    /** {@code x[indexArray]} with a chunked boolean mask over the leading axes, or chunked 1-D integer positions along the first axis. */
    public static ChunkedArray get(ChunkedArray array, ChunkedArray indexArray) {
        return get(array, List.of(ChunkedIndex.of(indexArray)));
    }

    /**
     * Dask's {@code x.vindex[i, j, ...]}: point-wise indexing with one integer array per leading
     * axis, broadcast together to the point shape. The point axes come first, followed by the axes
     * not indexed, and all points make one block along them (as Dask's vindex blocks them).
     */
    public static ChunkedArray vindex(ChunkedArray array, NDArray... pointIndices) {
        return vindex(array, java.util.Arrays.stream(pointIndices).map(Index::of).toList());
    }

    /**
     * Dask's {@code x.vindex[index]} with integers and slices too: they apply first, then the
     * integer arrays pick points, whose axes come first. Boolean arrays and new axes are refused,
     * and so is an index of slices only unless they select everything.
     */
    public static ChunkedArray vindex(ChunkedArray array, List<Index> index) {
        Index[] items = index.toArray(Index[]::new);
        ResolvedIndex resolved = IndexResolver.resolve(array.shape(), items, IndexResolver.Mode.POINTWISE);
        if (!resolved.gathers()) {
            boolean slicesOnly = index.stream().allMatch(item -> item instanceof Index.Range || item instanceof Index.Ellipsis);
            if (slicesOnly && !resolved.selectors().stream().allMatch(AxisSelector.Whole.class::isInstance)) {
                throw new IndexOutOfBoundsException("vindex requires at least one non-slice to vectorize over when the slices are not over the entire"
                        + " array (i.e, x[:]); use normal slicing instead when only using slices. Got: " + IndexText.index(items));
            }
            return BasicSlicing.apply(array, resolved.selectors(), List.of());
        }
        ChunkedArray view = BasicSlicing.apply(array, resolved.viewSelectors(), List.of());
        return PointGather.gather(view, resolved.gatheredViewAxes(), resolved.gatheredArrays(), resolved.pointShape(), 0, true, List.of("vindex"));
    }

    /**
     * {@code x[index] = value} as a new array (x itself is never changed, nor any computed block of
     * it): the value (a Java scalar, an NDArray or a ChunkedArray) is broadcast to {@code x[index]}
     * and cast to x's dtype as NumPy's setitem casts. The result has x's chunks.
     */
    public static ChunkedArray set(ChunkedArray array, Index[] index, Object value) {
        Objects.requireNonNull(index, "index");
        long[] shape = array.chunks().requireKnownShape("assignment to index " + IndexText.index(index));
        long[] valueShape = value instanceof ChunkedArray chunked ? chunked.chunks().requireKnownShape("assignment of a chunked value")
                : value instanceof NDArray values ? values.shape() : new long[0];
        Indexing.checkMaskAssignment(shape, index, valueShape);
        Indexing.checkElementAssignment(shape, array.dtype(), index, valueShape);
        if (IndexItems.hasBooleanScalars(index)) {
            // The assignment goes to x with the boolean scalars' new axes, which then come off again.
            IndexItems.Rewritten rewritten = IndexItems.withoutBooleanScalars(array.ndim(), index);
            ChunkedArray assigned = Assignment.set(withNewAxes(array, rewritten.newAxes()), rewritten.index(), value);
            Index[] drop = new Index[assigned.ndim()];
            for (int axis = 0; axis < drop.length; axis++) {
                drop[axis] = Index.all();
            }
            for (int axis : rewritten.newAxes()) {
                drop[axis] = Index.at(0);
            }
            return get(assigned, drop);
        }
        return Assignment.set(array, index, value);
    }

    /** x with a new axis of length 1 at each of {@code newAxes} (positions in the result, increasing). */
    private static ChunkedArray withNewAxes(ChunkedArray array, int[] newAxes) {
        Index[] items = new Index[array.ndim() + newAxes.length];
        for (int axis = 0; axis < items.length; axis++) {
            items[axis] = Index.all();
        }
        for (int axis : newAxes) {
            items[axis] = Index.newAxis();
        }
        return get(array, items);
    }

    /** {@code x[mask] = value} with a boolean chunked mask over the leading axes; the value must be one element. */
    public static ChunkedArray set(ChunkedArray array, ChunkedArray mask, Object value) {
        return Assignment.setMasked(array, mask, value);
    }
}
