package org.tessera.io.zarr;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * Runs checks in real zarr-python (/usr/bin/python3 with zarr installed). Tests that need it call
 * {@link #assumeAvailable()}, so machines without Python skip only the interoperability step.
 */
final class ZarrPython {
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static Boolean available;

    private ZarrPython() {
    }

    static synchronized void assumeAvailable() {
        if (available == null) {
            try {
                available = Files.isExecutable(PYTHON) && run("import zarr, numcodecs, numpy", List.of()).exitCode() == 0;
            } catch (IOException | InterruptedException unavailable) {
                available = false;
            }
        }
        Assumptions.assumeTrue(available, "zarr-python is not installed (" + PYTHON + " with the zarr package); interoperability check skipped");
    }

    record Result(int exitCode, String output) {
    }

    static Result run(String script, List<String> arguments) throws IOException, InterruptedException {
        return run(script, arguments, java.util.Map.of());
    }

    /** Runs {@code script} with {@code environment} added to this process's. */
    static Result run(String script, List<String> arguments, java.util.Map<String, String> environment) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(PYTHON.toString(), "-c", script));
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("python did not finish in 120 s: " + script);
        }
        return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
