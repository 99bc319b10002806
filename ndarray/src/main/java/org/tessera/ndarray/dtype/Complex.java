package org.tessera.ndarray.dtype;

/** A complex value as NumPy's complex128 scalar holds it: two doubles. */
public record Complex(double real, double imag) {
    @Override
    public String toString() {
        return "(" + real + (imag < 0 || (imag == 0 && 1 / imag < 0) ? "" : "+") + imag + "j)";
    }
}
