package org.tessera.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.tessera.spark.SparkJvmOptions;

/**
 * Starts one workload of the suite in a JVM of its own, so that each gets the heap its kind needs
 * and its peak resident memory is its own (WORKLOADS.md compares peak memory per workload).
 *
 * @param javaBinary           the {@code java} to start
 * @param classPath            the class path of the bench module's runner, without Spark
 * @param sparkClassPath       the class path with Spark too, for {@code --scheduler spark}: Spark's
 *                             200 jars slow other runs down (opened by every service look-up, their
 *                             directories are live heap, and the collector then grows the heap into
 *                             fresh pages: W1 1.4-1.7 s and 410 MB with the plain class path, 1.8-2.5 s
 *                             and 880 MB with Spark's beside it)
 * @param overridingJvmOptions JVM options that replace the per-workload heap choice (from
 *                             {@code TESSERA_JVM_OPTS}); empty to use {@link #heapOptions}
 */
record WorkloadLauncher(Path javaBinary, String classPath, String sparkClassPath, List<String> overridingJvmOptions) {
    static final String RUNNER = "org.tessera.bench.workload.WorkloadRunner";

    WorkloadLauncher {
        overridingJvmOptions = List.copyOf(overridingJvmOptions);
    }

    /** The system property with the bench module's own class path, which the {@code tessera} script sets. */
    static final String BENCH_CLASS_PATH = "tessera.bench.classpath";

    /**
     * A launcher for the JVM running this code, with {@code TESSERA_JVM_OPTS} from the environment:
     * workloads get the bench module's class path where {@value #BENCH_CLASS_PATH} gives it, and this
     * JVM's own (with Spark) to run on Spark.
     */
    static WorkloadLauncher ofThisJvm() {
        String override = System.getenv().getOrDefault("TESSERA_JVM_OPTS", "").strip();
        String own = System.getProperty("java.class.path");
        return new WorkloadLauncher(Path.of(System.getProperty("java.home"), "bin", "java"), System.getProperty(BENCH_CLASS_PATH, own), own,
                override.isEmpty() ? List.of() : Arrays.asList(override.split("\\s+")));
    }

    /** The heap each kind of workload is run with; these settings are part of the published figures. */
    static List<String> heapOptions(String workload) {
        // In-memory kernels (N*) get a heap touched in advance, so outputs reuse pages instead of faulting in
        // fresh ones (2.5 s per 800 MB here), as NumPy's allocator reuses freed memory; chunked workloads (W*)
        // get a small heap, which bounds the peak resident memory that WORKLOADS.md compares. Transparent huge
        // pages as NumPy's allocator uses.
        if (workload.startsWith("N")) {
            return List.of("-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch", "-XX:+UseTransparentHugePages");
        }
        return switch (workload) {
            // The out-of-core headline: A.T @ A over an 8 GB store with the heap capped at 1 GB.
            case "AtA" -> List.of("-Xmx1g", "-XX:+UseTransparentHugePages");
            // 100,000 tiny blocks: the graph is millions of small objects that live through the run, so the
            // throughput collector, promoting them at their first collection rather than copying them between
            // survivor spaces at every one (W5 here: G1 1.1-1.6 s, this 0.8-0.9 s). The graph passes run once
            // per computation, so at the default thresholds the warm-up leaves their loops to be compiled during
            // the timed run; a fifth of the thresholds compiles them during the warm-up (first full run, median
            // of 8 here: 490 ms at the default, 430 ms with this).
            case "W5" -> List.of("-Xmx768m", "-XX:+UseParallelGC", "-XX:MaxTenuringThreshold=0", "-XX:CompileThresholdScaling=0.2");
            // Column strips to row strips of a random array: the pieces stay deferred through the plan's splits and
            // joins, and the sum reads each new block in strips that every old block writes its share of, so no
            // block is made whole and what lives is a few strips per worker (as W1).
            case "W4" -> List.of("-Xmx256m", "-XX:+UseSerialGC");
            // The reduction reads each block of x + x.T in strips through scratch memory, so what lives is a
            // few megabytes per worker: a small heap bounds the resident memory (peak 160 MB against 430 MB
            // with the default heap, which the collector grows into fresh pages), and the serial collector's
            // rare collections of almost nothing cost less than parallel threads on two cores.
            case "W1" -> List.of("-Xmx256m", "-XX:+UseSerialGC");
            // Each task makes its enlarged block (its neighbours' edges asked of the random generator, none made
            // whole) and the filter's output, and the sum reads that at once: a few blocks of 8 MB per worker.
            case "W8" -> List.of("-Xmx256m", "-XX:+UseSerialGC");
            // 18,160 gather tasks each compute the few rows they pick of a random block, so what lives is the
            // graph and a few small parts: a small heap bounds the resident memory (165 MB against 370 MB with
            // the default), and, as for W5, a fifth of the compile thresholds gets the graph passes compiled
            // during the warm-up, whose 400 positions make a graph of a few hundred tasks.
            case "W6" -> List.of("-Xmx128m", "-XX:+UseParallelGC", "-XX:CompileThresholdScaling=0.2");
            // Only the last row of each block's scan is ever read (the carries and x.cumsum(0)[-1]), and a deferred
            // scan computes it in strips through scratch memory: what lives is a few rows per block, so the heap
            // is small (peak 100 MB against 325 MB with the default heap).
            case "W7" -> List.of("-Xmx64m", "-XX:+UseSerialGC");
            default -> DEFAULT_HEAP;
        };
    }

    /** The heap of chunked workloads without a choice of their own. */
    private static final List<String> DEFAULT_HEAP = List.of("-Xmx768m", "-XX:+UseTransparentHugePages");
    /** Spark will not start a driver with less heap than this (about 450 MB). */
    private static final long SPARK_LEAST_HEAP_MB = 512;

    /** The JVM options {@code workload} runs with: the override when there is one, its heap choice otherwise. */
    List<String> jvmOptions(String workload) {
        return overridingJvmOptions.isEmpty() ? heapOptions(workload) : overridingJvmOptions;
    }

    /** As {@link #jvmOptions(String)}, but a heap too small for Spark's driver gives way to the default on Spark. */
    private List<String> jvmOptions(String workload, boolean onSpark) {
        List<String> options = jvmOptions(workload);
        boolean tooSmall = options.stream()
                .anyMatch(option -> option.matches("-Xmx\\d+m") && Long.parseLong(option.substring(4, option.length() - 1)) < SPARK_LEAST_HEAP_MB);
        return onSpark && overridingJvmOptions.isEmpty() && tooSmall ? DEFAULT_HEAP : options;
    }

    /**
     * The command line that runs {@code workload} with the runner's {@code arguments} (after the
     * name); with {@code --scheduler spark} among them, the JVM also gets {@link SparkJvmOptions#required()}.
     */
    List<String> command(String workload, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(javaBinary.toString());
        int scheduler = arguments.indexOf("--scheduler");
        boolean onSpark = scheduler >= 0 && scheduler + 1 < arguments.size() && arguments.get(scheduler + 1).equals("spark");
        command.addAll(jvmOptions(workload, onSpark));
        if (onSpark) {
            command.addAll(SparkJvmOptions.required());
        }
        // jdk.incubator.vector lets tessera-ndarray-simd's kernels load; native access lets OpenBLAS be called.
        command.addAll(List.of("-XX:MaxDirectMemorySize=64g", "--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector",
                "-cp", onSpark ? sparkClassPath : classPath, RUNNER, workload));
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
