package org.tessera.ndarray.format;

import java.math.BigDecimal;

import org.tessera.ndarray.dtype.DType;

/** NumPy's positional float text: shortest round-trip digits in the value's own precision. */
final class FloatTexts {
    private FloatTexts() {}

    static String shortest(double value, DType dtype) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        String digits = dtype == DType.FLOAT64 ? Double.toString(value) : Float.toString((float) value);
        String plain = new BigDecimal(digits).toPlainString();
        if (!plain.contains(".")) {
            return plain + ".";
        }
        String trimmed = plain.replaceAll("0+$", "");
        return (value == 0 && 1 / value < 0 && !trimmed.startsWith("-") ? "-" : "") + trimmed;
    }

    /** Digits after the point that the shortest scientific form of a positional text needs. */
    static int scientificDecimals(String positional) {
        BigDecimal decimal = new BigDecimal(positional.endsWith(".") ? positional + "0" : positional).stripTrailingZeros();
        return decimal.signum() == 0 ? 0 : decimal.precision() - 1;
    }

    /** A positional text in scientific form with exactly {@code decimals} digits after the point. */
    static String scientific(String positional, int decimals) {
        BigDecimal decimal = new BigDecimal(positional.endsWith(".") ? positional + "0" : positional).stripTrailingZeros();
        int exponent = decimal.signum() == 0 ? 0 : decimal.precision() - decimal.scale() - 1;
        String unscaled = decimal.unscaledValue().abs().toString();
        StringBuilder digits = new StringBuilder(decimal.signum() == 0 ? "0" : unscaled);
        while (digits.length() < decimals + 1) {
            digits.append('0');
        }
        String sign = decimal.signum() < 0 || positional.startsWith("-") ? "-" : "";
        return sign + digits.charAt(0) + "." + digits.substring(1) + "e" + (exponent < 0 ? "-" : "+")
                + String.format("%02d", Math.abs(exponent));
    }
}
