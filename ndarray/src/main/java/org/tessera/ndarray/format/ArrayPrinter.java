package org.tessera.ndarray.format;

import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.iteration.Operand;
import org.tessera.ndarray.kernel.Elements;

/** Prints arrays as NumPy's repr and str do (nested brackets, the dtype when it is not a default). */
public final class ArrayPrinter {
    private ArrayPrinter() {}

    public static String repr(Operand operand, long[] shape) {
        StringBuilder text = new StringBuilder("array(");
        append(text, operand, shape, 0, operand.byteOffset(), ", ", 6);
        DType dtype = operand.dtype();
        if (dtype != DType.INT64 && dtype != DType.FLOAT64 && dtype != DType.BOOL && dtype != DType.COMPLEX128) {
            text.append(", dtype=").append(dtype);
        }
        return text.append(')').toString();
    }

    public static String str(Operand operand, long[] shape) {
        StringBuilder text = new StringBuilder();
        append(text, operand, shape, 0, operand.byteOffset(), " ", 0);
        return text.toString();
    }

    private static void append(StringBuilder text, Operand operand, long[] shape, int axis, long offset, String separator, int indent) {
        if (axis == shape.length) {
            text.append(element(operand.dtype(), operand, offset));
            return;
        }
        text.append('[');
        long stride = operand.byteStrides()[axis];
        for (long i = 0; i < shape[axis]; i++) {
            if (i > 0) {
                text.append(separator.strip());
                if (axis + 1 < shape.length) {
                    text.append("\n".repeat(shape.length - axis - 1)).append(" ".repeat(indent + axis + 1));
                } else {
                    text.append(' ');
                }
            }
            append(text, operand, shape, axis + 1, offset + i * stride, separator, indent);
        }
        text.append(']');
    }

    private static String element(DType dtype, Operand operand, long offset) {
        return switch (dtype.kind()) {
            case BOOL -> Elements.loadLong(dtype, operand.segment(), offset) != 0 ? "True" : "False";
            case SIGNED -> Long.toString(Elements.loadLong(dtype, operand.segment(), offset));
            case UNSIGNED -> Long.toUnsignedString(Elements.loadLong(dtype, operand.segment(), offset));
            case FLOAT -> real(Elements.loadReal(dtype, operand.segment(), offset));
            case COMPLEX -> real(Elements.loadReal(dtype, operand.segment(), offset)) + "+"
                    + real(Elements.loadImag(dtype, operand.segment(), offset)) + "j";
        };
    }

    private static String real(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        String text = Double.toString(value);
        return text.endsWith(".0") ? text.substring(0, text.length() - 1) : text;
    }
}
