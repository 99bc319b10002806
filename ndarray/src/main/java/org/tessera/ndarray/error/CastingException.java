package org.tessera.ndarray.error;

/** A dtype conversion that the requested casting rule forbids (NumPy's TypeError / UFuncTypeError). */
public class CastingException extends IllegalArgumentException {
    public CastingException(String message) {
        super(message);
    }
}
