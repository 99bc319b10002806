package org.tessera.sparse;

import java.util.Arrays;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.Reduction;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.layout.Shapes;
import org.tessera.ndarray.ufunc.Reductions.Options;
import org.tessera.ndarray.ufunc.Statistics;
import org.tessera.ndarray.ufunc.Ufunc;

/**
 * Sum, prod, min and max of a sparse array over any axes, sparse in and out. The stored entries
 * are grouped by their output position and folded with the reduction's ufunc; a group that misses
 * elements (implicit zeros) folds one zero in too, which is what makes {@code max} of negative
 * values and {@code prod} correct. Output positions with no stored entry reduce zeros only and
 * stay zero. The result dtype, axis checks and errors come from the dense reduction of a tiny
 * zero array of the same dtype, so they are NumPy's.
 */
final class SparseReductions {
    private SparseReductions() {
    }

    /** {@code dtype} (null: NumPy's default) is the dtype the reduction computes and returns, as NumPy's {@code dtype=}. */
    static SparseCOO reduce(Reduction reduction, SparseCOO array, int[] axes, boolean keepdims, DType dtype) {
        long[] shape = array.shape();
        Options options = new Options(axes, dtype, keepdims, null, null);
        if (array.size() == 0) {
            // Empty reductions give the identity (or NumPy's error for min/max): let the dense code decide.
            return SparseCOO.fromDense(dense(reduction, NDArray.zeros(array.dtype(), shape), options));
        }
        long[] probeShape = new long[shape.length];
        Arrays.fill(probeShape, 1);
        DType resultType = dense(reduction, NDArray.zeros(array.dtype(), probeShape), options).dtype();
        boolean[] reduced = new boolean[shape.length];
        if (axes == null) {
            Arrays.fill(reduced, true);
        } else {
            for (int axis : axes) {
                reduced[Shapes.normalizeAxis(axis, shape.length)] = true;
            }
        }
        long[] keptShape = Arrays.stream(range(shape.length)).filter(axis -> !reduced[axis]).mapToLong(axis -> shape[axis]).toArray();
        long product = 1;
        for (int axis = 0; axis < shape.length; axis++) {
            if (reduced[axis]) {
                product *= shape[axis];
            }
        }
        long reducedLength = product;
        long[][] coordinates = array.coordinates();
        long[] keys = new long[(int) array.nnz()];
        for (int entry = 0; entry < keys.length; entry++) {
            long key = 0;
            for (int axis = 0; axis < shape.length; axis++) {
                if (!reduced[axis]) {
                    key = key * shape[axis] + coordinates[axis][entry];
                }
            }
            keys[entry] = key;
        }
        Ufunc ufunc = NDArrays.ufunc(reduction.ufuncName());
        Entries.Groups groups = Entries.reduceByKey(ufunc, keys, array.values(), resultType);
        NDArray values = groups.values();
        if (reduction != Reduction.SUM) {
            // Folding in one zero for groups with implicit zeros (adding zero changes nothing, so sum skips it).
            long[] incomplete = Arrays.stream(range(groups.keys().length)).filter(group -> groups.counts()[group] < reducedLength)
                    .mapToLong(group -> group).toArray();
            if (incomplete.length > 0) {
                NDArray folded = ufunc.apply(Entries.take(values, incomplete), NDArray.zeros(resultType));
                values = values.copy();
                NDArrays.set(values, folded.astype(resultType), Index.of(NDArrays.array(incomplete)));
            }
        }
        long[] outputShape = keptShape;
        if (keepdims) {
            outputShape = new long[shape.length];
            for (int axis = 0; axis < shape.length; axis++) {
                outputShape[axis] = reduced[axis] ? 1 : shape[axis];
            }
        }
        // With keepdims the inserted axes have length 1, so the flat positions are the same.
        return new SparseCOO(outputShape, groups.keys(), values);
    }

    static NDArray dense(Reduction reduction, NDArray array, Options options) {
        return switch (reduction) {
            case SUM -> Statistics.sum(array, options);
            case PROD -> Statistics.prod(array, options);
            case MIN -> Statistics.min(array, options);
            case MAX -> Statistics.max(array, options);
        };
    }

    private static int[] range(int count) {
        int[] values = new int[count];
        for (int index = 0; index < count; index++) {
            values[index] = index;
        }
        return values;
    }
}
