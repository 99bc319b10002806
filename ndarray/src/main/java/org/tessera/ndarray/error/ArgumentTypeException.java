package org.tessera.ndarray.error;

/**
 * An argument of a kind the operation refuses, other than a dtype conversion (NumPy's TypeError):
 * for example a value of two or more axes assigned through a boolean mask over all of an array's axes.
 */
public class ArgumentTypeException extends IllegalArgumentException {
    public ArgumentTypeException(String message) {
        super(message);
    }
}
