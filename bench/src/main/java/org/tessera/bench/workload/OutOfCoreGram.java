package org.tessera.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.tessera.array.ChunkedArray;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.io.StoreOptions;
import org.tessera.io.zarr.Zarr;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.blas.Blas;

/**
 * The headline run of the out-of-core issue, after the original Dask design note: {@code A.T @ A}
 * for a float64 A far larger than the JVM heap, stored on disk as Zarr.
 *
 * <pre>
 * ./tessera bench AtA [--rows N] [--columns M] [--block-rows R] [--keep DIR] [--json FILE]
 * </pre>
 *
 * <p>Defaults: 1,000,000 x 1,000 (8 GB) in row blocks of 10,000 x 1,000 (80 MB), run by the
 * launcher with a 1 GB heap. The run writes A (uniform [0, 1), fixed seed) to a Zarr v2 store
 * block by block, then, timed separately, reads it back and computes {@code A.T @ A} (M x M) with
 * the threaded scheduler: each row block gives one BLAS product of its transposed view with itself,
 * and the partial products are summed as a tree.
 *
 * <p>The matrix and its store are those of {@link RandomZarrMatrix}, which {@code ./tessera demo}
 * shares.
 *
 * <p>Reported: the seconds of the {@code A.T @ A} part, its GFLOP/s (2 N M^2 / seconds), the bytes
 * of A read per second, the peak resident set of the process, and the check: the trace of
 * {@code A.T @ A} over N M, which is the mean of x^2 for x uniform in [0, 1), so within 1e-2 of 1/3.
 * With {@code --keep DIR} the store is kept in DIR (and reused by a later run with the same shape);
 * otherwise it is written to a temporary directory that is deleted afterwards. A store that was
 * just written is likely still in the page cache, so the read rate is then the cache's, not the
 * disk's; the report says whether the store was written by this run.
 */
public final class OutOfCoreGram {
    private static final long SEED = 8;

    private OutOfCoreGram() {
    }

    /** The command line: sizes, the store's place and the report's file. */
    record Options(long rows, long columns, long blockRows, Path keep, Path json) {
        static Options parse(List<String> arguments) {
            long rows = longOption(arguments, "--rows", 1_000_000);
            long columns = longOption(arguments, "--columns", 1_000);
            long blockRows = longOption(arguments, "--block-rows", Math.min(10_000, rows));
            if (rows < 1 || columns < 1 || blockRows < 1) {
                throw new IllegalArgumentException("rows, columns and block rows must be positive, got " + rows + ", " + columns + ", " + blockRows);
            }
            return new Options(rows, columns, blockRows, option(arguments, "--keep").map(Path::of).orElse(null),
                    option(arguments, "--json").map(Path::of).orElse(null));
        }

        private static long longOption(List<String> arguments, String name, long fallback) {
            return option(arguments, name).map(text -> Long.parseLong(text.replace("_", "").replace(",", ""))).orElse(fallback);
        }

        private static Optional<String> option(List<String> arguments, String name) {
            int at = arguments.indexOf(name);
            if (at >= 0 && at + 1 >= arguments.size()) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            return at < 0 ? Optional.empty() : Optional.of(arguments.get(at + 1));
        }
    }

    /** {@code arguments} are those after the name "AtA". */
    public static void main(String[] arguments) throws IOException {
        Options options = Options.parse(List.of(arguments));
        String result = WorkloadRunner.toJson(run(options));
        System.out.println(result);
        if (options.json() != null) {
            Files.writeString(options.json(), result + "\n");
        }
    }

    static Map<String, Object> run(Options options) throws IOException {
        Path directory = options.keep() != null ? Files.createDirectories(options.keep()) : Files.createTempDirectory("ata-");
        try {
            Path store = directory.resolve("A.zarr");
            RandomZarrMatrix matrix = new RandomZarrMatrix(options.rows(), options.columns(), options.blockRows(), SEED);
            boolean reused = matrix.isHeldBy(store);
            double writeSeconds = reused ? Double.NaN : matrix.write(store, StoreOptions.defaults());

            ThreadedScheduler scheduler = new ThreadedScheduler();
            long start = System.nanoTime();
            ChunkedArray a = Zarr.fromZarr(store);
            NDArray gram = a.T().matmul(a).compute(scheduler);
            double seconds = (System.nanoTime() - start) / 1e9;

            double trace = 0;
            for (long diagonal = 0; diagonal < options.columns(); diagonal++) {
                trace += gram.getDouble(diagonal, diagonal);
            }
            double check = trace / ((double) options.rows() * options.columns());

            Map<String, Object> result = new LinkedHashMap<>();
            result.put("workload", "AtA");
            result.put("impl", "tessera");
            result.put("seconds", seconds);
            result.put("gflops", matrix.gramFlops() / seconds / 1e9);
            result.put("bytes_read_per_second", matrix.bytes() / seconds);
            result.put("bytes_of_a", matrix.bytes());
            result.put("write_seconds", writeSeconds);
            result.put("store_written_by_this_run", !reused);
            result.put("peak_rss_bytes", ProcessMemory.peakResidentBytes());
            result.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
            result.put("check", check);
            result.put("check_ok", Math.abs(check - 1.0 / 3.0) < 1e-2);
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("shape", options.rows() + "x" + options.columns());
            params.put("chunks", options.blockRows() + "x" + options.columns());
            params.put("dtype", "float64");
            params.put("store", "zarr v2, no compressor, " + store.toAbsolutePath());
            params.put("gemm", Blas.selected().name());
            params.put("threads", scheduler.workers());
            result.put("params", params);
            return result;
        } finally {
            if (options.keep() == null) {
                DirectoryTrees.delete(directory);
            }
        }
    }
}
