package org.tessera.array.shape;

/**
 * How {@link Padding#pad} fills the new elements, NumPy's {@code mode}: a constant, the edge value
 * repeated, or the array itself read again (mirrored without the edge, mirrored with it, or
 * wrapped around). The three reuse modes continue periodically for widths beyond the array's
 * length, as NumPy's pad does.
 */
public sealed interface PadMode {
    /** The edge values repeated ({@code 'edge'}). */
    PadMode EDGE = new Edge();
    /** Mirrored about the edge element, which is not repeated ({@code 'reflect'}: d c b | a b c d | c b a). */
    PadMode REFLECT = new Reflect();
    /** Mirrored including the edge element ({@code 'symmetric'}: c b a | a b c d | d c b). */
    PadMode SYMMETRIC = new Symmetric();
    /** The other end of the axis ({@code 'wrap'}: b c d | a b c d | a b c). */
    PadMode WRAP = new Wrap();

    /** {@code value} (cast to the array's dtype) everywhere ({@code 'constant'}; NumPy's default is 0). */
    static PadMode constant(Number value) {
        return new Constant(value);
    }

    record Constant(Number value) implements PadMode {
        public Constant {
            java.util.Objects.requireNonNull(value, "the constant of a constant pad");
        }
    }

    record Edge() implements PadMode {
    }

    record Reflect() implements PadMode {
    }

    record Symmetric() implements PadMode {
    }

    record Wrap() implements PadMode {
    }
}
