package org.tessera.ndarray.fft;

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

    /** The factor a transform of {@code n} points in the given direction multiplies its result by. */
    public double scale(long n, boolean forward) {
        return switch (this) {
            case BACKWARD -> forward ? 1.0 : 1.0 / n;
            case ORTHO -> 1.0 / Math.sqrt(n);
            case FORWARD -> forward ? 1.0 / n : 1.0;
        };
    }
}
