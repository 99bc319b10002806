package org.tessera.ndarray.error;

/** Shapes that do not fit together: broadcasting, reshape, concatenation (NumPy's ValueError). */
public class ShapeMismatchException extends IllegalArgumentException {
    public ShapeMismatchException(String message) {
        super(message);
    }
}
