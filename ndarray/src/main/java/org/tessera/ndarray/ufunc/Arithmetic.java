package org.tessera.ndarray.ufunc;

/**
 * The binary operators whose block loops are spelt out rather than called through a function
 * object: one counted loop per operator, chosen once per block, which C2 vectorises. Every other
 * kernel calls its scalar function per element; these are the ones NumPy users run most (the
 * unary counterparts are in {@link UnaryArithmetic}). MAXIMUM and MINIMUM propagate NaN; on longs
 * they compare signed, so uint64 loops do not use them.
 */
enum Arithmetic implements java.util.function.DoubleBinaryOperator, java.util.function.LongBinaryOperator {
    ADD, SUBTRACT, MULTIPLY, DIVIDE, MAXIMUM, MINIMUM;

    @Override
    public double applyAsDouble(double x, double y) {
        return switch (this) {
            case ADD -> x + y;
            case SUBTRACT -> x - y;
            case MULTIPLY -> x * y;
            case DIVIDE -> x / y;
            case MAXIMUM -> FloatMath.maximum(x, y);
            case MINIMUM -> FloatMath.minimum(x, y);
        };
    }

    /** Wrapping integer arithmetic; integers have no DIVIDE loop (true_divide runs in float64). */
    @Override
    public long applyAsLong(long x, long y) {
        return switch (this) {
            case ADD -> x + y;
            case SUBTRACT -> x - y;
            case MULTIPLY -> x * y;
            case DIVIDE -> throw new UnsupportedOperationException("integer true division has no long loop");
            case MAXIMUM -> Math.max(x, y);
            case MINIMUM -> Math.min(x, y);
        };
    }

    void apply(double[] x, double[] y, double[] result, int count) {
        switch (this) {
            case ADD -> { for (int i = 0; i < count; i++) { result[i] = x[i] + y[i]; } }
            case SUBTRACT -> { for (int i = 0; i < count; i++) { result[i] = x[i] - y[i]; } }
            case MULTIPLY -> { for (int i = 0; i < count; i++) { result[i] = x[i] * y[i]; } }
            case DIVIDE -> { for (int i = 0; i < count; i++) { result[i] = x[i] / y[i]; } }
            case MAXIMUM -> { for (int i = 0; i < count; i++) { result[i] = x[i] != x[i] || y[i] != y[i] ? Double.NaN : Math.max(x[i], y[i]); } }
            case MINIMUM -> { for (int i = 0; i < count; i++) { result[i] = x[i] != x[i] || y[i] != y[i] ? Double.NaN : Math.min(x[i], y[i]); } }
        }
    }

    void apply(long[] x, long[] y, long[] result, int count) {
        switch (this) {
            case ADD -> { for (int i = 0; i < count; i++) { result[i] = x[i] + y[i]; } }
            case SUBTRACT -> { for (int i = 0; i < count; i++) { result[i] = x[i] - y[i]; } }
            case MULTIPLY -> { for (int i = 0; i < count; i++) { result[i] = x[i] * y[i]; } }
            case DIVIDE -> throw new UnsupportedOperationException("integer true division has no long loop");
            case MAXIMUM -> { for (int i = 0; i < count; i++) { result[i] = Math.max(x[i], y[i]); } }
            case MINIMUM -> { for (int i = 0; i < count; i++) { result[i] = Math.min(x[i], y[i]); } }
        }
    }
}
