package org.tessera.bench.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import org.tessera.array.ChunkedArray;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.graph.schedule.ThreadedScheduler;

/**
 * What Spark costs over the threaded scheduler on one machine: runs workloads of WORKLOADS.md
 * (W1 and W2 by default) in this JVM with the threaded scheduler on all cores, then on Spark
 * embedded in local mode with as many threads ({@code local[N]}), and prints one JSON object per
 * workload with both times and their ratio. Each scheduler warms up on the workload's small
 * instance first, as the workload runner does; with {@code --repeat R} the two schedulers take
 * turns R times and the medians are compared, so that a burst of load on a shared machine does not
 * land on one scheduler only.
 *
 * <p>Spark comes from the class path (the cli module's has it; the bench module itself does not
 * depend on Spark, so that the workload JVMs stay free of its 200 jars) and needs its
 * {@code --add-opens} flags on Java 17+ (see the spark module's README).
 */
public final class SparkOverhead {
    private static final Map<String, Supplier<Workload>> WORKLOADS = Map.of(
            "W1", TransposeMeanWorkload::new,
            "W2", GramWorkload::new,
            "W4", RechunkSumWorkload::new);

    private SparkOverhead() {
    }

    public static void main(String[] arguments) throws Exception {
        List<String> names = new ArrayList<>();
        int repeat = 1;
        for (int position = 0; position < arguments.length; position++) {
            if (arguments[position].equals("--repeat")) {
                repeat = Integer.parseInt(arguments[++position]);
            } else {
                names.add(arguments[position]);
            }
        }
        if (names.isEmpty()) {
            names = List.of("W1", "W2");
        }
        for (String name : names) {
            if (!WORKLOADS.containsKey(name)) {
                throw new IllegalArgumentException("unknown workload " + name + "; expected one of " + WORKLOADS.keySet());
            }
        }
        int threads = Runtime.getRuntime().availableProcessors();
        try (Schedulers.LocalSpark local = Schedulers.localSpark(threads)) {
            Scheduler threaded = new ThreadedScheduler();
            Scheduler spark = local.scheduler();
            for (String name : names) {
                double[] threadedRuns = new double[repeat];
                double[] sparkRuns = new double[repeat];
                for (int run = 0; run < repeat; run++) {
                    threadedRuns[run] = time(WORKLOADS.get(name).get(), threaded);
                    sparkRuns[run] = time(WORKLOADS.get(name).get(), spark);
                }
                double threadedSeconds = median(threadedRuns);
                double sparkSeconds = median(sparkRuns);
                System.out.println(String.format(Locale.ROOT,
                        "{\"workload\": \"%s\", \"threads\": %d, \"threaded_seconds\": %.3f, \"spark_local_seconds\": %.3f, \"overhead_ratio\": %.3f, "
                                + "\"threaded_runs\": %s, \"spark_local_runs\": %s}",
                        name, threads, threadedSeconds, sparkSeconds, sparkSeconds / threadedSeconds, Arrays.toString(threadedRuns),
                        Arrays.toString(sparkRuns)));
            }
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** Warms up, then times one run of {@code workload} with {@code scheduler} as the default; fails if the check fails. */
    private static double time(Workload workload, Scheduler scheduler) throws Exception {
        ChunkedArray.setDefaultScheduler(scheduler);
        workload.warmUp();
        long start = System.nanoTime();
        Workload.Check check = workload.run();
        double seconds = (System.nanoTime() - start) / 1e9;
        if (!check.ok()) {
            throw new IllegalStateException(workload.name() + " on " + scheduler.getClass().getSimpleName() + " failed its check: " + check.value());
        }
        return seconds;
    }
}
