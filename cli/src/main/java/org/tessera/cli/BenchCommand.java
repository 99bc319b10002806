package org.tessera.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import org.tessera.bench.workload.DirectoryTrees;
import org.tessera.bench.workload.Schedulers;
import org.tessera.bench.workload.WorkloadRunner;
import org.tessera.dashboard.Dashboard;
import org.tessera.io.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tessera bench}: the workload suite of WORKLOADS.md, each workload in a JVM of its own with
 * the options of its kind (see {@link WorkloadLauncher}), each printing the JSON object that the Dask
 * and NumPy scripts print for the same workload.
 */
@Command(name = "bench",
        header = "Runs the workload suite of bench/WORKLOADS.md.",
        description = "Runs workloads of bench/WORKLOADS.md, each in its own JVM, and prints "
                + "one JSON object per workload, as bench/anchors/dask_workloads.py and numpy_kernels.py do. 'all' is W1-W8 and N1-N6; "
                + "R1-R7 read a stored array (--store), H1 an HDF5 file (--store), AtA is the out-of-core A.T @ A over an 8 GB Zarr store, and S1 the out-of-core sort of a 4 GB Zarr store (none in 'all'). "
                + "Every chunked workload (W*, R*, AtA) runs with the same JVM options, those the tessera launcher gives every Tessera program; "
                + "the in-memory kernels (N*) get a pre-touched 4 GB heap. TESSERA_JVM_OPTS adds options after them.")
final class BenchCommand implements Callable<Integer> {
    /** What {@code all} runs: the chunked workloads, then the in-memory kernels. */
    static final List<String> ALL = Stream.concat(Stream.of("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8"),
            Stream.of("N1", "N2", "N3", "N4", "N5", "N6")).toList();

    @Spec
    private CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Parameters(arity = "1..*", paramLabel = "WORKLOAD", description = "W1..W8, R1..R7, H1, N1..N6, S1, AtA, or all.")
    private List<String> workloads;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the result there: the object for one workload, an array of them for several.")
    private Path json;

    @Option(names = "--scheduler", paramLabel = "NAME", defaultValue = "threads",
            description = "threads (default: all cores), sync (one task at a time) or spark (Spark in local mode).")
    private String scheduler;

    @Option(names = "--repeat", paramLabel = "R", description = "Timed runs per workload (default: 3 for N*, 1 for W*).")
    private Integer repeat;

    @Option(names = "--dashboard", paramLabel = "PORT", arity = "0..1", fallbackValue = "" + Dashboard.DEFAULT_PORT,
            description = "Serve a live dashboard of each workload's run on this loopback port (default ${FALLBACK-VALUE}; 0 takes a free one).")
    private Integer dashboardPort;

    @Option(names = {"-q", "--quiet"}, description = "Print only the results, not which JVM runs each workload.")
    private boolean quiet;

    @Option(names = "--rows", paramLabel = "N", description = "AtA only: rows of A (default 1,000,000).")
    private Long rows;

    @Option(names = "--columns", paramLabel = "M", description = "AtA only: columns of A (default 1,000).")
    private Long columns;

    @Option(names = "--block-rows", paramLabel = "R", description = "AtA only: rows per stored block (default 10,000).")
    private Long blockRows;

    @Option(names = "--keep", paramLabel = "DIR", description = "AtA only: keep the store in DIR, and reuse it when it already holds A.")
    private Path keep;

    @Option(names = "--store", paramLabel = "DIR|URI", description = "R1-R7: the Zarr v2 store to read, written by another tool "
            + "(bench/anchors/dask_workloads.py make-store DIR), a directory or an s3:// URI; H1: the HDF5 file (make-h5 FILE); without it, each workload writes "
            + "the same array itself first.")
    private String store;

    private final WorkloadLauncher launcher;

    BenchCommand() {
        this(WorkloadLauncher.ofThisJvm());
    }

