package org.tessera.array.slicing;

import java.util.Objects;

import org.tessera.array.ChunkedArray;
import org.tessera.ndarray.index.Index;

/**
 * One item of an index over a chunked array: an ordinary index item, or an index array that is
 * itself a chunked array, whose values are known only when it is computed: a boolean mask (Dask's
 * {@code x[x > 0]}) or 1-D integer positions (Dask's {@code x[y.argtopk(5)]}).
 */
public sealed interface ChunkedIndex {

    /** An integer, slice, ellipsis, new axis, boolean scalar or NDArray index. */
    record Item(Index index) implements ChunkedIndex {
        public Item {
            Objects.requireNonNull(index, "index item");
        }
    }

    /** A boolean chunked array over as many axes as it has. */
    record Mask(ChunkedArray mask) implements ChunkedIndex {
        public Mask {
            Objects.requireNonNull(mask, "mask");
        }
    }

    /** A 1-D integer chunked array of positions along one axis (negative ones count from the end). */
    record Positions(ChunkedArray positions) implements ChunkedIndex {
        public Positions {
            Objects.requireNonNull(positions, "positions");
        }
    }

    static ChunkedIndex of(Index index) {
        return new Item(index);
    }

    static ChunkedIndex mask(ChunkedArray mask) {
        return new Mask(mask);
    }

    static ChunkedIndex positions(ChunkedArray positions) {
        return new Positions(positions);
    }

    /** A chunked index array by its dtype: a mask when boolean, positions when integer. */
    static ChunkedIndex of(ChunkedArray array) {
        if (array.dtype().isBool()) {
            return new Mask(array);
        }
        if (array.dtype().isInteger()) {
            return new Positions(array);
        }
        throw new IndexOutOfBoundsException("arrays used as indices must be of integer (or boolean) type, got a chunked array of dtype " + array.dtype());
    }
}
