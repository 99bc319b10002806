package org.tessera.ndarray.ufunc;

/**
 * Complex arithmetic and functions on (real, imaginary) pairs, as C99's complex functions that
 * NumPy's complex loops follow: Smith's division, a cancellation-free square root, and the
 * principal branches of log and sqrt. Results are written at {@code result[at]} and {@code result[at + 1]}.
 */
final class ComplexMath {
    private ComplexMath() {}

    static void add(double a, double b, double c, double d, double[] result, int at) {
        result[at] = a + c;
        result[at + 1] = b + d;
    }

    static void subtract(double a, double b, double c, double d, double[] result, int at) {
        result[at] = a - c;
        result[at + 1] = b - d;
    }

    static void multiply(double a, double b, double c, double d, double[] result, int at) {
        result[at] = a * c - b * d;
        result[at + 1] = a * d + b * c;
    }

    /** Smith's algorithm: scales by the larger part of the divisor so that no intermediate overflows. */
    static void divide(double a, double b, double c, double d, double[] result, int at) {
        if (Math.abs(c) >= Math.abs(d)) {
            if (c == 0 && d == 0) {
                result[at] = a / Math.abs(c);
                result[at + 1] = b / Math.abs(c);
                return;
            }
            double ratio = d / c;
            double denominator = c + d * ratio;
            result[at] = (a + b * ratio) / denominator;
            result[at + 1] = (b - a * ratio) / denominator;
        } else {
            double ratio = c / d;
            double denominator = c * ratio + d;
            result[at] = (a * ratio + b) / denominator;
            result[at + 1] = (b * ratio - a) / denominator;
        }
    }

    static void negative(double a, double b, double[] result, int at) {
        result[at] = -a;
        result[at + 1] = -b;
    }

    static void square(double a, double b, double[] result, int at) {
        multiply(a, b, a, b, result, at);
    }

    static double absolute(double a, double b) {
        return Math.hypot(a, b);
    }

    static void exp(double a, double b, double[] result, int at) {
        if (b == 0) {
            result[at] = Math.exp(a);
            result[at + 1] = b;
            return;
        }
        double magnitude = Math.exp(a);
        result[at] = magnitude * Math.cos(b);
        result[at + 1] = magnitude * Math.sin(b);
    }

    static void log(double a, double b, double[] result, int at) {
        result[at] = Math.log(Math.hypot(a, b));
        result[at + 1] = Math.atan2(b, a);
    }

    /** The principal root, computed from |z| without cancellation (Kahan's csqrt). */
    static void sqrt(double a, double b, double[] result, int at) {
        if (a == 0 && b == 0) {
            result[at] = 0.0;
            result[at + 1] = b;
            return;
        }
        if (Double.isInfinite(b)) {
            result[at] = Double.POSITIVE_INFINITY;
            result[at + 1] = b;
            return;
        }
        double t = Math.sqrt((Math.abs(a) + Math.hypot(a, b)) / 2);
        if (a >= 0) {
            result[at] = t;
            result[at + 1] = b / (2 * t);
        } else {
            result[at] = Math.abs(b) / (2 * t);
            result[at + 1] = Math.copySign(t, b);
        }
    }
}
