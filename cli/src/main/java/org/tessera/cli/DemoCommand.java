package org.tessera.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.spark.sql.SparkSession;
import org.tessera.array.plan.Budget;
import org.tessera.bench.workload.RandomZarrMatrix;
import org.tessera.dashboard.Dashboard;
import org.tessera.graph.schedule.Callback;
import org.tessera.graph.schedule.ProgressBar;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.io.store.Stores;
import org.tessera.spark.SparkJvmOptions;
import org.tessera.spark.SparkScheduler;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tessera demo}: the out-of-core job of {@link OutOfCoreDemo}, with what it measured. */
@Command(name = "demo",
        header = "The main job: A.T @ A and column statistics of a matrix on disk, out of core.",
        description = "Writes a float64 matrix A of the given size to a Zarr store, then computes A.T @ A and the column means and "
                + "standard deviations from the store, block by block on all cores, and prints the checksum, GFLOP/s, wall time and "
                + "peak memory. Writes the chunk diagram (A.svg) and a profile (profile.json, Chrome trace) next to the data, or, when the "
                + "data is in object storage (--store s3://...), in --dir or a temporary directory. With --scheduler spark the write and the "
                + "computation run on Spark (embedded, local[*], unless --master names a cluster).")
final class DemoCommand implements Callable<Integer> {
    /** The smallest matrix worth the name: 125 rows of 1,000 float64 columns. */
    private static final long MINIMUM_BYTES = 1_000_000;

    @Spec
    private CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Option(names = "--size", paramLabel = "SIZE", defaultValue = "2GB", converter = ByteSizeConverter.class,
            description = "Bytes of A, e.g. 512MB, 4GB, 2GiB (default: ${DEFAULT-VALUE}). A has 1,000 columns, stored in blocks of 10,000 rows.")
    private ByteSize size;

    @Option(names = "--dir", paramLabel = "DIR", description = "Where to put the data, the diagram and the profile (default: a new temporary directory).")
    private Path directory;

    @Option(names = "--store", paramLabel = "LOCATION", description = "Where to put the data instead: a local directory or an s3://bucket/prefix URI "
            + "(configured as the AWS tools are: AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, or -Daws.*); A is "
            + "LOCATION/A.zarr. The diagram and profile go to --dir, else beside a local store, else to a new temporary directory.")
    private String storeLocation;

    @Option(names = "--keep", description = "Keep the Zarr store afterwards (it is deleted otherwise; the diagram and profile always stay).")
    private boolean keep;

    @Option(names = "--scheduler", paramLabel = "NAME", defaultValue = "threads",
            description = "Where the write and the computation run: threads (all cores of this JVM) or spark (default: ${DEFAULT-VALUE}).")
    private String scheduler;

    @Option(names = "--master", paramLabel = "URL", description = "The Spark master of --scheduler spark (default: local[*], Spark embedded in this "
            + "JVM). A cluster's executors get this JVM's class path, so they must see the same files; an s3:// store needs no "
            + "configuration there, the tasks carry its settings.")
    private String master;

    @Option(names = "--memory", paramLabel = "SIZE", converter = ByteSizeConverter.class,
            description = "A memory budget to compute within: the computation is planned first, refused before it runs if it cannot fit, "
                    + "and run with fewer tasks at once or results spilled to disk where the plan needs it (default: planned against 60%% of the heap, run freely).")
    private ByteSize memory;

    @Option(names = {"-q", "--quiet"}, description = "No progress bars.")
    private boolean quiet;

    @Option(names = "--dashboard", paramLabel = "PORT", arity = "0..1", fallbackValue = "" + Dashboard.DEFAULT_PORT,
            description = "Serve a live dashboard of the run on this loopback port (default ${FALLBACK-VALUE}; 0 takes a free one), and save it "
                    + "as dashboard.html next to the data.")
    private Integer dashboardPort;

    @Override
    public Integer call() throws IOException {
        if (size.bytes() < MINIMUM_BYTES) {
            throw new ParameterException(spec.commandLine(), "--size must be at least " + ByteSize.format(MINIMUM_BYTES) + ", got " + size);
        }
        if (!List.of("threads", "spark").contains(scheduler)) {
            throw new ParameterException(spec.commandLine(), "unknown scheduler '" + scheduler + "'; expected threads or spark");
        }
        if (master != null && !scheduler.equals("spark")) {
            throw new ParameterException(spec.commandLine(), "--master needs --scheduler spark");
        }
        PrintWriter out = spec.commandLine().getOut();
        OutOfCoreDemo.MatrixStore store = matrixStore();
        Path where = directory != null ? directory
                : store.directory() != null ? store.directory().getParent() : Files.createTempDirectory("tessera-demo-");
        Supplier<Callback> progress = quiet ? () -> new Callback() { } : ProgressBar::onTerminal;
        RandomZarrMatrix matrix = OutOfCoreDemo.matrix(size.bytes());
        out.printf(Locale.ROOT, "A: %,d x %,d float64 (%s) in blocks of %,d rows, Zarr v2 in %s; heap limit %s%n", matrix.rows(), matrix.columns(),
                ByteSize.format(matrix.bytes()), matrix.blockRows(), store.parent(), ByteSize.format(Runtime.getRuntime().maxMemory()));
        SparkSession spark = null;
        try (Dashboard dashboard = dashboardPort == null ? null : Dashboard.open(dashboardPort)) {
            // Null: the threaded scheduler, run within the budget.
            Function<List<Callback>, Scheduler> schedulers = null;
            if (scheduler.equals("spark")) {
                spark = startSpark(master == null ? "local[*]" : master);
                SparkScheduler onSpark = SparkScheduler.of(spark);
                out.printf(Locale.ROOT, "scheduler Spark %s, %d partitions per stage at most%n", spark.sparkContext().master(), onSpark.maxPartitions());
                schedulers = callbacks -> {
                    SparkScheduler watched = onSpark;
                    for (Callback callback : callbacks) {
                        watched = watched.withCallback(callback);
                    }
                    return watched;
                };
            }
            if (dashboard != null) {
                out.println("dashboard " + dashboard.url());
            }
            out.println("writing A, then computing A.T @ A, mean(A, axis=0) and std(A, axis=0) from the store...");
            out.flush();
            OutOfCoreDemo.Report report = OutOfCoreDemo.run(matrix, store, where, keep, progress, dashboard, schedulers,
                    memory == null ? null : Budget.ofBytes(memory.bytes()));
            report(out, report);
            return report.isPlausible() ? 0 : 1;
        } finally {
            if (spark != null) {
                spark.stop();
            }
        }
    }

