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
        if (chosen instanceof OpenBlasGemm openBlas && openBlas.coreName().filter(Blas::isGenericCore).isPresent()) {
            System.getLogger(Blas.class.getName()).log(System.Logger.Level.WARNING, genericCoreWarning(openBlas.libraryLocation()));
        }
        return chosen;
    }

    /**
     * Whether OpenBLAS fell back to its generic x86-64 kernels (Prescott, SSE3): it does so on a CPU
     * its detection does not know, such as Debian's 0.3.21 on a Sapphire Rapids Xeon, where its
     * matrix products then run several times slower than they can.
     */
    static boolean isGenericCore(String coreName) {
        return coreName.equalsIgnoreCase("Prescott");
    }

    static String genericCoreWarning(String location) {
        return "OpenBLAS (" + location + ") uses its generic Prescott kernels: it did not recognise this CPU (or OPENBLAS_CORETYPE asked for "
                + "them); set OPENBLAS_CORETYPE before starting Java (SkylakeX on a CPU with AVX-512, Haswell with AVX2, Zen on an AMD Zen) "
                + "for its optimised ones";
    }

    /** The kernels the selected provider runs: OpenBLAS's core name where it says, else the provider's name. */
    public static String selectedKernels() {
        return SELECTED instanceof OpenBlasGemm openBlas ? openBlas.coreName().orElse(openBlas.name()) : SELECTED.name();
    }
}
