package org.tessera.bench.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import org.tessera.array.ChunkedArray;
import org.tessera.dashboard.Dashboard;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.graph.schedule.ThreadedScheduler;

/**
 * What watching a computation on the dashboard costs it: runs workloads of WORKLOADS.md (W5, the
 * 100,000 tiny blocks, and W1 by default) in this JVM on the threaded scheduler, alternately without
 * and with a {@link Dashboard} as its callback, and prints one JSON object per workload with the
 * medians of both and the median of the paired ratios. The order within a pair alternates (ABBA),
 * and both run in one JVM, because the difference sought (a few percent at most) is smaller than
 * what separates two JVMs running the same code.
 *
 * <p>{@code --port P} serves the dashboard on that port (0, any free one, by default), so that a
 * browser can watch while the pairs run: the browser then costs what it costs on the same cores.
 */
public final class DashboardOverhead {
    private static final Map<String, Supplier<Workload>> WORKLOADS = Map.of(
            "W1", TransposeMeanWorkload::new,
            "W5", BlockSumWorkload::new);

    private DashboardOverhead() {
    }

    public static void main(String[] arguments) throws Exception {
        List<String> names = new ArrayList<>();
        int pairs = 20;
        int port = 0;
        for (int position = 0; position < arguments.length; position++) {
            switch (arguments[position]) {
                case "--pairs" -> pairs = Integer.parseInt(arguments[++position]);
                case "--port" -> port = Integer.parseInt(arguments[++position]);
                default -> names.add(arguments[position]);
            }
        }
        if (names.isEmpty()) {
            names = List.of("W5", "W1");
        }
        for (String name : names) {
            if (!WORKLOADS.containsKey(name)) {
                throw new IllegalArgumentException("unknown workload " + name + "; expected one of " + WORKLOADS.keySet());
            }
        }
        try (Dashboard dashboard = Dashboard.open(port)) {
            System.err.println("dashboard at " + dashboard.url());
            Scheduler plain = ThreadedScheduler.builder().build();
            Scheduler watched = ThreadedScheduler.builder().callback(dashboard).build();
            for (String name : names) {
                Workload workload = WORKLOADS.get(name).get();
                for (Scheduler scheduler : List.of(plain, watched)) {
                    ChunkedArray.setDefaultScheduler(scheduler);
                    workload.warmUp();
                    time(workload);
                }
                double[] plainRuns = new double[pairs];
                double[] watchedRuns = new double[pairs];
                double[] ratios = new double[pairs];
                for (int pair = 0; pair < pairs; pair++) {
                    boolean plainFirst = pair % 2 == 0;
                    for (boolean runPlain : new boolean[] {plainFirst, !plainFirst}) {
                        ChunkedArray.setDefaultScheduler(runPlain ? plain : watched);
                        double seconds = time(workload);
                        if (runPlain) {
                            plainRuns[pair] = seconds;
                        } else {
                            watchedRuns[pair] = seconds;
                        }
                    }
                    ratios[pair] = watchedRuns[pair] / plainRuns[pair];
                }
                System.out.println(String.format(Locale.ROOT,
                        "{\"workload\": \"%s\", \"pairs\": %d, \"plain_median_seconds\": %.4f, \"dashboard_median_seconds\": %.4f, "
                                + "\"median_paired_ratio\": %.4f, \"total_ratio\": %.4f, \"paired_ratio_quartiles\": [%.4f, %.4f]}",
                        name, pairs, median(plainRuns), median(watchedRuns), median(ratios),
                        Arrays.stream(watchedRuns).sum() / Arrays.stream(plainRuns).sum(), quantile(ratios, 0.25), quantile(ratios, 0.75)));
            }
        }
    }

    private static double time(Workload workload) throws Exception {
        long start = System.nanoTime();
        Workload.Check check = workload.run();
        double seconds = (System.nanoTime() - start) / 1e9;
        if (!check.ok()) {
            throw new IllegalStateException(workload.name() + " failed its check: " + check.value());
        }
        return seconds;
    }

    private static double median(double[] values) {
        return quantile(values, 0.5);
    }

    private static double quantile(double[] values, double fraction) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
    }
}
