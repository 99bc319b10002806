package org.tessera.ndarray.blas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * OpenBLAS says which kernels it chose for the CPU, and a CPU it does not recognise (its generic
 * Prescott kernels, several times slower) gets a warning that names the variable that fixes it.
 */
class BlasKernelsTest {

    /** Selects the provider, as the first matrix product of a program does. */
    public static final class SelectProvider {
        public static void main(String[] arguments) {
            System.out.println("kernels " + Blas.selectedKernels());
        }
    }

    private static OpenBlasGemm openBlas() {
        Assumptions.assumeTrue(Blas.openBlas().isPresent(), "no OpenBLAS on this machine");
        return (OpenBlasGemm) Blas.openBlas().orElseThrow();
    }

    @Test
    void theLibraryNamesTheKernelsItChoseForThisCpu() {
        String core = openBlas().coreName().orElseThrow(() -> new AssertionError("openblas_get_corename gave nothing"));
        assertFalse(core.isBlank());
        if (Blas.selected() instanceof OpenBlasGemm) {
            assertEquals(core, Blas.selectedKernels());
        }
    }

    @Test
    void aCpuOpenBlasDoesNotKnowGetsAWarningNamingTheVariable() throws Exception {
        String location = openBlas().libraryLocation();
        // OPENBLAS_CORETYPE makes OpenBLAS take the kernels it names, as its own detection would on a CPU it does not know.
        String generic = run(location, "Prescott");
        assertTrue(generic.contains("kernels Prescott"), generic);
        assertTrue(generic.contains("did not recognise this CPU") && generic.contains("set OPENBLAS_CORETYPE before starting Java"), generic);
        String known = run(location, "Haswell");
        assertTrue(known.contains("kernels Haswell"), known);
        assertFalse(known.contains("OPENBLAS_CORETYPE"), known);
    }

    @Test
    void onlyTheGenericKernelsAreWarnedOf() {
        assertTrue(Blas.isGenericCore("Prescott") && Blas.isGenericCore("PRESCOTT"));
        assertFalse(Blas.isGenericCore("Haswell") || Blas.isGenericCore("SkylakeX") || Blas.isGenericCore("Zen"));
    }

    /** A new JVM that selects the provider with {@code OPENBLAS_CORETYPE} set; its output and error together. */
    private static String run(String library, String coreType) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder builder = new ProcessBuilder(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-D" + OpenBlasLibrary.LIBRARY_PROPERTY + "=" + library, "-cp", System.getProperty("java.class.path"), SelectProvider.class.getName()))
                .redirectErrorStream(true);
        builder.environment().put("OPENBLAS_CORETYPE", coreType);
        builder.environment().put("OPENBLAS_NUM_THREADS", "1");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), output);
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
