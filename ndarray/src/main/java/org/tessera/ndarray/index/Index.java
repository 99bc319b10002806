package org.tessera.ndarray.index;

import org.tessera.ndarray.NDArray;

/** One item of a NumPy index expression. */
public sealed interface Index {
    /** An integer: selects one position and removes the axis. */
    record At(long index) implements Index {}

    /** A slice {@code start:stop:step}; null parts are omitted as in Python. */
    record Range(Long start, Long stop, Long step) implements Index {
        public Range {
            if (step != null && step == 0) {
                throw new IllegalArgumentException("slice step cannot be zero");
            }
        }
    }

    /** {@code np.newaxis}: inserts an axis of length 1. */
    record NewAxis() implements Index {}

    /** {@code ...}: as many full slices as needed. */
    record Ellipsis() implements Index {}

    /** An integer index array (advanced indexing). */
    record IntArray(NDArray indices) implements Index {}

    /** A boolean mask (advanced indexing). */
    record BoolMask(NDArray mask) implements Index {}

    /** A boolean scalar index. */
    record BoolScalar(boolean value) implements Index {}

    static Index at(long index) { return new At(index); }

    static Index range(Long start, Long stop, Long step) { return new Range(start, stop, step); }

    static Index all() { return new Range(null, null, null); }

    static Index newAxis() { return new NewAxis(); }

    static Index ellipsis() { return new Ellipsis(); }

    static Index of(boolean value) { return new BoolScalar(value); }

    /** An index array: integer arrays select positions, bool arrays are masks. */
    static Index of(NDArray array) {
        if (array.dtype().isBool()) {
            return new BoolMask(array);
        }
        if (!array.dtype().isInteger()) {
            throw new IndexOutOfBoundsException("arrays used as indices must be of integer (or boolean) type, got " + array.dtype());
        }
        return new IntArray(array);
    }
}
