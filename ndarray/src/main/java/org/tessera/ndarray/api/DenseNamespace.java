package org.tessera.ndarray.api;

import java.util.ArrayList;
import java.util.List;

import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayFamilies;
import org.tessera.ndarray.ArrayNamespace;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.Reduction;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Reductions.Options;
import org.tessera.ndarray.ufunc.Statistics;

/**
 * The dense family: {@link NDArray}, through {@link NDArrays}. It takes operands of the families
 * that yield to it (sparse), densified; registered in this module's
 * {@code META-INF/services/org.tessera.ndarray.ArrayNamespace}.
 */
public record DenseNamespace() implements ArrayNamespace<NDArray> {
    public static final String FAMILY = "dense";

    @Override
    public String family() {
        return FAMILY;
    }

    @Override
    public Class<NDArray> arrayType() {
        return NDArray.class;
    }

    /** Any family's array converts by its own {@code toDense}; Java values as NumPy's {@code np.array}. */
    @Override
    public NDArray asarray(Object values, DType dtype) {
        NDArray dense = switch (values) {
            case NDArray array -> array;
            case AnyArray<?> array -> ArrayFamilies.toDense(array);
            case null -> throw new IllegalArgumentException("asarray of null");
            default -> {
                if (!JavaValues.isJavaValue(values)) {
                    throw new IllegalArgumentException("the dense family cannot make an array of " + ArrayFamilies.describe(values));
                }
                yield JavaValues.toArray(values, dtype);
            }
        };
        return dtype == null || dense.dtype() == dtype ? dense : dense.astype(dtype);
    }

    @Override
    public NDArray zeros(DType dtype, long... shape) {
        return NDArrays.zeros(dtype, shape);
    }

    @Override
    public NDArray full(DType dtype, double value, long... shape) {
        return NDArrays.full(dtype, value, shape);
    }

    @Override
    public NDArray arange(double start, double stop, double step, DType dtype) {
        boolean integral = start == Math.rint(start) && stop == Math.rint(stop) && step == Math.rint(step);
        NDArray range = integral && !dtype.isFloat() ? NDArrays.arange((long) start, (long) stop, (long) step) : NDArrays.arange(start, stop, step);
        return range.dtype() == dtype ? range : range.astype(dtype);
    }

    @Override
    public NDArray linspace(double start, double stop, long count) {
        return NDArrays.linspace(start, stop, count);
    }

    @Override
    public NDArray eye(long rows, long columns, long k, DType dtype) {
        return NDArrays.eye(rows, columns, k, dtype);
    }

    @Override
    public NDArray toDense(NDArray array) {
        return array;
    }

    @Override
    public NDArray apply(String ufunc, Object... operands) {
        Object[] converted = ArrayFamilies.operandsFor(this, operands);
        for (int position = 0; position < converted.length; position++) {
            if (!(converted[position] instanceof AnyArray<?>) && (converted[position] instanceof List<?> || converted[position].getClass().isArray())) {
                converted[position] = JavaValues.toArray(converted[position], null);
            }
        }
        return NDArrays.ufunc(ufunc).apply(converted);
    }

    @Override
    public NDArray reduce(Reduction reduction, NDArray array, int[] axes, boolean keepdims) {
        Options options = new Options(axes, null, keepdims, null, null);
        return switch (reduction) {
            case SUM -> Statistics.sum(array, options);
            case PROD -> Statistics.prod(array, options);
            case MIN -> Statistics.min(array, options);
            case MAX -> Statistics.max(array, options);
        };
    }

    @Override
    public NDArray concatenate(List<? extends NDArray> arrays, int axis) {
        return NDArrays.concatenate(new ArrayList<>(arrays), axis);
    }

    @Override
    public NDArray matmul(NDArray first, NDArray second) {
        return NDArrays.matmul(first, second);
    }

    @Override
    public NDArray reshape(NDArray array, long... shape) {
        return array.reshape(shape);
    }

    @Override
    public NDArray transpose(NDArray array, int... axes) {
        return axes.length == 0 ? array.transpose() : array.transpose(axes);
    }

    @Override
    public NDArray slice(NDArray array, int axis, long start, long step, long count) {
        return array.slice(axis, start, step, count);
    }

    @Override
    public NDArray astype(NDArray array, DType dtype) {
        return array.dtype() == dtype ? array : array.astype(dtype);
    }
}
