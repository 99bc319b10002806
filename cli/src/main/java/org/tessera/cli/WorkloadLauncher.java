package org.tessera.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.tessera.spark.SparkJvmOptions;

/**
 * Starts one workload of the suite in a JVM of its own, so that its peak resident memory is its own
 * (WORKLOADS.md compares peak memory per workload). Every chunked workload runs with the same options,
 * {@link #CHUNKED_OPTIONS}, which the {@code tessera} script gives every Tessera program too; the
 * user's {@code TESSERA_JVM_OPTS} come after them.
 *
 * @param javaBinary     the {@code java} to start
 * @param classPath      the class path of the bench module's runner, without Spark
 * @param sparkClassPath the class path with Spark too, for {@code --scheduler spark}: Spark's
 *                       200 jars slow other runs down (opened by every service look-up, their
 *                       directories are live heap, and the collector then grows the heap into
 *                       fresh pages: W1 1.4-1.7 s and 410 MB with the plain class path, 1.8-2.5 s
 *                       and 880 MB with Spark's beside it)
 * @param userJvmOptions JVM options added after the launcher's own (from {@code TESSERA_JVM_OPTS}),
 *                       as the last JVM options of the command line: the JVM takes the last of a
 *                       repeated option, so these win without replacing the rest; empty for none
 */
record WorkloadLauncher(Path javaBinary, String classPath, String sparkClassPath, List<String> userJvmOptions) {
    static final String RUNNER = "org.tessera.bench.workload.WorkloadRunner";

    /**
     * The JVM options of every chunked workload (W*, R*, AtA), and of every program the {@code tessera}
     * script starts: one configuration for all of them, not one per workload. The script's
     * {@code tessera_jvm_opts} must say the same (a test compares them).
     *
     * <p>The JVM's own collector (G1), named nowhere, so that a user may choose another in
     * {@code TESSERA_JVM_OPTS} (the JVM refuses two). Blocks live on the heap, so the heap's size is
     * what the process holds: it starts at 32 MB and may use up to 1 GB; G1 grows it only when
     * collecting would take more than half the time (GCTimeRatio=1) and keeps young collections
     * short (MaxGCPauseMillis=50), which keeps the young generation, and with it the memory every
     * short-lived block passes through, small. Measured over W1-W8 and R1-R7 against G1's defaults,
     * the serial collector (which, without a cap, grew the old generation to 6 GB under 32 MB
     * blocks) and the parallel one: the least peak memory at the same speed; without the 1 GB cap, a
     * rechunk from store to store (R7) grew the heap to 6.8 GB.
     *
     * <p>G1 marks the heap from 10 % of its cap on (InitiatingHeapOccupancyPercent=10, not adapted):
     * blocks of megabytes are humongous objects, allocated outside the young generation, and dead
     * ones go back only when a marking finds them. With the adaptive threshold G1 started no marking
     * while {@code A.T @ A} (W2) allocated its 32 MB sums, and grew the heap to its cap instead: 1.22-1.38 GB
     * peak memory, 0.85-0.90 GB with marking from 10 % (Dask: 0.82-0.85 GB), at the same speed; the
     * other rows within their spread, W3 0.5 s faster (three rounds, 2026-11-27).
     *
     * <p>The young generation G1 sizes is at most 60 % of the heap it has, and a short computation
     * touches every page of it, garbage included, before the heap's size changes: starting at 32 MB
     * rather than 64 takes 20-40 MB off a short workload's peak memory (W7 108-114 MB against
     * 129-140, W8 120-132 against 145-162), and a heap that must grow grows as before. Over W1-W8
     * and R1-R7, three to seven alternating rounds on an AMD EPYC with AVX-512 (2026-11-28), every
     * other time and peak within its spread.
     */
    static final List<String> CHUNKED_OPTIONS = List.of("-Xms32m", "-Xmx1g", "-XX:GCTimeRatio=1", "-XX:MaxGCPauseMillis=50",
            "-XX:-G1UseAdaptiveIHOP", "-XX:InitiatingHeapOccupancyPercent=10");

    /**
     * The JVM options of the in-memory kernels (N*), which are not chunked workloads: a heap touched in
     * advance, so outputs reuse pages instead of faulting in fresh ones (2.5 s per 800 MB here), as
     * NumPy's allocator reuses freed memory, and transparent huge pages as NumPy's allocator uses.
     */
    static final List<String> IN_MEMORY_OPTIONS = List.of("-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch", "-XX:+UseTransparentHugePages");

    /**
     * The options every workload needs after the launcher's: jdk.incubator.vector lets
     * tessera-ndarray-simd's kernels load, native access lets OpenBLAS be called.
     */
    static final List<String> REQUIRED_OPTIONS = List.of("-XX:MaxDirectMemorySize=64g", "--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector");

    WorkloadLauncher {
        userJvmOptions = List.copyOf(userJvmOptions);
    }

    /** The system property with the bench module's own class path, which the {@code tessera} script sets. */
    static final String BENCH_CLASS_PATH = "tessera.bench.classpath";