    /** Where A goes: {@code --store} (a directory or an {@code s3://} URI), else {@code --dir}, else a new temporary directory. */
    private OutOfCoreDemo.MatrixStore matrixStore() throws IOException {
        if (storeLocation == null) {
            return OutOfCoreDemo.MatrixStore.in(directory != null ? directory : Files.createTempDirectory("tessera-demo-"));
        }
        if (!Stores.isUri(storeLocation)) {
            return OutOfCoreDemo.MatrixStore.in(Path.of(storeLocation));
        }
        String scheme = storeLocation.substring(0, storeLocation.indexOf("://")).toLowerCase(Locale.ROOT);
        if (scheme.equals("file")) {
            return OutOfCoreDemo.MatrixStore.in(Path.of(URI.create(storeLocation)));
        }
        if (!scheme.equals("s3")) {
            throw new ParameterException(spec.commandLine(), "--store must be a local directory or an s3:// URI, got " + storeLocation
                    + (scheme.startsWith("http") ? " (an HTTP store is read-only)" : ""));
        }
        try {
            return OutOfCoreDemo.MatrixStore.at(storeLocation, location -> Stores.open(URI.create(location)));
        } catch (IllegalArgumentException unusable) {
            throw new ParameterException(spec.commandLine(), unusable.getMessage(), unusable, null, storeLocation);
        }
    }

    /**
     * Spark at {@code master}: embedded on the loopback interface for {@code local[...]}; for a
     * cluster, its executors get this JVM's class path and the JVM options Spark needs.
     * Settings given as {@code -Dspark.*} system properties (through TESSERA_JVM_OPTS) apply too.
     */
    private static SparkSession startSpark(String master) {
        var builder = SparkSession.builder().master(master).appName("tessera-demo").config("spark.ui.enabled", "false");
        if (master.startsWith("local")) {
            builder = builder.config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1");
        } else {
            builder = builder.config("spark.executor.extraClassPath", System.getProperty("java.class.path"))
                    .config("spark.executor.extraJavaOptions", String.join(" ", SparkJvmOptions.required()));
        }
        return builder.getOrCreate();
    }

    private static void report(PrintWriter out, OutOfCoreDemo.Report report) {
        double bytes = report.matrix().bytes();
        if (report.storeReused()) {
            out.println("write    none: the store kept in " + report.store().parent() + " already holds A");
        } else {
            out.printf(Locale.ROOT, "write    %.2f s (%s/s)%n", report.writeSeconds(), ByteSize.format(bytes / report.writeSeconds()));
        }
        out.printf(Locale.ROOT, "compute  %.2f s: %.1f GFLOP/s for A.T @ A, %s/s read%n", report.computeSeconds(), report.gflops(),
                ByteSize.format(bytes / report.computeSeconds()));
        out.printf(Locale.ROOT, "checksum %.10e (sum of A.T @ A)%n", report.checksum());
        out.printf(Locale.ROOT, "check    trace(A.T @ A)/(N M) = %.5f (1/3), mean of column means = %.5f (1/2), mean of column stds = %.5f (%.5f): %s%n",
                report.traceOverElements(), report.meanOfMeans(), report.meanOfDeviations(), Math.sqrt(1.0 / 12), report.isPlausible() ? "ok" : "WRONG");
        out.printf(Locale.ROOT, "wall     %.2f s; peak memory %s resident (VmHWM)%n", report.wallSeconds(), ByteSize.format(report.peakResidentBytes()));
        out.printf(Locale.ROOT, "memory   projected peak %s (largest task %s), measured %s (%.2f of the projection); budget %s%n",
                ByteSize.format(report.plan().projectedPeakBytes()), ByteSize.format(report.plan().largestTaskBytes()),
                ByteSize.format(report.measuredPeakBytes()), (double) report.measuredPeakBytes() / Math.max(1, report.plan().projectedPeakBytes()),
                ByteSize.format(report.plan().budget().bytes()));
        out.println("plan     " + report.planPage());
        out.println("diagram  " + report.svg());
        out.println("profile  " + report.profile() + " (open in https://ui.perfetto.dev or chrome://tracing)");
        if (report.dashboardPage() != null) {
            out.println("dashboard " + report.dashboardPage() + " (the page as it ended, one file)");
        }
        out.println(report.storeKept() ? "store    " + report.store().location() + " (kept)" : "store    deleted (--keep keeps it)");
        out.flush();
    }
}
