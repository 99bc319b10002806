package org.tessera.ndarray.decomposition;

/**
 * A matrix that the requested algebra cannot handle: singular where an inverse is needed, not
 * positive definite for Cholesky, or an SVD that did not converge (NumPy's {@code LinAlgError}).
 */
public class LinearAlgebraException extends ArithmeticException {
    public LinearAlgebraException(String message) {
        super(message);
    }
}
