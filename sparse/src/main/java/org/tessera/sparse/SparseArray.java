package org.tessera.sparse;

import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayNamespace;
import org.tessera.ndarray.NDArray;

/**
 * An array of the sparse family: it stores only the elements that may be non-zero (the others
 * are zero), in one of two formats: {@link SparseCOO} (any number of axes) and {@link SparseCSR}
 * (2-D, compressed rows). Values may have any NumPy dtype; arithmetic on them runs through the
 * dense ufunc kernels, so dtypes, promotion and rounding are NumPy's. See {@link SparseNamespace}
 * for which operations keep sparsity.
 */
public sealed interface SparseArray extends AnyArray<SparseArray> permits SparseCOO, SparseCSR {
    /** The number of stored elements (explicit zeros included). */
    long nnz();

    /** The number of elements, stored or not. */
    default long size() {
        long size = 1;
        for (long length : shape()) {
            size = Math.multiplyExact(size, length);
        }
        return size;
    }

    /** This array in COO format (itself when it is one). */
    SparseCOO toCOO();

    /** The values as a new dense array. */
    default NDArray toDense() {
        return toCOO().toDense();
    }

    @Override
    default ArrayNamespace<SparseArray> namespace() {
        return SparseNamespace.INSTANCE;
    }
}
