package org.tessera.ndarray.layout;

/** Memory order of a new array or of a reshape: row-major (C) or column-major (Fortran). */
public enum Order {
    C, F;

    /** "C" or "F", case-insensitive, as NumPy's {@code order=} argument. */
    public static Order fromName(String name) {
        return switch (name.toUpperCase(java.util.Locale.ROOT)) {
            case "C" -> C;
            case "F" -> F;
            default -> throw new IllegalArgumentException("order must be one of 'C' or 'F', got '" + name + "'");
        };
    }
}
