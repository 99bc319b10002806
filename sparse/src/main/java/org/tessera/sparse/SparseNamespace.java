package org.tessera.sparse;

import java.util.List;

import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayFamilies;
import org.tessera.ndarray.ArrayNamespace;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.Reduction;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;

/**
 * The sparse family's functions. Creation gives COO arrays; operations keep CSR when every sparse
 * operand is CSR and the result is 2-D, and give COO otherwise.
 *
 * <p>What keeps sparsity: see {@link SparseElementwise} (ufuncs that map zeros to zero stay
 * sparse; the others are computed densely and stored back as sparse) and
 * {@link SparseReductions}. Mixing: sparse arrays yield to dense ones ({@code sparse + dense}
 * is dense, as in SciPy and pydata-sparse; see {@link ArrayFamilies#common}); a dense operand
 * given to this namespace directly is refused with a message naming both families; a 0-d dense
 * array counts as a scalar.
 */
public record SparseNamespace() implements ArrayNamespace<SparseArray> {
    /** The instance every sparse array answers; equal to any other, as namespaces are values. */
    public static final SparseNamespace INSTANCE = new SparseNamespace();

    public static final String FAMILY = "sparse";

    @Override
    public String family() {
        return FAMILY;
    }

    @Override
    public Class<SparseArray> arrayType() {
        return SparseArray.class;
    }

    @Override
    public boolean yieldsTo(ArrayNamespace<?> other) {
        return other.arrayType() == NDArray.class;
    }

    @Override
    public SparseArray asarray(Object values, DType dtype) {
        SparseArray result = switch (values) {
            case SparseArray array -> array;
            case NDArray array -> SparseCOO.fromDense(array);
            case AnyArray<?> array -> SparseCOO.fromDense(ArrayFamilies.toDense(array));
            case null -> throw new IllegalArgumentException("asarray of null");
            default -> SparseCOO.fromDense(ArrayFamilies.dense().asarray(values, dtype));
        };
        return dtype == null || result.dtype() == dtype ? result : astype(result, dtype);
    }

    @Override
    public SparseArray zeros(DType dtype, long... shape) {
        return SparseCOO.zeros(dtype, shape);
    }

    /** A non-zero fill stores every element: a sparse array that is dense in all but name. */
    @Override
    public SparseArray full(DType dtype, double value, long... shape) {
        return value == 0 ? SparseCOO.zeros(dtype, shape) : SparseCOO.fromDense(NDArrays.full(dtype, value, shape));
    }

    @Override
    public SparseArray arange(double start, double stop, double step, DType dtype) {
        return SparseCOO.fromDense(ArrayFamilies.dense().arange(start, stop, step, dtype));
    }

    @Override
    public SparseArray linspace(double start, double stop, long count) {
        return SparseCOO.fromDense(NDArrays.linspace(start, stop, count));
    }

    /** The diagonal's positions directly: no dense matrix is made. */
    @Override
    public SparseArray eye(long rows, long columns, long k, DType dtype) {
        long first = Math.max(0, -k);
        long count = Math.max(0, Math.min(rows - first, columns - first - k));
        long[][] coordinates = new long[2][(int) count];
        for (int entry = 0; entry < count; entry++) {
            coordinates[0][entry] = first + entry;
            coordinates[1][entry] = first + entry + k;
        }
        return SparseCOO.of(coordinates, NDArrays.full(dtype, 1, count), rows, columns);
    }

    @Override
    public NDArray toDense(SparseArray array) {
        return array.toDense();
    }

    @Override
    public SparseArray apply(String ufunc, Object... operands) {
        Object[] converted = operands.clone();
        for (int position = 0; position < operands.length; position++) {
            // A 0-d dense array is a scalar here, as in NumPy; other dense operands follow the mixing rule.
            if (!(operands[position] instanceof NDArray scalar && scalar.ndim() == 0)) {
                converted[position] = ArrayFamilies.operandsFor(this, operands[position])[0];
            }
        }
        boolean allCsr = true;
        for (int position = 0; position < converted.length; position++) {
            Object operand = converted[position];
            if (operand instanceof List<?> || (operand != null && operand.getClass().isArray())) {
                converted[position] = asarray(operand);
            }
            if (converted[position] instanceof SparseArray array) {
                allCsr &= array instanceof SparseCSR;
            }
        }
        return inFormat(SparseElementwise.apply(NDArrays.ufunc(ufunc), converted), allCsr);
    }

    @Override
    public SparseArray reduce(Reduction reduction, SparseArray array, int[] axes, boolean keepdims) {
        return reduce(reduction, array, axes, keepdims, null);
    }

    /** As {@link #reduce(Reduction, SparseArray, int[], boolean)} computing in {@code dtype} (NumPy's {@code dtype=}). */
    public SparseArray reduce(Reduction reduction, SparseArray array, int[] axes, boolean keepdims, DType dtype) {
        return inFormat(SparseReductions.reduce(reduction, array.toCOO(), axes, keepdims, dtype), array instanceof SparseCSR);
    }

    @Override
    public SparseArray concatenate(List<? extends SparseArray> arrays, int axis) {
        boolean allCsr = arrays.stream().allMatch(SparseCSR.class::isInstance);
        return inFormat(SparseShapes.concatenate(arrays.stream().map(SparseArray::toCOO).toList(), axis), allCsr);
    }

    @Override
    public SparseArray matmul(SparseArray first, SparseArray second) {
        return inFormat(SparseProducts.matmul(first, second), first instanceof SparseCSR);
    }

    /** Sparse x dense, dense out (SciPy's {@code csr @ ndarray}), without densifying the sparse operand. */
    public NDArray matmul(SparseArray first, NDArray second) {
        return SparseProducts.matmul(first, second);
    }

    @Override
    public SparseArray reshape(SparseArray array, long... shape) {
        return inFormat(SparseShapes.reshape(array.toCOO(), shape), array instanceof SparseCSR);
    }

    @Override
    public SparseArray transpose(SparseArray array, int... axes) {
        return inFormat(SparseShapes.transpose(array.toCOO(), axes), array instanceof SparseCSR);
    }

    @Override
    public SparseArray slice(SparseArray array, int axis, long start, long step, long count) {
        return inFormat(SparseShapes.slice(array.toCOO(), axis, start, step, count), array instanceof SparseCSR);
    }

    @Override
    public SparseArray astype(SparseArray array, DType dtype) {
        if (array.dtype() == dtype) {
            return array;
        }
        SparseCOO coo = array.toCOO();
        return inFormat(new SparseCOO(coo.shape(), coo.positionsView(), coo.values().astype(dtype)), array instanceof SparseCSR);
    }

    private static SparseArray inFormat(SparseCOO result, boolean asCsr) {
        return asCsr && result.ndim() == 2 ? result.toCSR() : result;
    }
}
