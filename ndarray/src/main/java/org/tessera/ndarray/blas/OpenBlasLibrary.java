package org.tessera.ndarray.blas;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.tessera.ndarray.dtype.DType;

/**
 * Finds a system OpenBLAS and binds its four {@code cblas_?gemm} functions, and the real
 * {@code cblas_?syrk} that computes a product of a matrix with its own transpose at half the work.
 * Each function has two handles: a plain downcall for native memory, and a critical one that may read heap arrays in
 * place, used only for short calls because a critical call holds off safepoints while it runs.
 */
final class OpenBlasLibrary {
    static final String LIBRARY_PROPERTY = "tessera.blas.library";

    private static final List<String> CANDIDATES = List.of(
            "/usr/lib/x86_64-linux-gnu/libopenblas.so.0",
            "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0",
            "/usr/lib/x86_64-linux-gnu/openblas-openmp/libopenblas.so.0",
            "/usr/lib/x86_64-linux-gnu/openblas-serial/libopenblas.so.0",
            "/usr/lib/aarch64-linux-gnu/libopenblas.so.0",
            "/usr/lib/aarch64-linux-gnu/openblas-pthread/libopenblas.so.0",
            "/usr/lib64/libopenblasp.so.0",
            "/usr/lib64/libopenblas.so.0",
            "/usr/local/lib/libopenblas.so.0",
            "/usr/local/lib/libopenblas.so",
            "/opt/homebrew/opt/openblas/lib/libopenblas.dylib");
    /** Names handed to the dynamic loader when no candidate path exists (it searches its own path). */
    private static final List<String> LOADER_NAMES = List.of("libopenblas.so.0", "libopenblasp.so.0", "libopenblas.so");

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;

    private final String location;
    /** The kernels OpenBLAS chose for this CPU ({@code openblas_get_corename}), or null where the library does not say. */
    private final String coreName;
    private final Binding[] bindings = new Binding[DType.values().length];
    private final Binding[] symmetricBindings = new Binding[DType.values().length];

    /** The pair of handles for one {@code cblas_?gemm} or {@code cblas_?syrk}. */
    record Binding(MethodHandle plain, MethodHandle critical) {}

    private OpenBlasLibrary(String location, SymbolLookup lookup) {
        this.location = location;
        bind(lookup, DType.FLOAT32, "cblas_sgemm", ValueLayout.JAVA_FLOAT);
        bind(lookup, DType.FLOAT64, "cblas_dgemm", ValueLayout.JAVA_DOUBLE);
        bind(lookup, DType.COMPLEX64, "cblas_cgemm", ValueLayout.ADDRESS);
        bind(lookup, DType.COMPLEX128, "cblas_zgemm", ValueLayout.ADDRESS);
        bindSymmetric(lookup, DType.FLOAT32, "cblas_ssyrk", ValueLayout.JAVA_FLOAT);
        bindSymmetric(lookup, DType.FLOAT64, "cblas_dsyrk", ValueLayout.JAVA_DOUBLE);
        coreName = coreName(lookup);
    }

    /** {@code char *openblas_get_corename(void)}: a static string, read once. */
    private static String coreName(SymbolLookup lookup) {
        return lookup.find("openblas_get_corename").map(address -> {
            MethodHandle corename = Linker.nativeLinker().downcallHandle(address, FunctionDescriptor.of(ValueLayout.ADDRESS));
            try {
                MemorySegment name = (MemorySegment) corename.invokeExact();
                return name.equals(MemorySegment.NULL) ? null : name.reinterpret(256).getString(0);
            } catch (Throwable failed) {
                return null;
            }
        }).orElse(null);
    }

    /** The library named by {@code tessera.blas.library}, else the first OpenBLAS found on the system. */
    static Optional<OpenBlasLibrary> find() {
        String requested = configuredLocation();
        List<String> tries = new ArrayList<>();
        if (requested != null) {
            tries.add(requested);
        } else {
            CANDIDATES.stream().filter(path -> Files.exists(Path.of(path))).forEach(tries::add);
            tries.addAll(LOADER_NAMES);
        }
        for (String location : tries) {
            Optional<OpenBlasLibrary> loaded = load(location);
            if (loaded.isPresent()) {
                return loaded;
            }
        }
        return Optional.empty();
    }

    private static String configuredLocation() {
        String property = System.getProperty(LIBRARY_PROPERTY);
        if (property != null && !property.isBlank()) {
            return property;
        }
        String environment = System.getenv(LIBRARY_PROPERTY);
        if (environment == null) {
            environment = System.getenv("TESSERA_BLAS_LIBRARY");
        }
        return environment == null || environment.isBlank() ? null : environment;
    }

    private static Optional<OpenBlasLibrary> load(String location) {
        try {
            SymbolLookup lookup = location.contains("/")
                    ? SymbolLookup.libraryLookup(Path.of(location), Arena.global())
                    : SymbolLookup.libraryLookup(location, Arena.global());
            if (lookup.find("cblas_dgemm").isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new OpenBlasLibrary(location, lookup));
        } catch (IllegalArgumentException | IllegalCallerException | UnsupportedOperationException notLoadable) {
            return Optional.empty();
        }
    }

    private void bind(SymbolLookup lookup, DType dtype, String symbol, MemoryLayout scalarLayout) {
        MemorySegment address = lookup.find(symbol).orElseThrow(
                () -> new IllegalStateException(location + " has cblas_dgemm but not " + symbol));
        // (order, transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc)
        FunctionDescriptor descriptor = FunctionDescriptor.ofVoid(INT, INT, INT, INT, INT, INT, scalarLayout,
                ValueLayout.ADDRESS, INT, ValueLayout.ADDRESS, INT, scalarLayout, ValueLayout.ADDRESS, INT);
        bindings[dtype.ordinal()] = handles(address, descriptor);
    }

    /** A missing syrk is no error: products of a matrix with its transpose then go through gemm. */
    private void bindSymmetric(SymbolLookup lookup, DType dtype, String symbol, MemoryLayout scalarLayout) {
        // (order, uplo, trans, N, K, alpha, A, lda, beta, C, ldc)
        FunctionDescriptor descriptor = FunctionDescriptor.ofVoid(INT, INT, INT, INT, INT, scalarLayout,
                ValueLayout.ADDRESS, INT, scalarLayout, ValueLayout.ADDRESS, INT);
        lookup.find(symbol).ifPresent(address -> symmetricBindings[dtype.ordinal()] = handles(address, descriptor));
    }

    private static Binding handles(MemorySegment address, FunctionDescriptor descriptor) {
        Linker linker = Linker.nativeLinker();
        return new Binding(linker.downcallHandle(address, descriptor),
                linker.downcallHandle(address, descriptor, Linker.Option.critical(true)));
    }

    /** The gemm of {@code dtype}, or null when BLAS has none (integers, bool, float16). */
    Binding binding(DType dtype) {
        return bindings[dtype.ordinal()];
    }

    /** The syrk of {@code dtype}, or null (only float32 and float64 have one bound). */
    Binding symmetricBinding(DType dtype) {
        return symmetricBindings[dtype.ordinal()];
    }

    String location() {
        return location;
    }

    Optional<String> coreName() {
        return Optional.ofNullable(coreName);
    }
}