    /**
     * A launcher for the JVM running this code, with {@code TESSERA_JVM_OPTS} from the environment:
     * workloads get the bench module's class path where {@value #BENCH_CLASS_PATH} gives it, and this
     * JVM's own (with Spark) to run on Spark.
     */
    static WorkloadLauncher ofThisJvm() {
        String user = System.getenv().getOrDefault("TESSERA_JVM_OPTS", "").strip();
        String own = System.getProperty("java.class.path");
        return new WorkloadLauncher(Path.of(System.getProperty("java.home"), "bin", "java"), System.getProperty(BENCH_CLASS_PATH, own), own,
                user.isEmpty() ? List.of() : Arrays.asList(user.split("\\s+")));
    }

    /**
     * The launcher's own options for {@code workload}, before the user's: {@link #IN_MEMORY_OPTIONS} for
     * the in-memory kernels (N*), {@link #CHUNKED_OPTIONS} for every other (W*, R*, AtA).
     */
    static List<String> launcherOptions(String workload) {
        return workload.startsWith("N") ? IN_MEMORY_OPTIONS : CHUNKED_OPTIONS;
    }

    /** The JVM options {@code workload} runs with: the launcher's, then the user's. */
    List<String> jvmOptions(String workload) {
        List<String> options = new ArrayList<>(launcherOptions(workload));
        options.addAll(userJvmOptions);
        return options;
    }

    /** Spark will not start a driver with a maximum heap below about 450 MB. */
    private static final long SPARK_LEAST_HEAP = 512L << 20;
    /** What a run on Spark gets when the launcher's options would leave its driver too little heap. */
    static final String SPARK_HEAP = "-Xmx768m";
    private static final Pattern MAX_HEAP = Pattern.compile("(?:-Xmx|-XX:MaxHeapSize=)(\\d+)([kKmMgGtT]?)");

    /**
     * The option a run on Spark adds after the launcher's {@code options}: {@link #SPARK_HEAP} where
     * their last maximum heap, or without one {@code defaultMaxHeap}, is too small for Spark's driver;
     * none otherwise. The user's options come after it, so a maximum heap of theirs still wins.
     */
    static List<String> sparkHeap(List<String> options, long defaultMaxHeap) {
        return maxHeap(options).orElse(defaultMaxHeap) < SPARK_LEAST_HEAP ? List.of(SPARK_HEAP) : List.of();
    }

    /** The last maximum heap that {@code options} set, in bytes. */
    static OptionalLong maxHeap(List<String> options) {
        OptionalLong last = OptionalLong.empty();
        for (String option : options) {
            Matcher matcher = MAX_HEAP.matcher(option);
            if (matcher.matches()) {
                int shift = switch (matcher.group(2).toLowerCase()) {
                    case "k" -> 10;
                    case "m" -> 20;
                    case "g" -> 30;
                    case "t" -> 40;
                    default -> 0;
                };
                last = OptionalLong.of(Long.parseLong(matcher.group(1)) << shift);
            }
        }
        return last;
    }

    /**
     * The maximum heap a JVM started here gets without {@code -Xmx}: a quarter of the memory (the JVM's
     * default {@code MaxRAMPercentage}; a container's limit where there is one).
     */
    private static long defaultMaxHeap() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize() / 4;
    }

    /**
     * The command line that runs {@code workload} with the runner's {@code arguments} (after the
     * name): the launcher's options, the options every workload needs, then the user's, as the last
     * JVM options. With {@code --scheduler spark} among the arguments, the JVM also gets
     * {@link SparkJvmOptions#required()}, and {@link #sparkHeap} where the heap would be too small.
     */
    List<String> command(String workload, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(javaBinary.toString());
        int scheduler = arguments.indexOf("--scheduler");
        boolean onSpark = scheduler >= 0 && scheduler + 1 < arguments.size() && arguments.get(scheduler + 1).equals("spark");
        List<String> launcher = launcherOptions(workload);
        command.addAll(launcher);
        if (onSpark) {
            command.addAll(sparkHeap(launcher, defaultMaxHeap()));
            command.addAll(SparkJvmOptions.required());
        }
        command.addAll(REQUIRED_OPTIONS);
        command.addAll(userJvmOptions);
        command.addAll(List.of("-cp", onSpark ? sparkClassPath : classPath, RUNNER, workload));
        command.addAll(arguments);
        return command;
    }

    /**
     * The variables the workload's JVM gets beyond this process's own. Chunked workloads (W*, AtA)
     * run one task per core, so BLAS calls inside tasks are single-threaded: two tasks each calling a
     * two-thread OpenBLAS fight over the two cores (two concurrent 10,000 x 1,000 A.T @ A products
     * here: 105 GFLOP/s against 180 with one thread each). In-memory kernels (N*) keep BLAS's own
     * threads. A value set by the user wins.
     */
    static Map<String, String> environment(String workload) {
        return workload.startsWith("N") ? Map.of() : Map.of("OPENBLAS_NUM_THREADS", "1");
    }

    /** Runs the workload with this process's standard streams and returns its exit status. */
    int run(String workload, List<String> arguments) throws IOException, InterruptedException {
        ProcessBuilder process = new ProcessBuilder(command(workload, arguments)).inheritIO();
        environment(workload).forEach(process.environment()::putIfAbsent);
        return process.start().waitFor();
    }
}
