package org.tessera.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BenchCommandTest {
    /** Workloads started with this JVM and the test class path, so they run what this build compiled. */
    private static final WorkloadLauncher LAUNCHER = new WorkloadLauncher(Path.of(System.getProperty("java.home"), "bin", "java"),
            System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
            System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")), List.of());

    private static CommandLineRun bench(String... arguments) {
        return bench(LAUNCHER, arguments);
    }

    private static CommandLineRun bench(WorkloadLauncher launcher, String... arguments) {
        CommandLine.IFactory factory = new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> type) throws Exception {
                return type == BenchCommand.class ? type.cast(new BenchCommand(launcher)) : CommandLine.defaultFactory().create(type);
            }
        };
        String[] all = new String[arguments.length + 1];
        all[0] = "bench";
        System.arraycopy(arguments, 0, all, 1, arguments.length);
        return CommandLineRun.with(factory, all);
    }

    @Test
    void runsAWorkloadInItsOwnJvmAndWritesItsJson(@TempDir Path directory) throws IOException {
        Path json = directory.resolve("w5.json");
        CommandLineRun run = bench("W5", "--json", json.toString());
        assertEquals(0, run.status(), run.err());
        assertEquals("tessera bench: W5 (1 of 1), JVM options " + String.join(" ", WorkloadLauncher.CHUNKED_OPTIONS),
                run.err().lines().findFirst().orElse(""), run.err());
        String result = Files.readString(json);
        assertTrue(result.startsWith("{\"workload\": \"W5\", \"impl\": \"tessera\""), result);
        assertTrue(result.contains("\"check\": 2000000.0") && result.contains("\"check_ok\": true"), result);
    }

    @Test
    void severalWorkloadsMakeAJsonArrayOnceEachAndTheSchedulerIsPassedOn(@TempDir Path directory) throws IOException {
        Path json = directory.resolve("both.json");
        // A small heap for both, as TESSERA_JVM_OPTS would give, after (and so over) the launcher's options: N4's own
        // pre-touched 4 GB heap takes seconds to fault in here.
        WorkloadLauncher smallHeap = new WorkloadLauncher(LAUNCHER.javaBinary(), LAUNCHER.classPath(), LAUNCHER.sparkClassPath(),
                List.of("-Xms64m", "-Xmx1g", "-XX:-AlwaysPreTouch"));
        CommandLineRun run = bench(smallHeap, "W5", "W5", "N4", "--json", json.toString(), "--scheduler", "sync", "--repeat", "1", "--quiet");
        assertEquals(0, run.status(), run.err());
        assertEquals("", run.err(), "--quiet leaves only the results");
        String result = Files.readString(json);
        assertTrue(result.startsWith("[\n{\"workload\": \"W5\"") && result.contains(",\n{\"workload\": \"N4\"") && result.endsWith("}\n]\n"), result);
        assertTrue(result.contains("\"scheduler\": \"sync\""), result);
    }

    @Test
    void allIsEveryWorkloadOfTheSuite() {
        assertEquals(List.of("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "N1", "N2", "N3", "N4", "N5", "N6"), BenchCommand.ALL);
    }

    @Test
    void anUnknownWorkloadOrSchedulerIsAUsageError() {
        CommandLineRun workload = bench("W9");
        assertEquals(2, workload.status());
        assertTrue(workload.firstErrorLine().startsWith("unknown workload 'W9'; expected one of N1, N2"), workload.err());
        assertTrue(workload.err().contains("Usage: tessera bench"), workload.err());

        CommandLineRun scheduler = bench("W1", "--scheduler", "dask");
        assertEquals(2, scheduler.status());
        assertEquals("--scheduler: unknown scheduler 'dask'; expected one of threads, sync, spark", scheduler.firstErrorLine());

        CommandLineRun misplaced = bench("W1", "--rows", "10");
        assertEquals(2, misplaced.status());
        assertEquals("--rows, --columns, --block-rows and --keep are options of AtA, which is not among [W1]", misplaced.firstErrorLine());
    }

    @Test
    void sparkSaysWhatIsMissingUntilItsModuleIsOnTheClassPath() {
        boolean sparkPresent;
        try {
            Class.forName("org.tessera.spark.SparkScheduler");
            sparkPresent = true;
        } catch (ClassNotFoundException absent) {
            sparkPresent = false;
        }
        if (sparkPresent) {
            return;
        }
        CommandLineRun run = bench("W1", "--scheduler", "spark");
        assertEquals(1, run.status());
        assertTrue(run.firstErrorLine().startsWith("tessera bench: the spark module is not on the class path"), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
    }
}
