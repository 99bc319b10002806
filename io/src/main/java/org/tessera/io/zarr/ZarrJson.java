package org.tessera.io.zarr;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Reading and writing Zarr's JSON documents, and the checks on their fields. */
final class ZarrJson {
    /**
     * zarr-python writes NaN and Infinity as bare tokens in attributes (Python's json allows them),
     * so the reader accepts them too.
     */
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private ZarrJson() {
    }

    static JsonNode parse(byte[] bytes, String where) throws ZarrFormatException {
        try {
            JsonNode node = MAPPER.readTree(bytes);
            if (node == null || !node.isObject()) {
                throw new ZarrFormatException(where + ": expected a JSON object, got " + (node == null ? "nothing" : node.getNodeType()));
            }
            return node;
        } catch (IOException malformed) {
            throw new ZarrFormatException(where + ": malformed JSON: " + malformed.getMessage(), malformed);
        }
    }

    static byte[] write(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (IOException impossible) {
            throw new IllegalStateException("cannot write JSON " + node, impossible);
        }
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static JsonNode require(JsonNode node, String field, String where) throws ZarrFormatException {
        JsonNode value = node.get(field);
        if (value == null) {
            throw new ZarrFormatException(where + ": required field \"" + field + "\" is missing");
        }
        return value;
    }

    static long[] longArray(JsonNode node, String field, String where) throws ZarrFormatException {
        JsonNode array = require(node, field, where);
        if (!array.isArray()) {
            throw new ZarrFormatException(where + ": field \"" + field + "\" must be an array of integers, got " + array);
        }
        long[] values = new long[array.size()];
        for (int position = 0; position < values.length; position++) {
            JsonNode element = array.get(position);
            // canConvertToLong: Jackson's longValue() of 2**70 wraps around instead of failing.
            if (!element.isIntegralNumber() || !element.canConvertToLong() || element.longValue() < 0) {
                throw new ZarrFormatException(where + ": field \"" + field + "\" must hold non-negative integers, got " + array);
            }
            values[position] = element.longValue();
        }
        return values;
    }

    static int intField(JsonNode node, String field, int missing, String where) throws ZarrFormatException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return missing;
        }
        if (!value.isIntegralNumber()) {
            throw new ZarrFormatException(where + ": field \"" + field + "\" must be an integer, got " + value);
        }
        return value.intValue();
    }

    static String textField(JsonNode node, String field, String missing, String where) throws ZarrFormatException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return missing;
        }
        if (!value.isTextual()) {
            throw new ZarrFormatException(where + ": field \"" + field + "\" must be a string, got " + value);
        }
        return value.textValue();
    }

    /** A JSON object as plain Java values (maps, lists, strings, numbers, booleans, null). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> toMap(JsonNode node) {
        if (node == null || node.isNull()) {
            return new LinkedHashMap<>();
        }
        return MAPPER.convertValue(node, LinkedHashMap.class);
    }

    /** The "attributes" of a v3 document as plain Java values; anything but an object (or nothing) is a format error. */
    static Map<String, Object> attributes(JsonNode document, String where) throws ZarrFormatException {
        JsonNode node = document.get("attributes");
        if (node != null && !node.isNull() && !node.isObject()) {
            throw new ZarrFormatException(where + ": \"attributes\" must be a JSON object, got " + node.getNodeType());
        }
        return toMap(node);
    }

    static JsonNode fromMap(Map<String, ?> attributes) {
        return MAPPER.valueToTree(attributes);
    }

    static JsonNode longArrayNode(long[] values) {
        var array = MAPPER.createArrayNode();
        for (long value : values) {
            array.add(value);
        }
        return array;
    }
}
