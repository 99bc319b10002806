package org.tessera.ndarray.format;

import java.util.ArrayList;
import java.util.List;

import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.iteration.Operand;
import org.tessera.ndarray.kernel.Elements;

/**
 * Prints arrays as NumPy's repr and str do: nested brackets, elements right-aligned to a common
 * width, lines wrapped at 75 characters, and arrays of more than 1000 elements summarised with
 * "..." keeping 3 items at each edge of every axis. Floats use the shortest text that reads back
 * to the same value in their own precision, as NumPy's default does.
 */
public final class ArrayPrinter {
    private static final int LINE_WIDTH = 75;
    private static final long THRESHOLD = 1000;
    private static final int EDGE_ITEMS = 3;

    private ArrayPrinter() {}

    public static String repr(Operand operand, long[] shape) {
        DType dtype = operand.dtype();
        boolean defaultType = dtype == DType.INT64 || dtype == DType.FLOAT64 || dtype == DType.BOOL || dtype == DType.COMPLEX128;
        long size = 1;
        for (long length : shape) {
            size *= length;
        }
        if (size == 0) {
            String shapeText = shape.length == 1 ? "" : "shape=" + shapeTuple(shape) + ", ";
            return "array([], " + shapeText + "dtype=" + dtype + ")";
        }
        String prefix = "array(";
        String body = body(operand, shape, size, ", ", prefix.length());
        String shapeText = size > THRESHOLD ? ", shape=" + shapeTuple(shape) : "";
        return prefix + body + shapeText + (defaultType ? "" : ", dtype=" + dtype) + ")";
    }

    public static String str(Operand operand, long[] shape) {
        long size = 1;
        for (long length : shape) {
            size *= length;
        }
        return size == 0 ? "[]" : body(operand, shape, size, " ", 0);
    }

    private static String shapeTuple(long[] shape) {
        StringBuilder text = new StringBuilder("(");
        for (int axis = 0; axis < shape.length; axis++) {
            text.append(axis > 0 ? ", " : "").append(shape[axis]);
        }
        return text.append(shape.length == 1 ? ",)" : ")").toString();
    }

    private static String body(Operand operand, long[] shape, long size, String separator, int indent) {
        boolean summarise = size > THRESHOLD;
        List<String> texts = new ArrayList<>();
        collect(operand, shape, 0, operand.byteOffset(), summarise, texts);
        Format format = Format.of(operand.dtype(), texts);
        if (shape.length == 0) {
            return format.render(texts.getFirst()).strip();
        }
        StringBuilder out = new StringBuilder();
        int[] next = {0};
        append(out, shape, 0, summarise, texts, format, next, separator, indent);
        return out.toString();
    }

    private static void collect(Operand operand, long[] shape, int axis, long offset, boolean summarise, List<String> texts) {
        if (axis == shape.length) {
            texts.add(element(operand.dtype(), operand, offset));
            return;
        }
        long stride = operand.byteStrides()[axis];
        for (long i : positions(shape[axis], summarise)) {
            collect(operand, shape, axis + 1, offset + i * stride, summarise, texts);
        }
    }

    private static long[] positions(long length, boolean summarise) {
        if (!summarise || length <= 2 * EDGE_ITEMS) {
            long[] all = new long[(int) length];
            for (int i = 0; i < all.length; i++) {
                all[i] = i;
            }
            return all;
        }
        long[] edges = new long[2 * EDGE_ITEMS];
        for (int i = 0; i < EDGE_ITEMS; i++) {
            edges[i] = i;
            edges[EDGE_ITEMS + i] = length - EDGE_ITEMS + i;
        }
        return edges;
    }

    private static void append(StringBuilder out, long[] shape, int axis, boolean summarise, List<String> texts, Format format,
                               int[] next, String separator, int indent) {
        long length = shape[axis];
        boolean elided = summarise && length > 2 * EDGE_ITEMS;
        int count = (int) (elided ? 2 * EDGE_ITEMS : length);
        out.append('[');
        int lineStart = out.lastIndexOf("\n") + 1;
        String itemSeparator = separator.strip();
        for (int i = 0; i < count; i++) {
            if (axis + 1 == shape.length) {
                String item = format.render(texts.get(next[0]++));
                if (i > 0) {
                    out.append(itemSeparator);
                    int column = out.length() - lineStart + (lineStart == 0 ? indent : 0);
                    if (column + 1 + item.length() + (i + 1 < count ? itemSeparator.length() : 1 + axis) > LINE_WIDTH) {
                        out.append('\n').append(" ".repeat(indent + axis + 1));
                        lineStart = out.lastIndexOf("\n") + 1;
                    } else {
                        out.append(' ');
                    }
                }
                out.append(item);
                if (elided && i == EDGE_ITEMS - 1) {
                    out.append(itemSeparator).append(" ...");
                }
            } else {
                if (i > 0) {
                    out.append(itemSeparator).append("\n".repeat(shape.length - axis - 1)).append(" ".repeat(indent + axis + 1));
                }
                append(out, shape, axis + 1, summarise, texts, format, next, separator, indent);
                if (elided && i == EDGE_ITEMS - 1) {
                    out.append(itemSeparator).append("\n".repeat(shape.length - axis - 1)).append(" ".repeat(indent + axis + 1)).append("...");
                }
            }
        }
        out.append(']');
    }

