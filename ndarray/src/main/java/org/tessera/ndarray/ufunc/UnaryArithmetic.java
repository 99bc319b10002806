package org.tessera.ndarray.ufunc;

/**
 * The float functions of one argument whose block loops are spelt out, as {@link Arithmetic}
 * does for the binary operators: each is a single instruction that C2 vectorises once the loop
 * holds no call.
 */
enum UnaryArithmetic {
    NEGATIVE, ABSOLUTE, SQUARE, SQRT;

    void apply(double[] x, double[] result, int count) {
        switch (this) {
            case NEGATIVE -> { for (int i = 0; i < count; i++) { result[i] = -x[i]; } }
            case ABSOLUTE -> { for (int i = 0; i < count; i++) { result[i] = Math.abs(x[i]); } }
            case SQUARE -> { for (int i = 0; i < count; i++) { result[i] = x[i] * x[i]; } }
            case SQRT -> { for (int i = 0; i < count; i++) { result[i] = Math.sqrt(x[i]); } }
        }
    }
}
