package org.tessera.ndarray.index;

import java.util.ArrayList;
import java.util.List;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * What every resolver of an index expression does first, in-memory or chunked: boolean scalars
 * rewritten as NumPy treats them, and the count of axes the items consume.
 */
public final class IndexItems {
    private IndexItems() {
    }

    /** Whether {@code item} is a boolean scalar: {@code True}/{@code False}, or a 0-d boolean mask. */
    public static boolean isBooleanScalar(Index item) {
        return item instanceof Index.BoolScalar || item instanceof Index.BoolMask mask && mask.mask().ndim() == 0;
    }

    /**
     * The items with each boolean scalar replaced as NumPy reads it: a new axis selected by an index
     * array of one position (true) or none (false).
     */
    public static List<Index> expandBooleanScalars(Index[] index) {
        List<Index> items = new ArrayList<>(index.length);
        for (Index item : index) {
            if (isBooleanScalar(item)) {
                boolean value = item instanceof Index.BoolScalar bool ? bool.value() : ((Index.BoolMask) item).mask().getBoolean();
                items.add(Index.newAxis());
                items.add(new Index.IntArray(NDArray.zeros(DType.INT64, value ? 1 : 0)));
            } else {
                items.add(item);
            }
        }
        return items;
    }

    /** How many axes of the indexed array the items select from (a mask takes as many as it has). */
    public static int indexedAxes(List<Index> items) {
        int consumed = 0;
        for (Index item : items) {
            switch (item) {
                case Index.At ignored -> consumed++;
                case Index.Range ignored -> consumed++;
                case Index.IntArray ignored -> consumed++;
                case Index.BoolMask mask -> consumed += mask.mask().ndim();
                default -> { }
            }
        }
        return consumed;
    }

    /** How many ellipses the items hold (NumPy allows one). */
    public static int ellipses(List<Index> items) {
        int count = 0;
        for (Index item : items) {
            count += item instanceof Index.Ellipsis ? 1 : 0;
        }
        return count;
    }
}
