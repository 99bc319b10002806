package org.tessera.ndarray.conformance;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;

/** Turns the corpus encodings (FORMAT.md) into Tessera values. */
public final class Decoding {
    private Decoding() {}

    /** {@code {"dtype", "shape", "data"}} to a new C-ordered array. */
    public static NDArray array(JsonNode node) {
        DType dtype = DType.fromName(node.get("dtype").asText());
        long[] shape = shape(node.get("shape"));
        NDArray result = NDArray.zeros(dtype, shape);
        NDArray flat = result.reshape(result.size());
        JsonNode data = node.get("data");
        for (int i = 0; i < data.size(); i++) {
            JsonNode value = data.get(i);
            switch (dtype.kind()) {
                case BOOL -> flat.setBoolean(value.asBoolean(), i);
                case SIGNED, UNSIGNED -> flat.setLong(integerBits(value), i);
                case FLOAT -> flat.setDouble(real(value), i);
                case COMPLEX -> flat.setComplex(new org.tessera.ndarray.dtype.Complex(real(value.get(0)), real(value.get(1))), i);
            }
        }
        return result;
    }

    /** An exact integer, uint64 values above 2^63 as their two's complement bits. */
    public static long integerBits(JsonNode value) {
        return value.isBigInteger() || value.isBigDecimal() ? new BigInteger(value.asText()).longValue() : value.asLong();
    }

    /** A float datum: a number or one of "nan", "inf", "-inf". */
    public static double real(JsonNode value) {
        if (value.isTextual()) {
            return switch (value.asText()) {
                case "nan" -> Double.NaN;
                case "inf" -> Double.POSITIVE_INFINITY;
                case "-inf" -> Double.NEGATIVE_INFINITY;
                default -> throw new IllegalArgumentException("not a float datum: " + value);
            };
        }
        return value.asDouble();
    }

    public static long[] shape(JsonNode node) {
        long[] shape = new long[node.size()];
        for (int i = 0; i < shape.length; i++) {
            shape[i] = node.get(i).asLong();
        }
        return shape;
    }

    public static int[] ints(JsonNode node) {
        int[] values = new int[node.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = node.get(i).asInt();
        }
        return values;
    }

    /** An index list: integers, slices, "...", null (newaxis), booleans, arrays. */
    public static Index[] index(JsonNode node) {
        List<Index> items = new ArrayList<>();
        for (JsonNode item : node) {
            if (item.isNull()) {
                items.add(Index.newAxis());
            } else if (item.isBoolean()) {
                items.add(Index.of(item.asBoolean()));
            } else if (item.isIntegralNumber()) {
                items.add(Index.at(item.asLong()));
            } else if (item.isTextual() && item.asText().equals("...")) {
                items.add(Index.ellipsis());
            } else if (item.has("slice")) {
                JsonNode parts = item.get("slice");
                items.add(Index.range(optionalLong(parts.get(0)), optionalLong(parts.get(1)), optionalLong(parts.get(2))));
            } else if (item.has("array")) {
                items.add(Index.of(array(item.get("array"))));
            } else {
                throw new IllegalArgumentException("unknown index item " + item);
            }
        }
        return items.toArray(Index[]::new);
    }

    private static Long optionalLong(JsonNode node) {
        return node == null || node.isNull() ? null : node.asLong();
    }

    /** A dtype name, or a weak scalar {@code {"weak": "int"|"float"|"bool", "value": v}} as a Java scalar. */
    public static Object dtypeOrWeakScalar(JsonNode node) {
        if (node.isTextual()) {
            return DType.fromName(node.asText());
        }
        JsonNode value = node.get("value");
        return switch (node.get("weak").asText()) {
            case "int" -> value == null ? 0L : value.asLong();
            case "float" -> value == null ? 0.0 : real(value);
            case "bool" -> value != null && value.asBoolean();
            case "complex" -> new org.tessera.ndarray.dtype.Complex(0, 0);
            default -> throw new IllegalArgumentException("unknown weak scalar " + node);
        };
    }
}
