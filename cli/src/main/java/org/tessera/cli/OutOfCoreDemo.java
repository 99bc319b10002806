package org.tessera.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import org.tessera.array.ChunkedArray;
import org.tessera.array.plan.Budget;
import org.tessera.array.plan.Plan;
import org.tessera.bench.workload.DirectoryTrees;
import org.tessera.bench.workload.ProcessMemory;
import org.tessera.bench.workload.RandomZarrMatrix;
import org.tessera.dashboard.Dashboard;
import org.tessera.graph.schedule.Callback;
import org.tessera.graph.schedule.MeasuredPeak;
import org.tessera.graph.schedule.Profiler;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.io.StoreOptions;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.store.Store;
import org.tessera.io.zarr.Zarr;
import org.tessera.io.zarr.ZarrArray;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;

/**
 * The main job of {@code ./tessera demo}: a float64 matrix A larger than the heap is written to a
 * Zarr store, then {@code A.T @ A}, the column means and the column standard deviations are
 * computed from the store in one pass, block by block, on all cores.
 *
 * <p>A is the uniform [0, 1) matrix of {@link RandomZarrMatrix} with 1,000 columns in blocks of
 * 10,000 rows (80 MB), so every result has a known expectation: the diagonal of {@code A.T @ A}
 * over N is the mean of x^2 (1/3), the column means are 1/2 and the deviations sqrt(1/12).
 *
 * <p>The store is a directory of this machine or an object store ({@link MatrixStore}); the
 * computations run on the threaded scheduler unless given another (Spark's).
 */
final class OutOfCoreDemo {
    static final long COLUMNS = 1_000;
    static final long BLOCK_ROWS = 10_000;
    private static final long SEED = 10;

    /**
     * Where A is stored: {@code A.zarr} under a directory of this machine ({@code directory} set),
     * or at the root of a store named by a URI, such as {@code s3://bucket/demo/A.zarr}.
     *
     * @param parent   what the user named: the directory or the URI that A.zarr is under
     * @param location A.zarr itself, as messages show it
     * @param directory the local A.zarr, or null for a store named by a URI
     * @param store    the store whose root is A.zarr
     */
    record MatrixStore(String parent, String location, Path directory, Store store) {
        /** A.zarr in {@code parent}, a local directory. */
        static MatrixStore in(Path parent) {
            Path directory = parent.resolve("A.zarr");
            return new MatrixStore(parent.toString(), directory.toString(), directory, DirectoryStore.open(directory));
        }

        /** A.zarr under {@code parent}, a URI such as {@code s3://bucket/demo}, in the store {@code open} makes of a location. */
        static MatrixStore at(String parent, Function<String, Store> open) {
            String location = (parent.endsWith("/") ? parent : parent + "/") + "A.zarr";
            return new MatrixStore(parent, location, null, open.apply(location));
        }

        boolean holds(RandomZarrMatrix matrix) {
            return directory != null ? matrix.isHeldBy(directory) : matrix.isHeldBy(store);
        }

        double write(RandomZarrMatrix matrix, StoreOptions options) throws IOException {
            return directory != null ? matrix.write(directory, options) : matrix.write(store, options);
        }

        ChunkedArray open() throws IOException {
            return directory != null ? Zarr.fromZarr(directory) : Zarr.fromZarr(ZarrArray.open(store, ""));
        }

        /** Deletes A.zarr: the directory, or every key of the store. */
        void delete() throws IOException {
            if (directory != null) {
                DirectoryTrees.delete(directory);
            } else {
                store.deletePrefix("");
            }
        }
    }

    /** What the demo measured, and where it left its files. */
    record Report(RandomZarrMatrix matrix, MatrixStore store, Path directory, boolean storeReused, double writeSeconds, double computeSeconds, double checksum,
                  double traceOverElements, double meanOfMeans, double meanOfDeviations, long peakResidentBytes,
                  Path svg, Path profile, Path dashboardPage, boolean storeKept, Plan plan, long measuredPeakBytes, Path planPage) {

        double gflops() {
            return matrix.gramFlops() / computeSeconds / 1e9;
        }

        double wallSeconds() {
            return writeSeconds + computeSeconds;
        }

        /** Whether every statistic is within 1% of its expectation for uniform [0, 1) values. */
        boolean isPlausible() {
            return Math.abs(traceOverElements - 1.0 / 3) < 1e-2 && Math.abs(meanOfMeans - 0.5) < 1e-2
                    && Math.abs(meanOfDeviations - Math.sqrt(1.0 / 12)) < 1e-2;
        }
    }

    private OutOfCoreDemo() {
    }