    private static String element(DType dtype, Operand operand, long offset) {
        return switch (dtype.kind()) {
            case BOOL -> Elements.loadLong(dtype, operand.segment(), offset) != 0 ? "True" : "False";
            case SIGNED -> Long.toString(Elements.loadLong(dtype, operand.segment(), offset));
            case UNSIGNED -> Long.toUnsignedString(Elements.loadLong(dtype, operand.segment(), offset));
            case FLOAT -> FloatTexts.shortest(Elements.loadReal(dtype, operand.segment(), offset), dtype);
            case COMPLEX -> {
                DType part = dtype.realType();
                String real = FloatTexts.shortest(Elements.loadReal(dtype, operand.segment(), offset), part);
                String imag = FloatTexts.shortest(Elements.loadImag(dtype, operand.segment(), offset), part);
                yield real + (imag.startsWith("-") ? "" : "+") + imag + "j";
            }
        };
    }

    /**
     * Pads elements to a common width, right-aligned; positional floats align on the decimal
     * point, with the fraction padded on the right, as NumPy's default float formatter does.
     */
    private record Format(int width, int integerWidth, int fractionWidth, int scientificDecimals) {
        static Format of(DType dtype, List<String> texts) {
            int scientificDecimals = dtype.isFloat() && needsScientific(texts) ? maximumScientificDecimals(texts) : -1;
            int width = 0;
            int integerWidth = 0;
            int fractionWidth = -1;
            for (String original : texts) {
                String text = scientificDecimals >= 0 && isFinite(original) ? FloatTexts.scientific(original, scientificDecimals) : original;
                width = Math.max(width, text.length());
                int point = text.indexOf('.');
                if (dtype.isFloat() && scientificDecimals < 0 && point >= 0) {
                    integerWidth = Math.max(integerWidth, point);
                    fractionWidth = Math.max(fractionWidth, text.length() - point - 1);
                }
            }
            if (fractionWidth >= 0) {
                width = Math.max(width, integerWidth + 1 + fractionWidth);
            }
            return new Format(width, fractionWidth < 0 ? -1 : integerWidth, fractionWidth, scientificDecimals);
        }

        /** NumPy switches to scientific notation for very large or small values or a wide range. */
        private static boolean needsScientific(List<String> texts) {
            java.math.BigDecimal largest = null;
            java.math.BigDecimal smallest = null;
            for (String text : texts) {
                if (!isFinite(text)) {
                    continue;
                }
                java.math.BigDecimal magnitude = new java.math.BigDecimal(text.endsWith(".") ? text + "0" : text).abs();
                if (magnitude.signum() == 0) {
                    continue;
                }
                largest = largest == null || magnitude.compareTo(largest) > 0 ? magnitude : largest;
                smallest = smallest == null || magnitude.compareTo(smallest) < 0 ? magnitude : smallest;
            }
            if (largest == null) {
                return false;
            }
            return largest.compareTo(new java.math.BigDecimal("1e8")) >= 0 || smallest.compareTo(new java.math.BigDecimal("0.0001")) < 0
                    || largest.compareTo(smallest.multiply(java.math.BigDecimal.valueOf(1000))) > 0;
        }

        private static int maximumScientificDecimals(List<String> texts) {
            int decimals = 0;
            for (String text : texts) {
                if (isFinite(text)) {
                    decimals = Math.max(decimals, FloatTexts.scientificDecimals(text));
                }
            }
            return decimals;
        }

        private static boolean isFinite(String text) {
            return !text.equals("nan") && !text.endsWith("inf");
        }

        String render(String original) {
            String text = scientificDecimals >= 0 && isFinite(original) ? FloatTexts.scientific(original, scientificDecimals) : original;
            int point = text.indexOf('.');
            if (integerWidth >= 0 && point >= 0) {
                String integer = text.substring(0, point);
                String fraction = text.substring(point + 1);
                text = " ".repeat(Math.max(0, integerWidth - integer.length())) + integer + "." + fraction
                        + " ".repeat(Math.max(0, fractionWidth - fraction.length()));
            }
            return " ".repeat(Math.max(0, width - text.length())) + text;
        }
    }
}
