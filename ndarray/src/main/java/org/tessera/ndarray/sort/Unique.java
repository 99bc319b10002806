package org.tessera.ndarray.sort;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.kernel.Elements;

/**
 * NumPy 2's {@code unique} over the flattened array, with everything {@code return_index},
 * {@code return_inverse} and {@code return_counts} give: the sorted distinct values, the index of
 * each value's first occurrence, for each input element the position of its value (in the input's
 * shape), and how often each value occurs. With {@code equalNan} all NaNs (for complex: all values
 * with a NaN part) count as one value, the first of them in sort order; without it each NaN is
 * its own value. -0.0 and 0.0 are one value.
 */
public record Unique(NDArray values, NDArray indices, NDArray inverse, NDArray counts) {

    public static Unique of(NDArray a, boolean equalNan) {
        NDArray flat = a.ravel();
        Keys keys = Lanes.keys(flat, 0, flat.byteOffset());
        int[] order = StableOrder.of(keys);
        int length = order.length;
        int[] groupStarts = new int[length + 1];
        int groupCount = 0;
        NDArray inverse = NDArray.zeros(DType.INT64, a.shape());
        NDArray inverseFlat = inverse.reshape(inverse.size());
        for (int k = 0; k < length; k++) {
            if (k == 0 || !sameValue(keys, order[k - 1], order[k], equalNan)) {
                groupStarts[groupCount++] = k;
            }
            inverseFlat.setLong(groupCount - 1, order[k]);
        }
        groupStarts[groupCount] = length;
        int[] firsts = new int[groupCount];
        NDArray indices = NDArray.zeros(DType.INT64, groupCount);
        NDArray counts = NDArray.zeros(DType.INT64, groupCount);
        for (int group = 0; group < groupCount; group++) {
            firsts[group] = order[groupStarts[group]];
            Elements.storeLong(DType.INT64, indices.segment(), (long) group * Long.BYTES, firsts[group]);
            Elements.storeLong(DType.INT64, counts.segment(), (long) group * Long.BYTES,
                    groupStarts[group + 1] - groupStarts[group]);
        }
        NDArray values = NDArray.zeros(a.dtype(), groupCount);
        Lanes.gather(flat, flat.byteOffset(), values, 0, 0, firsts);
        return new Unique(values, indices, inverse, counts);
    }

    private static boolean sameValue(Keys keys, int i, int j, boolean equalNan) {
        boolean iNan = keys.isNan(i), jNan = keys.isNan(j);
        if (iNan || jNan) {
            return equalNan && iNan && jNan;
        }
        return keys.compare(i, j) == 0;
    }
}
