package org.tessera.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.tessera.bench.workload.WorkloadRunner;
import org.tessera.spark.SparkJvmOptions;

/**
 * One JVM configuration for every chunked workload: the launcher's {@link WorkloadLauncher#CHUNKED_OPTIONS},
 * the same as the {@code tessera} script's, with the user's {@code TESSERA_JVM_OPTS} after them.
 */
class WorkloadLauncherTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> CHUNKED = List.of("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8",
            "R1", "R2", "R3", "R4", "R5", "R6", "R7", "H1", "AtA", "F1", "S1");
    private static final List<String> IN_MEMORY = List.of("N1", "N2", "N3", "N4", "N5", "N6");
    private static final List<String> USER = List.of("-Xmx3g", "-XX:+UseParallelGC");
    /** What follows the JVM options the launcher chooses, on every command line. */
    private static final List<String> REQUIRED = List.of("-XX:MaxDirectMemorySize=64g", "--enable-native-access=ALL-UNNAMED",
            "--add-modules", "jdk.incubator.vector");

    private static WorkloadLauncher launcher(List<String> user) {
        return new WorkloadLauncher(Path.of("/jdk/bin/java"), "a.jar:b.jar", "a.jar:b.jar:spark.jar", user);
    }

    private static List<String> concat(List<?>... parts) {
        List<String> all = new ArrayList<>();
        for (List<?> part : parts) {
            part.forEach(item -> all.add(item.toString()));
        }
        return all;
    }

    @Test
    void everyChunkedWorkloadRunsWithTheSameOptionsInTheSamePlace() {
        List<String> arguments = List.of("--json", "f");
        for (String workload : CHUNKED) {
            assertEquals(WorkloadLauncher.CHUNKED_OPTIONS, WorkloadLauncher.launcherOptions(workload), workload);
            assertEquals(concat(List.of("/jdk/bin/java"), WorkloadLauncher.CHUNKED_OPTIONS, REQUIRED,
                    List.of("-cp", "a.jar:b.jar", WorkloadLauncher.RUNNER, workload), arguments),
                    launcher(List.of()).command(workload, arguments), workload);
            assertEquals(WorkloadLauncher.CHUNKED_OPTIONS, launcher(List.of()).jvmOptions(workload), workload);
        }
    }

    @Test
    void theUsersOptionsComeAfterTheLaunchersWithoutReplacingThem() {
        List<String> arguments = List.of("--json", "f");
        for (String workload : CHUNKED) {
            assertEquals(concat(List.of("/jdk/bin/java"), WorkloadLauncher.CHUNKED_OPTIONS, REQUIRED, USER,
                    List.of("-cp", "a.jar:b.jar", WorkloadLauncher.RUNNER, workload), arguments),
                    launcher(USER).command(workload, arguments), workload);
            assertEquals(concat(WorkloadLauncher.CHUNKED_OPTIONS, USER), launcher(USER).jvmOptions(workload), workload);
        }
        for (String workload : IN_MEMORY) {
            List<String> command = launcher(USER).command(workload, arguments);
            assertEquals(USER, command.subList(command.indexOf("-cp") - USER.size(), command.indexOf("-cp")), "the last JVM options: " + workload);
            assertEquals(WorkloadLauncher.IN_MEMORY_OPTIONS, command.subList(1, 1 + WorkloadLauncher.IN_MEMORY_OPTIONS.size()), workload);
        }
    }

    @Test
    void theInMemoryKernelsKeepTheirOwnOptions() {
        assertEquals(List.of("-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch", "-XX:+UseTransparentHugePages"), WorkloadLauncher.IN_MEMORY_OPTIONS);
        assertNotEquals(WorkloadLauncher.CHUNKED_OPTIONS, WorkloadLauncher.IN_MEMORY_OPTIONS);
        for (String workload : IN_MEMORY) {
            assertEquals(WorkloadLauncher.IN_MEMORY_OPTIONS, WorkloadLauncher.launcherOptions(workload), workload);
        }
    }

    @Test
    void everyWorkloadOfTheRunnerIsAChunkedWorkloadOrAnInMemoryKernel() {
        assertEquals(concat(CHUNKED, IN_MEMORY).stream().sorted().toList(), WorkloadRunner.names().stream().sorted().toList());
    }

    @Test
    void chunkedWorkloadsRunOneBlasThreadPerTask() {
        assertEquals(Map.of("OPENBLAS_NUM_THREADS", "1"), WorkloadLauncher.environment("AtA"), "one BLAS thread per task");
        assertEquals(Map.of("OPENBLAS_NUM_THREADS", "1"), WorkloadLauncher.environment("R3"));
        assertEquals(Map.of(), WorkloadLauncher.environment("N5"), "in-memory GEMM keeps BLAS's threads");
    }

    @Test
    void onSparkTheChunkedOptionsStayAndTheUsersStillComeLast() {
        for (String workload : List.of("W1", "R2")) {
            List<String> command = launcher(USER).command(workload, List.of("--scheduler", "spark"));
            int at = 1 + WorkloadLauncher.CHUNKED_OPTIONS.size();
            assertEquals(WorkloadLauncher.CHUNKED_OPTIONS, command.subList(1, at), workload);
            if (command.get(at).equals(WorkloadLauncher.SPARK_HEAP)) {
                at++; // on a machine with less than 2 GB, where the default heap is too small for Spark's driver
            }
            assertEquals(SparkJvmOptions.required(), command.subList(at, at + SparkJvmOptions.required().size()), workload);
            int classPath = command.indexOf("-cp");
            assertEquals(USER, command.subList(classPath - USER.size(), classPath), workload);
            assertEquals("a.jar:b.jar:spark.jar", command.get(classPath + 1), "only a run on Spark gets Spark's jars");
        }
    }

    @Test
    void sparksDriverGetsEnoughHeapWhereTheLaunchersOrTheDefaultWouldBeTooLittle() {
        // The second argument is the default maximum heap: a quarter of the memory.
        long quarterOf1g = 256L << 20;
        long quarterOf16g = 4L << 30;
        List<String> more = List.of(WorkloadLauncher.SPARK_HEAP);
        assertEquals(more, WorkloadLauncher.sparkHeap(List.of("-XX:+UseSerialGC"), quarterOf1g), "a quarter of 1 GB is too little");
        assertEquals(List.of(), WorkloadLauncher.sparkHeap(List.of("-XX:+UseSerialGC"), quarterOf16g));
        assertEquals(more, WorkloadLauncher.sparkHeap(List.of("-Xmx256m", "-XX:+UseSerialGC"), quarterOf16g), "the launcher's own -Xmx too");
        assertEquals(List.of(), WorkloadLauncher.sparkHeap(List.of("-Xmx256m", "-Xmx1g"), quarterOf1g), "the last -Xmx counts");
        assertEquals(List.of(), WorkloadLauncher.sparkHeap(List.of("-XX:MaxHeapSize=600m"), quarterOf1g));
        assertTrue(WorkloadLauncher.maxHeap(List.of(WorkloadLauncher.SPARK_HEAP)).getAsLong() >= 512L << 20);
        assertEquals(OptionalLong.of(3L << 30), WorkloadLauncher.maxHeap(List.of("-Xms64m", "-Xmx3G")));
        assertEquals(OptionalLong.of(2048L << 10), WorkloadLauncher.maxHeap(List.of("-Xmx2048k")));
        assertEquals(OptionalLong.empty(), WorkloadLauncher.maxHeap(List.of("-Xms64m", "-XX:+UseSerialGC")));
    }

    @Test
    void theTesseraScriptAndTheReadmeGiveEveryProgramTheSameOptions() throws IOException {
        Pattern variable = Pattern.compile("(?m)^tessera_jvm_opts=\"([^\"]*)\"$");
        Matcher matcher = variable.matcher(Files.readString(ROOT.resolve("tessera")));
        assertTrue(matcher.find(), "the tessera script sets tessera_jvm_opts on a line of its own");
        assertEquals(String.join(" ", WorkloadLauncher.CHUNKED_OPTIONS), matcher.group(1));
        assertTrue(!matcher.find(), "the tessera script sets tessera_jvm_opts once");
        String readme = Files.readString(ROOT.resolve("README.md"));
        assertTrue(readme.contains("`" + String.join(" ", WorkloadLauncher.CHUNKED_OPTIONS) + "`"), "the README's JVM options are the launcher's");
    }

    @Test
    void theExampleProjectRunsItsPipelineWithTheLaunchersOptions() throws IOException {
        String pom = Files.readString(ROOT.resolve("examples/pom.xml"));
        Matcher argument = Pattern.compile("<argument>([^<]*)</argument>").matcher(pom);
        List<String> arguments = new java.util.ArrayList<>();
        while (argument.find()) {
            arguments.add(argument.group(1));
        }
        List<String> expected = concat(WorkloadLauncher.CHUNKED_OPTIONS, List.of("-XX:MaxDirectMemorySize=64g", "--enable-native-access=ALL-UNNAMED",
                "--add-modules", "jdk.incubator.vector"));
        assertEquals(expected, arguments.subList(0, Math.min(arguments.size(), expected.size())),
                "examples/pom.xml starts the pipeline's JVM with the options the launcher gives every Tessera program");
    }
}