    BenchCommand(WorkloadLauncher launcher) {
        this.launcher = launcher;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        List<String> names = expand(workloads);
        try {
            Schedulers.requireAvailable(scheduler);
        } catch (IllegalArgumentException unknown) {
            throw new ParameterException(spec.commandLine(), "--scheduler: " + unknown.getMessage());
        }
        if (names.contains("AtA") && !scheduler.equals("threads")) {
            throw new ParameterException(spec.commandLine(), "AtA runs on the threaded scheduler only, not '" + scheduler + "'");
        }
        if (!names.contains("AtA") && (rows != null || columns != null || blockRows != null || keep != null)) {
            throw new ParameterException(spec.commandLine(), "--rows, --columns, --block-rows and --keep are options of AtA, which is not among " + names);
        }
        if (dashboardPort != null && names.contains("AtA")) {
            throw new ParameterException(spec.commandLine(), "--dashboard is not an option of AtA; ./tessera demo --dashboard shows the same job");
        }
        if (store != null && names.stream().noneMatch(name -> name.startsWith("R") || name.equals("H1"))) {
            throw new ParameterException(spec.commandLine(), "--store is an option of R1-R7 and H1, which are not among " + names);
        }
        PrintWriter err = spec.commandLine().getErr();
        Path results = Files.createTempDirectory("tessera-bench-");
        try {
            List<String> objects = new ArrayList<>();
            int failures = 0;
            for (int position = 0; position < names.size(); position++) {
                String name = names.get(position);
                Path result = results.resolve(name + ".json");
                List<String> arguments = arguments(name, result);
                if (!quiet) {
                    err.println("tessera bench: " + name + " (" + (position + 1) + " of " + names.size() + "), JVM options "
                            + String.join(" ", launcher.jvmOptions(name)));
                    err.flush();
                }
                int status = launcher.run(name, arguments);
                if (status != 0 || !Files.exists(result)) {
                    failures++;
                    err.println("tessera bench: " + name + " failed (exit status " + status + ")");
                    err.flush();
                    continue;
                }
                String object = Files.readString(result).strip();
                objects.add(object);
                if (object.contains("\"check_ok\": false")) {
                    failures++;
                    err.println("tessera bench: " + name + " finished but its check failed");
                }
            }
            if (json != null && !objects.isEmpty()) {
                Files.writeString(json, (names.size() == 1 ? objects.getFirst() : "[\n" + String.join(",\n", objects) + "\n]") + "\n");
            }
            return failures == 0 ? 0 : 1;
        } finally {
            DirectoryTrees.delete(results);
        }
    }

    private List<String> expand(List<String> given) {
        Set<String> names = new LinkedHashSet<>();
        List<String> known = WorkloadRunner.names();
        for (String name : given) {
            if (name.equals("all")) {
                names.addAll(ALL);
            } else if (known.contains(name)) {
                names.add(name);
            } else {
                throw new ParameterException(spec.commandLine(), "unknown workload '" + name + "'; expected one of " + String.join(", ", known) + " or all");
            }
        }
        return List.copyOf(names);
    }

    private List<String> arguments(String name, Path result) {
        List<String> arguments = new ArrayList<>(List.of("--json", result.toString()));
        if (name.equals("AtA")) {
            addIfGiven(arguments, "--rows", rows);
            addIfGiven(arguments, "--columns", columns);
            addIfGiven(arguments, "--block-rows", blockRows);
            addIfGiven(arguments, "--keep", keep);
        } else {
            addIfGiven(arguments, "--repeat", repeat);
            addIfGiven(arguments, "--dashboard", dashboardPort);
            addIfGiven(arguments, "--scheduler", scheduler.equals("threads") ? null : scheduler);
            addIfGiven(arguments, "--store", (name.startsWith("R") || name.equals("H1")) && store != null ? (Stores.isUri(store) ? store : Path.of(store).toAbsolutePath()) : null);
        }
        return arguments;
    }

    private static void addIfGiven(List<String> arguments, String option, Object value) {
        if (value != null) {
            arguments.add(option);
            arguments.add(value.toString());
        }
    }
}
