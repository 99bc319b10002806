package org.tessera.ndarray.conformance;

import org.tessera.ndarray.error.ArgumentTypeException;
import org.tessera.ndarray.error.AxisException;
import org.tessera.ndarray.error.CastingException;

/** Maps Tessera's exceptions onto the NumPy error categories the corpus records. */
public final class ErrorCategories {
    private ErrorCategories() {}

    /** Whether {@code thrown} is what NumPy's {@code category} corresponds to. */
    public static boolean matches(String category, RuntimeException thrown) {
        return switch (category) {
            case "TypeError" -> thrown instanceof CastingException || thrown instanceof ArgumentTypeException;
            // NumPy's AxisError is both a ValueError and an IndexError.
            case "IndexError" -> thrown instanceof IndexOutOfBoundsException;
            case "ValueError" -> thrown instanceof AxisException
                    || (thrown instanceof IllegalArgumentException && !(thrown instanceof CastingException)
                            && !(thrown instanceof ArgumentTypeException))
                    || thrown instanceof UnsupportedOperationException;
            case "OverflowError" -> thrown instanceof ArithmeticException;
            default -> false;
        };
    }
}
