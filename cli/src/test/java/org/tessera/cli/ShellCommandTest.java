package org.tessera.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShellCommandTest {
    @Test
    void theShellHasTesseraImportedAndRunsWhatIsTyped(@TempDir Path directory) throws IOException, InterruptedException {
        Path typed = Files.writeString(directory.resolve("typed.jsh"), """
                System.out.println(NDArrays.arange(3));
                System.out.println(Creation.ones(new long[] {4, 4}, DType.FLOAT64, ChunkSpec.of(2, 2)).sum().compute());
                /exit
                """);
        Path startup = ShellCommand.writeStartup();
        try {
            String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            List<String> command = ShellCommand.command(Path.of(System.getProperty("java.home"), "bin", "jshell"), classPath, startup, List.of());
            Process shell = new ProcessBuilder(command).redirectInput(typed.toFile()).redirectErrorStream(true).start();
            String output = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(shell.waitFor(120, TimeUnit.SECONDS), "the shell exits at /exit");
            assertEquals(0, shell.exitValue(), output);
            assertTrue(output.contains("array([0, 1, 2])"), output);
            assertTrue(output.contains("array(16.)"), output);
            assertTrue(!output.contains("Error:"), output);
        } finally {
            Files.deleteIfExists(startup);
        }
    }

    @Test
    void theSnippetsRunWithTheLaunchersHeap(@TempDir Path directory) throws IOException, InterruptedException {
        Path typed = Files.writeString(directory.resolve("typed.jsh"), """
                System.out.println("max heap=" + Runtime.getRuntime().maxMemory());
                /exit
                """);
        Path startup = ShellCommand.writeStartup();
        try {
            String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            List<String> launcher = ShellCommand.launcherOptions(List.of("-Xms16m", "-Xmx96m", "-Dignored=1", "--enable-native-access=ALL-UNNAMED"));
            assertEquals(List.of("-Xms16m", "-Xmx96m"), launcher);
            List<String> command = ShellCommand.command(Path.of(System.getProperty("java.home"), "bin", "jshell"), classPath, startup, launcher);
            Process shell = new ProcessBuilder(command).redirectInput(typed.toFile()).redirectErrorStream(true).start();
            String output = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(shell.waitFor(120, TimeUnit.SECONDS), "the shell exits at /exit");
            // JShell may echo what is typed, so the figure is the digits right after the marker.
            Matcher printed = Pattern.compile("max heap=(\\d+)").matcher(output);
            assertTrue(printed.find(), output);
            long maxHeap = Long.parseLong(printed.group(1));
            // Without the launcher's -Xmx the snippets' JVM takes a quarter of the machine's memory.
            assertTrue(maxHeap <= 96L << 20 && maxHeap > 64L << 20, output);
        } finally {
            Files.deleteIfExists(startup);
        }
    }

    @Test
    void theStartupScriptImportsTheEntryPointsTheTourUses() throws IOException {
        String script = ShellCommand.startupScript();
        for (String entryPoint : List.of("NDArrays", "ChunkedArray", "Creation", "ChunkSpec", "Zarr", "Task", "TaskGraph", "HighLevelGraph", "SynchronousScheduler")) {
            assertTrue(script.lines().anyMatch(line -> line.startsWith("import ") && line.endsWith("." + entryPoint + ";")), entryPoint + " is imported");
        }
    }
}
