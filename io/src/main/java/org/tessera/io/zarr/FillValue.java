package org.tessera.io.zarr;

import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.Complex;
import org.tessera.ndarray.dtype.DType;

/**
 * The value of elements never written: what a missing chunk reads as, and what pads edge chunks.
 * Held as the element's native bytes, so NaN payloads, -0.0 and the largest uint64 survive a
 * round trip exactly. Zarr v2 may have no fill value (JSON null): such an array reads zeros where
 * nothing was written, and writes null back.
 */
public record FillValue(DType dtype, byte[] bytes) implements java.io.Serializable {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    public FillValue {
        if (bytes != null && bytes.length != dtype.byteSize()) {
            throw new IllegalArgumentException("a fill value of dtype " + dtype + " has " + dtype.byteSize() + " bytes, got " + bytes.length);
        }
        bytes = bytes == null ? null : bytes.clone();
    }

    @Override
    public byte[] bytes() {
        return bytes == null ? null : bytes.clone();
    }

    /** Zarr v2's null: no fill value; missing chunks read as zeros. */
    public static FillValue none(DType dtype) {
        return new FillValue(dtype, null);
    }

    public static FillValue zero(DType dtype) {
        return new FillValue(dtype, new byte[dtype.byteSize()]);
    }

    /** {@code value} cast to {@code dtype} as NumPy casts a Python float. */
    public static FillValue of(DType dtype, double value) {
        NDArray element = NDArray.zeros(dtype);
        element.setDouble(value);
        return of(element);
    }

    /** {@code value} as an integer of {@code dtype} (for uint64, its two's complement bits). */
    public static FillValue ofLong(DType dtype, long value) {
        NDArray element = NDArray.zeros(dtype);
        element.setLong(value);
        return of(element);
    }

    public static FillValue ofComplex(DType dtype, double real, double imaginary) {
        NDArray element = NDArray.zeros(dtype);
        element.setComplex(new Complex(real, imaginary));
        return of(element);
    }

    /** The single element of a 0-d (or one-element) array. */
    public static FillValue of(NDArray element) {
        if (element.size() != 1) {
            throw new IllegalArgumentException("a fill value is one element, got an array of shape " + Arrays.toString(element.shape()));
        }
        NDArray copy = element.copy();
        byte[] bytes = new byte[copy.dtype().byteSize()];
        MemorySegment.copy(copy.segment(), copy.byteOffset(), MemorySegment.ofArray(bytes), 0, bytes.length);
        return new FillValue(copy.dtype(), bytes);
    }

    public boolean isDefined() {
        return bytes != null;
    }

    /** A new 0-d array holding the value (zero when undefined). */
    public NDArray toArray() {
        NDArray element = NDArray.zeros(dtype);
        if (bytes != null) {
            MemorySegment.copy(MemorySegment.ofArray(bytes), 0, element.segment(), element.byteOffset(), bytes.length);
        }
        return element;
    }

    /** A new array of {@code shape} full of the value. */
    public NDArray fill(long[] shape) {
        NDArray result = NDArray.zeros(dtype, shape);
        if (bytes != null && !isZeroBytes()) {
            result.assign(toArray());
        }
        return result;
    }

