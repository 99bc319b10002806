package org.tessera.array.family;

import java.util.List;
import java.util.function.DoubleBinaryOperator;
import java.util.stream.DoubleStream;

import org.tessera.ndarray.ArrayFamilies;
import org.tessera.ndarray.ArrayNamespace;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.Reduction;
import org.tessera.ndarray.dtype.DType;

/** The namespace of the test family {@link ListArray}: only what 1-D float64 needs, the rest refused. */
public record ListNamespace() implements ArrayNamespace<ListArray> {
    @Override
    public String family() {
        return "list";
    }

    @Override
    public Class<ListArray> arrayType() {
        return ListArray.class;
    }

    @Override
    public ListArray asarray(Object values, DType dtype) {
        if (values instanceof ListArray list) {
            return list;
        }
        NDArray dense = ArrayFamilies.dense().asarray(values, DType.FLOAT64);
        if (dense.ndim() != 1) {
            throw new IllegalArgumentException("a ListArray is 1-D, got shape of " + dense.ndim() + " axes");
        }
        double[] copy = new double[(int) dense.size()];
        for (int index = 0; index < copy.length; index++) {
            copy[index] = dense.getDouble(index);
        }
        return new ListArray(copy);
    }

    @Override
    public ListArray zeros(DType dtype, long... shape) {
        return full(dtype, 0, shape);
    }

    @Override
    public ListArray full(DType dtype, double value, long... shape) {
        if (shape.length != 1) {
            throw new IllegalArgumentException("a ListArray is 1-D");
        }
        return new ListArray(DoubleStream.generate(() -> value).limit(shape[0]).toArray());
    }

    @Override
    public ListArray arange(double start, double stop, double step, DType dtype) {
        return asarray(ArrayFamilies.dense().arange(start, stop, step, DType.FLOAT64));
    }

    @Override
    public ListArray linspace(double start, double stop, long count) {
        return asarray(ArrayFamilies.dense().linspace(start, stop, count));
    }

    @Override
    public ListArray eye(long rows, long columns, long k, DType dtype) {
        throw new UnsupportedOperationException("a ListArray is 1-D: no eye");
    }

    @Override
    public NDArray toDense(ListArray array) {
        return ArrayFamilies.dense().asarray(array.values());
    }

    @Override
    public ListArray apply(String ufunc, Object... operands) {
        Object[] converted = ArrayFamilies.operandsFor(this, operands);
        DoubleBinaryOperator operation = switch (ufunc) {
            case "add" -> Double::sum;
            case "multiply" -> (first, second) -> first * second;
            default -> throw new UnsupportedOperationException("the list family has no " + ufunc);
        };
        double[] first = values(converted[0]);
        double[] second = values(converted[1]);
        int length = Math.max(first.length, second.length);
        double[] result = new double[length];
        for (int index = 0; index < length; index++) {
            result[index] = operation.applyAsDouble(first[first.length == 1 ? 0 : index], second[second.length == 1 ? 0 : index]);
        }
        return new ListArray(result);
    }

    private static double[] values(Object operand) {
        return operand instanceof ListArray list ? list.values() : new double[] {((Number) operand).doubleValue()};
    }

    @Override
    public ListArray reduce(Reduction reduction, ListArray array, int[] axes, boolean keepdims) {
        DoubleStream values = DoubleStream.of(array.values());
        double result = switch (reduction) {
            case SUM -> values.sum();
            case PROD -> values.reduce(1, (first, second) -> first * second);
            case MIN -> values.min().orElseThrow();
            case MAX -> values.max().orElseThrow();
        };
        return new ListArray(new double[] {result});
    }

    @Override
    public ListArray concatenate(List<? extends ListArray> arrays, int axis) {
        return new ListArray(arrays.stream().flatMapToDouble(array -> DoubleStream.of(array.values())).toArray());
    }

    @Override
    public ListArray matmul(ListArray first, ListArray second) {
        throw new UnsupportedOperationException("the list family has no matmul");
    }

    @Override
    public ListArray reshape(ListArray array, long... shape) {
        return array;
    }

    @Override
    public ListArray transpose(ListArray array, int... axes) {
        return array;
    }

    @Override
    public ListArray slice(ListArray array, int axis, long start, long step, long count) {
        double[] values = array.values();
        double[] result = new double[(int) count];
        for (int index = 0; index < count; index++) {
            result[index] = values[(int) (start + index * step)];
        }
        return new ListArray(result);
    }

    @Override
    public ListArray astype(ListArray array, DType dtype) {
        return array;
    }

    @Override
    public ListArray meta(DType dtype, int ndim) {
        return new ListArray(new double[0]);
    }
}
