package org.tessera.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

import org.tessera.array.ChunkedArray;
import org.tessera.bench.workload.DirectoryTrees;
import org.tessera.bench.workload.ProcessMemory;
import org.tessera.bench.workload.RandomZarrMatrix;
import org.tessera.dashboard.Dashboard;
import org.tessera.graph.schedule.Callback;
import org.tessera.graph.schedule.Profiler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.io.StoreOptions;
import org.tessera.io.zarr.Zarr;
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
 */
final class OutOfCoreDemo {
    static final long COLUMNS = 1_000;
    static final long BLOCK_ROWS = 10_000;
    private static final long SEED = 10;

    /** What the demo measured, and where it left its files. */
    record Report(RandomZarrMatrix matrix, Path directory, boolean storeReused, double writeSeconds, double computeSeconds, double checksum,
                  double traceOverElements, double meanOfMeans, double meanOfDeviations, long peakResidentBytes,
                  Path svg, Path profile, Path dashboardPage, boolean storeKept) {

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

    /**
     * Runs the demo on {@code matrix} with its store in {@code directory} (created if missing), with
     * a fresh progress callback from {@code progress} for each of the two computations, and the
     * dashboard, when there is one, watching both. The store is deleted at the end unless
     * {@code keepStore}; the diagram, the profile and the dashboard's page stay, being small.
     */
    static Report run(RandomZarrMatrix matrix, Path directory, boolean keepStore, Supplier<Callback> progress, Dashboard dashboard) throws IOException {
        Files.createDirectories(directory);
        Path store = directory.resolve("A.zarr");
        Profiler profiler = new Profiler();
        try {
            // A store kept by an earlier run (--keep) that already holds this matrix is read as it is.
            boolean reused = matrix.isHeldBy(store);
            double writeSeconds = reused ? 0 : matrix.write(store, StoreOptions.defaults().withScheduler(scheduler(profiler, progress, dashboard)));

            long start = System.nanoTime();
            ChunkedArray a = Zarr.fromZarr(store);
            // One graph for the three results, so each block is read from disk once and feeds all three.
            List<NDArray> results = ChunkedArray.computeAll(scheduler(profiler, progress, dashboard), List.of(a.T().matmul(a), a.mean(0), a.std(0, 0)));
            double computeSeconds = (System.nanoTime() - start) / 1e9;

            NDArray gram = results.get(0);
            double trace = 0;
            for (long diagonal = 0; diagonal < matrix.columns(); diagonal++) {
                trace += gram.getDouble(diagonal, diagonal);
            }
            Path svg = directory.resolve("A.svg");
            Files.writeString(svg, a.toSvg());
            Path profile = directory.resolve("profile.json");
            profiler.writeChromeTrace(profile);
            Path dashboardPage = null;
            if (dashboard != null) {
                dashboardPage = directory.resolve("dashboard.html");
                dashboard.saveHtml(dashboardPage);
            }
            return new Report(matrix, directory, reused, writeSeconds, computeSeconds, NDArrays.sum(gram).getDouble(),
                    trace / ((double) matrix.rows() * matrix.columns()), meanOf(results.get(1)), meanOf(results.get(2)),
                    ProcessMemory.peakResidentBytes(), svg, profile, dashboardPage, keepStore);
        } finally {
            if (!keepStore) {
                DirectoryTrees.delete(store);
            }
        }
    }

    private static ThreadedScheduler scheduler(Profiler profiler, Supplier<Callback> progress, Dashboard dashboard) {
        ThreadedScheduler.Builder builder = ThreadedScheduler.builder().callback(profiler).callback(progress.get());
        return (dashboard == null ? builder : builder.callback(dashboard)).build();
    }

    private static double meanOf(NDArray values) {
        return NDArrays.sum(values).getDouble() / values.size();
    }
}
