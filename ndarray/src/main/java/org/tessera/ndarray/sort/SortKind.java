package org.tessera.ndarray.sort;

import java.util.Locale;

/**
 * NumPy's sort kinds. All are served by one stable sort (see the package note); the kind is kept
 * so that code written for NumPy reads the same and so that {@code STABLE}'s promise is explicit.
 */
public enum SortKind {
    QUICKSORT, MERGESORT, HEAPSORT, STABLE;

    /** Looks a kind up by NumPy's name ({@code "quicksort"}, {@code "stable"}, ...). */
    public static SortKind fromName(String name) {
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException unknown) {
            throw new IllegalArgumentException("sort kind must be one of 'quick', 'heap', or 'stable' (got '" + name + "')");
        }
    }
}
