package org.tessera.ndarray.decomposition;

/**
 * NumPy's {@code ord} argument of {@code norm}: "fro", "nuc", or a number p (including
 * {@code ±infinity}). For vectors p gives {@code sum(|x|^p)^(1/p)}, with max/min of |x| at
 * {@code ±inf} and the count of non-zeros at 0; for matrices only ±1, ±2, ±inf, "fro" and "nuc"
 * are defined (see {@link Norms}).
 */
public record NormOrder(Kind kind, double p) {
    public enum Kind { FROBENIUS, NUCLEAR, POWER }

    public static final NormOrder FROBENIUS = new NormOrder(Kind.FROBENIUS, 2);
    public static final NormOrder NUCLEAR = new NormOrder(Kind.NUCLEAR, 1);
    public static final NormOrder INFINITY = new NormOrder(Kind.POWER, Double.POSITIVE_INFINITY);
    public static final NormOrder NEGATIVE_INFINITY = new NormOrder(Kind.POWER, Double.NEGATIVE_INFINITY);

    public NormOrder {
        if (Double.isNaN(p)) {
            throw new IllegalArgumentException("a norm order must be a number or ±infinity, got NaN");
        }
    }

    public static NormOrder of(double p) {
        return new NormOrder(Kind.POWER, p);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case FROBENIUS -> "fro";
            case NUCLEAR -> "nuc";
            case POWER -> p == Math.rint(p) && !Double.isInfinite(p) ? Long.toString((long) p) : Double.toString(p);
        };
    }
}