    /** The matrix of about {@code bytes} bytes that the demo computes on. */
    static RandomZarrMatrix matrix(long bytes) {
        return RandomZarrMatrix.ofBytes(bytes, COLUMNS, BLOCK_ROWS, SEED);
    }

    /** The threaded scheduler on all cores, feeding the callbacks given: the demo's default. */
    static Scheduler threaded(List<Callback> callbacks) {
        ThreadedScheduler.Builder builder = ThreadedScheduler.builder();
        callbacks.forEach(builder::callback);
        return builder.build();
    }

    /**
     * Runs the demo on {@code matrix} stored in {@code store}, with its diagram, profile and
     * dashboard page in {@code directory} (created if missing), on schedulers from
     * {@code schedulers} (one per computation, given the callbacks to feed): a fresh progress
     * callback from {@code progress} for each of the two computations, and the dashboard, when
     * there is one, watching both. The store is deleted at the end unless {@code keepStore}; the
     * diagram, the profile and the dashboard's page stay, being small.
     *
     * <p>The computation is planned first, within {@code budget} (the standard one where null),
     * and refused before it reads anything if it cannot fit; on the threaded scheduler
     * ({@code schedulers} null) a budget given is kept while it runs. Its measured peak is reported
     * beside the projected one.
     */
    static Report run(RandomZarrMatrix matrix, MatrixStore store, Path directory, boolean keepStore, Supplier<Callback> progress, Dashboard dashboard,
                      Function<List<Callback>, Scheduler> schedulers, Budget budget) throws IOException {
        Files.createDirectories(directory);
        Profiler profiler = new Profiler();
        try {
            // A store kept by an earlier run (--keep) that already holds this matrix is read as it is.
            boolean reused = store.holds(matrix);
            Function<List<Callback>, Scheduler> writers = schedulers != null ? schedulers : OutOfCoreDemo::threaded;
            double writeSeconds = reused ? 0 : store.write(matrix, StoreOptions.defaults().withScheduler(scheduler(writers, profiler, progress, dashboard)));

            long start = System.nanoTime();
            ChunkedArray a = store.open();
            // One graph for the three results, so each block is read from the store once and feeds all three.
            List<ChunkedArray> outputs = List.of(a.T().matmul(a), a.mean(0), a.std(0, 0));
            Plan plan = ChunkedArray.plan(outputs, budget == null ? Budget.standard() : budget).requireFits();
            MeasuredPeak meter = new MeasuredPeak();
            Function<List<Callback>, Scheduler> computing = schedulers != null ? schedulers
                    : budget == null ? OutOfCoreDemo::threaded : callbacks -> ChunkedArray.budgetedScheduler(outputs, budget, callbacks);
            List<NDArray> results = ChunkedArray.computeAll(scheduler(computing, profiler, progress, dashboard, meter), outputs);
            double computeSeconds = (System.nanoTime() - start) / 1e9;

            NDArray gram = results.get(0);
            double trace = 0;
            for (long diagonal = 0; diagonal < matrix.columns(); diagonal++) {
                trace += gram.getDouble(diagonal, diagonal);
            }
            Path svg = directory.resolve("A.svg");
            Files.writeString(svg, a.toSvg());
            Path planPage = directory.resolve("plan.html");
            Files.writeString(planPage, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Plan of the demo</title></head><body>\n"
                    + a.toSvg() + "\n" + plan.toHtml() + "</body></html>\n");
            Path profile = directory.resolve("profile.json");
            profiler.writeChromeTrace(profile);
            Path dashboardPage = null;
            if (dashboard != null) {
                dashboardPage = directory.resolve("dashboard.html");
                dashboard.saveHtml(dashboardPage);
            }
            return new Report(matrix, store, directory, reused, writeSeconds, computeSeconds, NDArrays.sum(gram).getDouble(),
                    trace / ((double) matrix.rows() * matrix.columns()), meanOf(results.get(1)), meanOf(results.get(2)),
                    ProcessMemory.peakResidentBytes(), svg, profile, dashboardPage, keepStore, plan, meter.bytes(), planPage);
        } finally {
            if (!keepStore) {
                store.delete();
            }
        }
    }

    private static Scheduler scheduler(Function<List<Callback>, Scheduler> schedulers, Profiler profiler, Supplier<Callback> progress, Dashboard dashboard,
                                       Callback... more) {
        List<Callback> callbacks = new ArrayList<>(List.of(profiler, progress.get()));
        callbacks.addAll(List.of(more));
        if (dashboard != null) {
            callbacks.add(dashboard);
        }
        return schedulers.apply(callbacks);
    }

    private static double meanOf(NDArray values) {
        return NDArrays.sum(values).getDouble() / values.size();
    }
}
