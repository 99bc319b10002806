package org.tessera.cli;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.tessera.spark.SparkJvmOptions;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tessera shell}: JShell with Tessera on its class path and its entry points imported. It
 * runs the {@code jshell} of the JDK running this command, so the shell's Java is the project's.
 */
@Command(name = "shell",
        header = "JShell with Tessera on the class path.",
        description = "Starts JShell with Tessera on the class path and its entry points imported (NDArrays, ChunkedArray, Creation, "
                + "Zarr, Task, TaskGraph, ...). Type /imports to see them, /exit to leave.")
final class ShellCommand implements Callable<Integer> {
    /** The startup script: JShell's default imports, then Tessera's. */
    static final String STARTUP_RESOURCE = "shell-startup.jsh";

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Path startup = writeStartup();
        try {
            List<String> command = command(Path.of(System.getProperty("java.home"), "bin", "jshell"), System.getProperty("java.class.path"), startup,
                    launcherOptions(ManagementFactory.getRuntimeMXBean().getInputArguments()));
            return new ProcessBuilder(command).inheritIO().start().waitFor();
        } finally {
            Files.deleteIfExists(startup);
        }
    }

    /** The startup script as a file, since JShell takes it by path. */
    static Path writeStartup() throws IOException {
        Path startup = Files.createTempFile("tessera-shell-", ".jsh");
        Files.writeString(startup, startupScript());
        return startup;
    }

    /** The text of the startup script. */
    static String startupScript() throws IOException {
        try (InputStream script = ShellCommand.class.getResourceAsStream(STARTUP_RESOURCE)) {
            if (script == null) {
                throw new IllegalStateException("the shell's startup script " + STARTUP_RESOURCE + " is missing from the class path");
            }
            return new String(script.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * The {@code jshell} command line; the code typed in runs in a JVM started with
     * {@code launcherOptions}, then {@link #snippetJvmOptions()}.
     */
    static List<String> command(Path jshell, String classPath, Path startup, List<String> launcherOptions) {
        List<String> command = new ArrayList<>(List.of(jshell.toString(), "--class-path", classPath,
                "--startup", "DEFAULT", "--startup", startup.toString()));
        // -R options go to the JVM that runs the snippets.
        launcherOptions.forEach(option -> command.add("-R" + option));
        snippetJvmOptions().forEach(option -> command.add("-R" + option));
        return command;
    }

    /**
     * The heap, collector and compiler options among {@code inputArguments}, in order: those the
     * {@code tessera} script gave this command's JVM (its one configuration, then
     * {@code TESSERA_JVM_OPTS}). JShell runs the snippets in a JVM of its own, which would
     * otherwise start with the JVM's defaults (a quarter of the machine's memory for the heap).
     */
    static List<String> launcherOptions(List<String> inputArguments) {
        return inputArguments.stream().filter(option -> option.startsWith("-X")).toList();
    }

    /** The options of the JVM that runs the snippets: the Vector API kernels, OpenBLAS through FFM, and an embedded Spark. */
    static List<String> snippetJvmOptions() {
        List<String> options = new ArrayList<>(List.of("--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                "-XX:MaxDirectMemorySize=64g"));
        options.addAll(SparkJvmOptions.required());
        return options;
    }
}
