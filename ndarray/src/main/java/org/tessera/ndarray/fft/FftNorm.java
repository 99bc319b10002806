package org.tessera.ndarray.fft;

import org.tessera.ndarray.dtype.DType;

/**
 * NumPy's {@code norm} argument of the {@code numpy.fft} functions: which direction of a transform
 * pair is scaled. {@link #BACKWARD} (NumPy's default): the forward transform is unscaled, the
 * inverse divides by {@code n}; {@link #ORTHO}: both scale by {@code 1/sqrt(n)}; {@link #FORWARD}:
 * the forward transform divides by {@code n}, the inverse is unscaled. For a multi-axis transform
 * {@code n} is the length of each transformed axis in turn.
 */
public enum FftNorm {
    BACKWARD, ORTHO, FORWARD;

    /**
     * NumPy's spelling: {@code "backward"}, {@code "ortho"} or {@code "forward"}; null is
     * {@link #BACKWARD}, as NumPy's {@code norm=None}. Anything else is NumPy's ValueError.
     */
    public static FftNorm parse(String name) {
        if (name == null) {
            return BACKWARD;
        }
        return switch (name) {
            case "backward" -> BACKWARD;
            case "ortho" -> ORTHO;
            case "forward" -> FORWARD;
            default -> throw new IllegalArgumentException("Invalid norm value " + name + "; should be \"backward\", \"ortho\" or \"forward\".");
        };
    }

    /** NumPy's spelling of this value. */
    public String numpyName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * The factor a transform of {@code n} points in the given direction multiplies its result by, as
     * NumPy computes it: {@code 1/n} or {@code 1/sqrt(n)} evaluated in {@code realType}, the real
     * dtype of the input ({@code result_type(a.real.dtype, 1.0)}), so a float16 or float32 input gets
     * the factor rounded as NumPy's.
     */
    public double scale(long n, boolean forward, DType realType) {
        boolean root = this == ORTHO;
        boolean divide = root || (this == FORWARD) == forward;
        if (!divide) {
            return 1.0;
        }
        return switch (realType) {
            case FLOAT16 -> {
                float points = Float.float16ToFloat(Float.floatToFloat16((float) n));
                float denominator = root ? Float.float16ToFloat(Float.floatToFloat16((float) Math.sqrt(points))) : points;
                yield Float.float16ToFloat(Float.floatToFloat16(1.0f / denominator));
            }
            case FLOAT32 -> 1.0f / (root ? (float) Math.sqrt((float) n) : (float) n);
            default -> 1.0 / (root ? Math.sqrt(n) : n);
        };
    }
}