    private boolean isZeroBytes() {
        for (byte part : bytes) {
            if (part != 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether every element of {@code chunk} has exactly the fill value's bytes (NaN matches the same NaN). */
    public boolean matchesEveryElement(NDArray chunk) {
        byte[] element = bytes == null ? new byte[dtype.byteSize()] : bytes;
        byte[] data = ChunkBytes.encode(chunk.dtype() == dtype ? chunk : chunk.astype(dtype), java.nio.ByteOrder.LITTLE_ENDIAN,
                org.tessera.ndarray.layout.Order.C);
        for (int offset = 0; offset < data.length; offset += element.length) {
            if (!Arrays.equals(data, offset, offset + element.length, element, 0, element.length)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Parses the JSON of either version: numbers, {@code "NaN"}, {@code "Infinity"},
     * {@code "-Infinity"}, v3's raw-bits strings such as {@code "0x7fc00000"}, {@code [real, imaginary]}
     * for complex types, booleans, and (v2 only) null.
     */
    public static FillValue parse(JsonNode node, DType dtype, String where) throws ZarrFormatException {
        if (node == null || node.isNull()) {
            return none(dtype);
        }
        try {
            if (dtype.isComplex()) {
                if (!node.isArray() || node.size() != 2) {
                    throw new ZarrFormatException(where + ": the fill value of a " + dtype + " array must be [real, imaginary], got " + node);
                }
                DType part = dtype.realType();
                return ofComplex(dtype, realValue(node.get(0), part, where), realValue(node.get(1), part, where));
            }
            if (dtype.isBool()) {
                if (node.isBoolean()) {
                    return ofLong(dtype, node.booleanValue() ? 1 : 0);
                }
                if (node.isIntegralNumber() && (node.longValue() == 0 || node.longValue() == 1)) {
                    return ofLong(dtype, node.longValue());
                }
                throw new ZarrFormatException(where + ": the fill value of a bool array must be true or false, got " + node);
            }
            if (dtype.isInteger()) {
                if (!node.isIntegralNumber() && !(node.isFloatingPointNumber() && node.doubleValue() == Math.rint(node.doubleValue()))) {
                    throw new ZarrFormatException(where + ": the fill value of an " + dtype + " array must be an integer, got " + node);
                }
                BigInteger value = node.isIntegralNumber() ? node.bigIntegerValue() : BigInteger.valueOf((long) node.doubleValue());
                return ofLong(dtype, value.longValue());
            }
            return of(dtype, realValue(node, dtype, where));
        } catch (IllegalArgumentException invalid) {
            throw new ZarrFormatException(where + ": invalid fill value " + node + " for dtype " + dtype + ": " + invalid.getMessage(), invalid);
        }
    }

    private static double realValue(JsonNode node, DType floatType, String where) throws ZarrFormatException {
        if (node.isNumber()) {
            return node.doubleValue();
        }
        if (node.isTextual()) {
            String text = node.textValue();
            switch (text) {
                case "NaN" -> {
                    return Double.NaN;
                }
                case "Infinity" -> {
                    return Double.POSITIVE_INFINITY;
                }
                case "-Infinity" -> {
                    return Double.NEGATIVE_INFINITY;
                }
                default -> {
                    if (text.startsWith("0x")) {
                        return fromRawBits(text, floatType, where);
                    }
                }
            }
        }
        throw new ZarrFormatException(where + ": fill value " + node + " is not a number, \"NaN\", \"Infinity\", \"-Infinity\" or raw bits \"0x...\"");
    }

    private static double fromRawBits(String text, DType floatType, String where) throws ZarrFormatException {
        long bits;
        try {
            bits = Long.parseUnsignedLong(text.substring(2), 16);
        } catch (NumberFormatException notHex) {
            throw new ZarrFormatException(where + ": fill value \"" + text + "\" is not hexadecimal raw bits", notHex);
        }
        return switch (floatType) {
            case FLOAT16 -> Float.float16ToFloat((short) bits);
            case FLOAT32 -> Float.intBitsToFloat((int) bits);
            case FLOAT64 -> Double.longBitsToDouble(bits);
            default -> throw new ZarrFormatException(where + ": raw-bits fill value \"" + text + "\" given for dtype " + floatType);
        };
    }

    /** The JSON zarr-python writes for this value (null when undefined). */
    public JsonNode toJson() {
        if (bytes == null) {
            return JSON.nullNode();
        }
        NDArray element = toArray();
        if (dtype.isComplex()) {
            Complex value = element.getComplex();
            ArrayNode pair = JSON.arrayNode();
            pair.add(realJson(value.real()));
            pair.add(realJson(value.imag()));
            return pair;
        }
        if (dtype.isBool()) {
            return JSON.booleanNode(element.getBoolean());
        }
        if (dtype.isInteger()) {
            long value = element.getLong();
            return dtype == DType.UINT64 && value < 0 ? JSON.numberNode(new BigInteger(Long.toUnsignedString(value))) : JSON.numberNode(value);
        }
        return realJson(element.getDouble());
    }

    private static JsonNode realJson(double value) {
        if (Double.isNaN(value)) {
            return JSON.textNode("NaN");
        }
        if (Double.isInfinite(value)) {
            return JSON.textNode(value > 0 ? "Infinity" : "-Infinity");
        }
        return JSON.numberNode(value);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FillValue that && dtype == that.dtype && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return dtype.hashCode() * 31 + Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return bytes == null ? "FillValue[none, " + dtype + "]" : "FillValue[" + toJson() + ", " + dtype + ", 0x" + HexFormat.of().formatHex(bytes) + "]";
    }
}
