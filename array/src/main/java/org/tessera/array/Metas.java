package org.tessera.array;

import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayFamilies;
import org.tessera.ndarray.ArrayNamespace;
import org.tessera.ndarray.dtype.DType;

/**
 * Metas: the empty arrays that record a chunked array's chunk family and dtype, so that the type
 * of every lazy result is known before anything is computed (Dask's {@code _meta}).
 */
public final class Metas {
    private Metas() {
    }

    /**
     * Dask's {@code meta_from_array}: an empty array of the family of {@code array} (a ChunkedArray
     * counts as its chunk family; a Java value as dense) with {@code ndim} axes and {@code dtype};
     * a negative {@code ndim} or a null {@code dtype} keeps the array's own.
     */
    public static AnyArray<?> metaFromArray(Object array, int ndim, DType dtype) {
        AnyArray<?> source = array instanceof ChunkedArray chunked ? chunked.meta() : array instanceof AnyArray<?> any ? any : null;
        ArrayNamespace<?> family = source == null ? ArrayFamilies.dense() : source.namespace();
        DType resultType = dtype != null ? dtype : source != null ? source.dtype() : DType.FLOAT64;
        int axes = ndim >= 0 ? ndim : source != null ? source.ndim() : 0;
        if (source != null && source.dtype() == resultType && source.ndim() == axes && isEmpty(source)) {
            return source;
        }
        AnyArray<?> meta = family.meta(resultType, axes);
        if (source != null && meta.getClass() != source.getClass() && source.ndim() == axes && axes > 0) {
            // A family with several array types (sparse COO and CSR): an empty slice keeps the exact type.
            AnyArray<?> empty = emptySlice(family, source);
            if (empty.getClass() == source.getClass()) {
                return empty.dtype() == resultType ? empty : astype(family, empty, resultType);
            }
        }
        return meta;
    }

    private static <A extends AnyArray<A>> A emptySlice(ArrayNamespace<A> family, Object array) {
        A result = family.cast(array);
        for (int axis = 0; axis < result.ndim(); axis++) {
            result = family.slice(result, axis, 0, 1, 0);
        }
        return result;
    }

    private static <A extends AnyArray<A>> A astype(ArrayNamespace<A> family, Object array, DType dtype) {
        return family.astype(family.cast(array), dtype);
    }

    /**
     * The meta of a result computed from blocks of all {@code arrays}: their chunk families meet by
     * the mixing rule of {@link ArrayFamilies#common}.
     */
    public static AnyArray<?> common(java.util.List<ChunkedArray> arrays, int ndim, DType dtype) {
        return ArrayFamilies.common(arrays.stream().map(ChunkedArray::meta).toArray()).meta(dtype, ndim);
    }

    /**
     * Whether the array can be a meta as it is: it has axes, all of length 0 (Dask's metas). An
     * array empty along one axis only, such as (0, 2), cannot: the ufuncs run on the metas to find
     * the result's dtype, and (0, 2) does not broadcast with another operand's meta (0,). Nor can a
     * 0-d array, whose one element is data: a ufunc on it may raise for that value (an integer to
     * a negative power) where the array it stands for, by then, holds another.
     */
    private static boolean isEmpty(AnyArray<?> array) {
        for (long length : array.shape()) {
            if (length != 0) {
                return false;
            }
        }
        return array.ndim() > 0;
    }
}
