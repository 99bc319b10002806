package org.tessera.ndarray.api;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;

/**
 * Java values as dense arrays, as NumPy's {@code np.array} reads Python sequences: primitive arrays
 * (nested for more axes, {@code double[][]} is 2-D), nested lists of numbers or booleans, and
 * scalars (0-d). The dtype is inferred from the leaves, the widest kind winning (bool, then
 * integer as int64, then float as float64), unless a primitive array type says it exactly.
 */
final class JavaValues {
    private JavaValues() {
    }

    /** Whether {@code value} is something {@link #toArray} reads. */
    static boolean isJavaValue(Object value) {
        return value instanceof Number || value instanceof Boolean || value instanceof List<?> || (value != null && value.getClass().isArray());
    }

    static NDArray toArray(Object values, DType requested) {
        List<Long> shape = new ArrayList<>();
        Object probe = values;
        while (probe != null && (probe.getClass().isArray() || probe instanceof List<?>)) {
            int length = probe instanceof List<?> list ? list.size() : Array.getLength(probe);
            shape.add((long) length);
            if (length == 0) {
                break;
            }
            probe = probe instanceof List<?> list ? list.getFirst() : Array.get(probe, 0);
        }
        long[] dimensions = shape.stream().mapToLong(Long::longValue).toArray();
        List<Object> leaves = new ArrayList<>();
        flatten(values, dimensions, 0, leaves);
        DType inferred = leafType(values, leaves);
        NDArray result = NDArray.zeros(inferred, dimensions);
        NDArray flat = result.reshape(Shapes.size(dimensions));
        for (int position = 0; position < leaves.size(); position++) {
            Object leaf = leaves.get(position);
            switch (leaf) {
                case Boolean bool -> flat.setBoolean(bool, position);
                case Double number -> flat.setDouble(number, position);
                case Float number -> flat.setDouble(number, position);
                case Number number -> {
                    if (inferred.isFloat()) {
                        flat.setDouble(number.doubleValue(), position);
                    } else {
                        flat.setLong(number.longValue(), position);
                    }
                }
                default -> throw new IllegalArgumentException("cannot make an array element of " + leaf.getClass().getName());
            }
        }
        return requested == null || requested == inferred ? result : result.astype(requested);
    }

    private static void flatten(Object value, long[] shape, int axis, List<Object> leaves) {
        if (axis == shape.length) {
            if (value == null || value.getClass().isArray() || value instanceof List<?>) {
                throw new IllegalArgumentException("setting an array element with a sequence: the values are ragged (expected a scalar at depth "
                        + axis + " for shape " + Shapes.format(shape) + ")");
            }
            leaves.add(value);
            return;
        }
        if (value == null || !(value.getClass().isArray() || value instanceof List<?>)) {
            throw new IllegalArgumentException("setting an array element with a sequence: the values are ragged (expected a sequence at depth "
                    + axis + " for shape " + Shapes.format(shape) + ", found " + value + ")");
        }
        int length = value instanceof List<?> list ? list.size() : Array.getLength(value);
        if (length != shape[axis]) {
            throw new IllegalArgumentException("setting an array element with a sequence: the values are ragged (a sequence of length " + length
                    + " at depth " + axis + " where shape " + Shapes.format(shape) + " expects " + shape[axis] + ")");
        }
        for (int position = 0; position < length; position++) {
            flatten(value instanceof List<?> list ? list.get(position) : Array.get(value, position), shape, axis + 1, leaves);
        }
    }

    /** The dtype the leaves need: a primitive array's own type, else the widest kind of the boxed leaves. */
    private static DType leafType(Object values, List<Object> leaves) {
        Class<?> component = values == null ? null : values.getClass();
        while (component != null && component.isArray()) {
            component = component.getComponentType();
        }
        if (component != null && component.isPrimitive()) {
            return switch (component.getName()) {
                case "double" -> DType.FLOAT64;
                case "float" -> DType.FLOAT32;
                case "long" -> DType.INT64;
                case "int" -> DType.INT32;
                case "short" -> DType.INT16;
                case "byte" -> DType.INT8;
                case "boolean" -> DType.BOOL;
                default -> throw new IllegalArgumentException("no dtype holds Java " + component.getName() + " values");
            };
        }
        DType widest = leaves.isEmpty() ? DType.FLOAT64 : DType.BOOL;
        for (Object leaf : leaves) {
            if (leaf instanceof Double || leaf instanceof Float) {
                widest = DType.FLOAT64;
            } else if (leaf instanceof Number && widest == DType.BOOL) {
                widest = DType.INT64;
            } else if (!(leaf instanceof Number) && !(leaf instanceof Boolean)) {
                throw new IllegalArgumentException("cannot make an array element of " + (leaf == null ? "null" : leaf.getClass().getName()));
            }
        }
        return widest;
    }
}
