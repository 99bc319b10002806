package org.tessera.ndarray;

import org.tessera.ndarray.dtype.DType;

/**
 * An array of some array family (dense {@link NDArray}, sparse, chunked, or one a third party adds):
 * what generic code may ask of any array without knowing its family. The type parameter is the
 * family's array type, so that {@code x.namespace()} creates and combines arrays of x's own family
 * (NumPy's NEP 35 {@code like=} and the array API's {@code __array_namespace__}).
 *
 * @param <A> the array type of the family, for instance {@code NDArray} or a sparse family's common interface
 */
public interface AnyArray<A extends AnyArray<A>> {
    /** The shape; a fresh array the caller may change. */
    long[] shape();

    DType dtype();

    default int ndim() {
        return shape().length;
    }

    /**
     * The bytes this array holds in memory, for memory budgets: by default every element at the
     * dtype's size (a dense array); families that store less (sparse) say so.
     */
    default long byteSize() {
        long size = 1;
        for (long length : shape()) {
            size = Math.multiplyExact(size, length);
        }
        return Math.multiplyExact(size, dtype().byteSize());
    }

    /** The functions of this array's family: creation, elementwise, reductions, joins and products. */
    ArrayNamespace<A> namespace();
}
