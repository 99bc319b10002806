package org.tessera.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import org.tessera.bench.workload.RandomZarrMatrix;
import org.tessera.dashboard.Dashboard;
import org.tessera.graph.schedule.Callback;
import org.tessera.graph.schedule.ProgressBar;
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
                + "peak memory. Writes the chunk diagram (A.svg) and a profile (profile.json, Chrome trace) next to the data.")
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

    @Option(names = "--dir", paramLabel = "DIR", description = "Where to put the data (default: a new temporary directory).")
    private Path directory;

    @Option(names = "--keep", description = "Keep the Zarr store afterwards (it is deleted otherwise; the diagram and profile always stay).")
    private boolean keep;

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
        PrintWriter out = spec.commandLine().getOut();
        Path where = directory != null ? directory : Files.createTempDirectory("tessera-demo-");
        Supplier<Callback> progress = quiet ? () -> new Callback() { } : ProgressBar::onTerminal;
        RandomZarrMatrix matrix = OutOfCoreDemo.matrix(size.bytes());
        out.printf(Locale.ROOT, "A: %,d x %,d float64 (%s) in blocks of %,d rows, Zarr v2 in %s; heap limit %s%n", matrix.rows(), matrix.columns(),
                ByteSize.format(matrix.bytes()), matrix.blockRows(), where, ByteSize.format(Runtime.getRuntime().maxMemory()));
        try (Dashboard dashboard = dashboardPort == null ? null : Dashboard.open(dashboardPort)) {
            if (dashboard != null) {
                out.println("dashboard " + dashboard.url());
            }
            out.println("writing A, then computing A.T @ A, mean(A, axis=0) and std(A, axis=0) from the store...");
            out.flush();
            OutOfCoreDemo.Report report = OutOfCoreDemo.run(matrix, where, keep, progress, dashboard);
            report(out, report);
            return report.isPlausible() ? 0 : 1;
        }
    }

    private static void report(PrintWriter out, OutOfCoreDemo.Report report) {
        double bytes = report.matrix().bytes();
        if (report.storeReused()) {
            out.println("write    none: the store kept in " + report.directory() + " already holds A");
        } else {
            out.printf(Locale.ROOT, "write    %.2f s (%s/s)%n", report.writeSeconds(), ByteSize.format(bytes / report.writeSeconds()));
        }
        out.printf(Locale.ROOT, "compute  %.2f s: %.1f GFLOP/s for A.T @ A, %s/s read%n", report.computeSeconds(), report.gflops(),
                ByteSize.format(bytes / report.computeSeconds()));
        out.printf(Locale.ROOT, "checksum %.10e (sum of A.T @ A)%n", report.checksum());
        out.printf(Locale.ROOT, "check    trace(A.T @ A)/(N M) = %.5f (1/3), mean of column means = %.5f (1/2), mean of column stds = %.5f (%.5f): %s%n",
                report.traceOverElements(), report.meanOfMeans(), report.meanOfDeviations(), Math.sqrt(1.0 / 12), report.isPlausible() ? "ok" : "WRONG");
        out.printf(Locale.ROOT, "wall     %.2f s; peak memory %s resident (VmHWM)%n", report.wallSeconds(), ByteSize.format(report.peakResidentBytes()));
        out.println("diagram  " + report.svg());
        out.println("profile  " + report.profile() + " (open in https://ui.perfetto.dev or chrome://tracing)");
        if (report.dashboardPage() != null) {
            out.println("dashboard " + report.dashboardPage() + " (the page as it ended, one file)");
        }
        out.println(report.storeKept() ? "store    " + report.directory().resolve("A.zarr") + " (kept)" : "store    deleted (--keep keeps it)");
        out.flush();
    }
}
