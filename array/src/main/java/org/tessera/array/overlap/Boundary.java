package org.tessera.array.overlap;

import java.io.Serial;
import java.io.Serializable;
import java.util.Objects;

/**
 * What the ghost cells beyond the ends of an axis hold, Dask's {@code boundary}: none (the outer
 * blocks get no ghost cells there), reflect (mirrored including the edge element, as Dask and
 * scipy.ndimage reflect: c b a | a b c), periodic (the other end of the axis), nearest (the edge
 * element repeated) or a constant.
 */
public record Boundary(Kind kind, Number constant) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    public static final Boundary NONE = new Boundary(Kind.NONE, null);
    public static final Boundary REFLECT = new Boundary(Kind.REFLECT, null);
    public static final Boundary PERIODIC = new Boundary(Kind.PERIODIC, null);
    public static final Boundary NEAREST = new Boundary(Kind.NEAREST, null);

    public enum Kind {
        NONE, REFLECT, PERIODIC, NEAREST, CONSTANT
    }

    public Boundary {
        Objects.requireNonNull(kind, "boundary kind");
        if ((kind == Kind.CONSTANT) != (constant != null)) {
            throw new IllegalArgumentException("a boundary has a constant exactly when its kind is CONSTANT, got " + kind + " with " + constant);
        }
    }

    /** Ghost cells of {@code value}, cast to the array's dtype. */
    public static Boundary constant(Number value) {
        return new Boundary(Kind.CONSTANT, Objects.requireNonNull(value, "the boundary constant"));
    }

    @Override
    public String toString() {
        return kind == Kind.CONSTANT ? "constant(" + constant + ")" : kind.name().toLowerCase(java.util.Locale.ROOT);
    }
}
