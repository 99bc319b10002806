package org.tessera.array.slicing;

/**
 * What a resolved index does to one axis of the indexed array, or, for {@link Insert}, where it adds
 * one. The selectors of an index are kept in index order, one per axis of the array plus one per
 * new axis.
 */
sealed interface AxisSelector {

    /** The whole axis, as {@code :}: the only selector an axis of unknown length accepts. */
    record Whole() implements AxisSelector {
    }

    /**
     * A slice normalised as Python's {@code slice.indices} does: {@code count} elements {@code start},
     * {@code start + step}, ... The stop is kept (raised to {@code start} for a positive step, as
     * Dask normalises it) because Dask's output chunks depend on it, not only on the elements.
     */
    record Stride(long start, long stop, long step, long count) implements AxisSelector {
    }

    /** One position (non-negative, in bounds), which removes the axis. */
    record Point(long position) implements AxisSelector {
    }

    /** A new axis of length 1 ({@code np.newaxis}). */
    record Insert() implements AxisSelector {
    }

    /** The axis is indexed by point array {@code array} of the resolved index (advanced indexing). */
    record Gathered(int array) implements AxisSelector {
    }
}
