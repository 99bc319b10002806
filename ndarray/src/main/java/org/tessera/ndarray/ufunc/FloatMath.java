package org.tessera.ndarray.ufunc;

/**
 * Float semantics that Java's {@link Math} lacks or spells differently from NumPy (C99 and
 * NumPy's npymath): Python's floor division and modulo, the inverse hyperbolic functions,
 * NaN-propagating and NaN-ignoring maxima. All take and return doubles; float32 and float16
 * loops round the result once on store.
 */
final class FloatMath {
    private FloatMath() {}

    private static final double LN2 = 0.6931471805599453;

    /** Python's {@code a // b}: the quotient of {@link #remainder}, snapped to an integer. */
    static double floorDivide(double a, double b) {
        if (b == 0) {
            return a / b;
        }
        double modulus = cRemainder(a, b);
        double quotient = (a - modulus) / b;
        if (modulus != 0 && (b < 0) != (modulus < 0)) {
            quotient -= 1.0;
        }
        if (quotient == 0) {
            return Math.copySign(0.0, a / b);
        }
        double floored = Math.floor(quotient);
        return quotient - floored > 0.5 ? floored + 1.0 : floored;
    }

    /** Python's {@code a % b}: the sign of the divisor; a zero result carries the divisor's sign. */
    static double remainder(double a, double b) {
        double modulus = cRemainder(a, b);
        if (b == 0) {
            return modulus;
        }
        if (modulus != 0) {
            return (b < 0) != (modulus < 0) ? modulus + b : modulus;
        }
        return Math.copySign(0.0, b);
    }

    /** C's {@code fmod}: Java's {@code %} on doubles is exactly that. */
    private static double cRemainder(double a, double b) {
        return a % b;
    }

    static double maximum(double a, double b) {
        return a != a || b != b ? Double.NaN : Math.max(a, b);
    }

    static double minimum(double a, double b) {
        return a != a || b != b ? Double.NaN : Math.min(a, b);
    }

    /** NumPy's fmax: a NaN loses to a number. */
    static double fmax(double a, double b) {
        return b != b ? a : a != a ? b : Math.max(a, b);
    }

    static double fmin(double a, double b) {
        return b != b ? a : a != a ? b : Math.min(a, b);
    }

    static double sign(double a) {
        return a > 0 ? 1.0 : a < 0 ? -1.0 : a == 0 ? 0.0 : Double.NaN;
    }

    /** log2 exact on powers of two: the exponent plus the logarithm of the mantissa in [1, 2). */
    static double log2(double a) {
        if (!(a > 0) || Double.isInfinite(a)) {
            return Math.log(a);
        }
        int exponent = Math.getExponent(a);
        if (exponent < Double.MIN_EXPONENT) {
            return Math.log(a) / LN2;
        }
        double mantissa = Math.scalb(a, -exponent);
        if (mantissa == 1.0) {
            return exponent;
        }
        if (mantissa > Math.sqrt(2)) {
            return exponent + 1 + Math.log(mantissa / 2) / LN2;
        }
        return exponent + Math.log(mantissa) / LN2;
    }

    static double exp2(double a) {
        return Math.pow(2.0, a);
    }

    static double arcsinh(double a) {
        double magnitude = Math.abs(a);
        double result;
        if (magnitude > 0x1p28) {
            result = Math.log(magnitude) + LN2;
        } else if (magnitude > 2) {
            result = Math.log(2 * magnitude + 1 / (Math.sqrt(a * a + 1) + magnitude));
        } else {
            double square = a * a;
            result = Math.log1p(magnitude + square / (1 + Math.sqrt(1 + square)));
        }
        return Math.copySign(result, a);
    }

    static double arccosh(double a) {
        if (a < 1) {
            return Double.NaN;
        }
        if (a > 0x1p28) {
            return Math.log(a) + LN2;
        }
        if (a > 2) {
            return Math.log(2 * a - 1 / (a + Math.sqrt(a * a - 1)));
        }
        double offset = a - 1;
        return Math.log1p(offset + Math.sqrt(2 * offset + offset * offset));
    }

    static double arctanh(double a) {
        double magnitude = Math.abs(a);
        double result;
        if (magnitude < 0.5) {
            double twice = magnitude + magnitude;
            result = 0.5 * Math.log1p(twice + twice * magnitude / (1 - magnitude));
        } else {
            result = 0.5 * Math.log1p((magnitude + magnitude) / (1 - magnitude));
        }
        return Math.copySign(result, a);
    }

    static double clip(double a, double low, double high) {
        return minimum(maximum(a, low), high);
    }
}
