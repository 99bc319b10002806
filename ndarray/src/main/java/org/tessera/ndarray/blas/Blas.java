package org.tessera.ndarray.blas;

import java.util.Locale;
import java.util.Optional;

/**
 * Chooses the GEMM provider once per JVM: OpenBLAS when a library is found, else the Java kernel.
 * {@code -Dtessera.blas=java} forces the Java kernel (tests run both); {@code -Dtessera.blas=openblas}
 * makes a missing library an error instead of a silent fallback.
 */
public final class Blas {
    private Blas() {}

    static final String PROVIDER_PROPERTY = "tessera.blas";

    private static final Optional<Gemm> OPEN_BLAS = OpenBlasLibrary.find().map(OpenBlasGemm::new);
    private static final Gemm SELECTED = choose();

    /** The provider matrix products use. */
    public static Gemm selected() {
        return SELECTED;
    }

    /** The pure-Java provider, always available. */
    public static Gemm java() {
        return JavaGemm.INSTANCE;
    }

    /** The OpenBLAS provider, when a library was found. */
    public static Optional<Gemm> openBlas() {
        return OPEN_BLAS;
    }

    private static Gemm choose() {
        String requested = System.getProperty(PROVIDER_PROPERTY, "auto").toLowerCase(Locale.ROOT);
        Gemm chosen = switch (requested) {
            case "java" -> JavaGemm.INSTANCE;
            case "openblas" -> OPEN_BLAS.orElseThrow(() -> new IllegalStateException(
                    "-D" + PROVIDER_PROPERTY + "=openblas but no OpenBLAS library was found; set -D"
                            + OpenBlasLibrary.LIBRARY_PROPERTY + "=/path/to/libopenblas.so"));
            case "auto" -> OPEN_BLAS.orElse(JavaGemm.INSTANCE);
            default -> throw new IllegalArgumentException(
                    "-D" + PROVIDER_PROPERTY + "=" + requested + " is not one of java, openblas, auto");
        };
        System.getLogger(Blas.class.getName()).log(System.Logger.Level.DEBUG,
                () -> "matrix products use " + chosen.name() + OPEN_BLAS.map(found -> " (" +
                        ((OpenBlasGemm) found).libraryLocation() + ")").orElse(""));
        return chosen;
    }
}
