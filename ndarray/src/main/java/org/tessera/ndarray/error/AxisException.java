package org.tessera.ndarray.error;

/**
 * An axis argument outside {@code [-ndim, ndim)}, NumPy's {@code AxisError}. NumPy's AxisError is
 * both a ValueError and an IndexError; here it is an {@link IndexOutOfBoundsException}.
 */
public class AxisException extends IndexOutOfBoundsException {
    private final int axis;
    private final int ndim;

    public AxisException(int axis, int ndim) {
        super("axis " + axis + " is out of bounds for array of dimension " + ndim);
        this.axis = axis;
        this.ndim = ndim;
    }

    public int axis() { return axis; }

    public int ndim() { return ndim; }
}
