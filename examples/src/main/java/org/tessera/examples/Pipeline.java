package org.tessera.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.tessera.array.ChunkedArray;
import org.tessera.io.zarr.Zarr;
import org.tessera.io.zarr.ZarrArray;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.ufunc.Reductions.Options;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * A small pipeline on Tessera as a user's program sees it: the installed artifacts, the public API.
 *
 * <p>It reads a 2-D float64 Zarr store block by block, stores the anomalies {@code x - x.mean(axis=0)}
 * as a new Zarr store, computes the standard deviation of each row from that store and stores it too,
 * then reads both back and checks them against the same computation done in memory on the whole
 * input, and against the figures NumPy saved as attributes of the input when it wrote it (see
 * {@code data/make_input.py}). Exit status 0 when every check holds, 1 on a mismatch, 2 on bad arguments.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -cp ... org.tessera.examples.Pipeline INPUT.zarr OUTPUT-DIR</pre>
 */
public final class Pipeline {
    /**
     * The results may differ from the in-memory ones and NumPy's only by the rounding of different
     * summation orders (a few units in the last place): absolute for the elements (of order 1 to 10
     * here), relative for NumPy's sums.
     */
    private static final double TOLERANCE = 1e-12;

    private Pipeline() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: Pipeline INPUT.zarr OUTPUT-DIR  (a 2-D float64 Zarr array; the results go to OUTPUT-DIR/anomalies.zarr and OUTPUT-DIR/row_std.zarr)");
            System.exit(2);
        }
        Path input = Path.of(args[0]);
        Path output = Path.of(args[1]);
        long start = System.nanoTime();

        // Stage 1: the anomalies, from the input store to a new store, block by block.
        ZarrArray source = Zarr.open(input);
        if (source.shape().length != 2) {
            System.err.println("Pipeline: " + input + " holds a " + source.shape().length + "-D array; this example takes a 2-D one");
            System.exit(2);
        }
        ChunkedArray x = Zarr.fromZarr(source);
        System.out.printf(Locale.ROOT, "input      %s: %s %s in chunks of %s, %d chunks%n", input, dims(source.shape()), source.dtype(),
                dims(source.chunkShape()), Arrays.stream(source.chunkCounts()).reduce(1, (a, b) -> a * b));
        ChunkedArray anomalies = x.subtract(x.mean(0));                          // x - x.mean(axis=0), still lazy
        Path anomaliesPath = replaceable(output, "anomalies.zarr");
        Zarr.toZarr(anomalies, anomaliesPath, source.chunkShape());

        // Stage 2: the standard deviation of each row, from the stored anomalies.
        ChunkedArray storedAnomalies = Zarr.fromZarr(anomaliesPath);
        Path rowStdPath = replaceable(output, "row_std.zarr");
        Zarr.toZarr(storedAnomalies.std(0, 1), rowStdPath, source.chunkShape()[0]);
        System.out.printf(Locale.ROOT, "wrote      %s and %s in %.2f s%n", anomaliesPath, rowStdPath, (System.nanoTime() - start) / 1e9);

        // Read both back, and do the same computation in memory on the whole input.
        NDArray anomaliesBack = Zarr.open(anomaliesPath).readAll();
        NDArray rowStdBack = Zarr.open(rowStdPath).readAll();
        NDArray whole = source.readAll();
        NDArray expectedAnomalies = NDArrays.subtract(whole, NDArrays.mean(whole, Options.axes(0)));
        NDArray expectedRowStd = NDArrays.std(expectedAnomalies, Options.axes(1), 0);

        double rowStdSum = NDArrays.sum(rowStdBack).getDouble();
        double sumOfSquares = NDArrays.sum(NDArrays.multiply(anomaliesBack, anomaliesBack)).getDouble();
        long rows = rowStdBack.shape()[0];
        System.out.printf(Locale.ROOT, "row std    first %.6f, last %.6f, min %.6f, max %.6f, sum %.12f%n", rowStdBack.getDouble(0),
                rowStdBack.getDouble(rows - 1), NDArrays.min(rowStdBack, Options.all()).getDouble(),
                NDArrays.max(rowStdBack, Options.all()).getDouble(), rowStdSum);

        boolean ok = true;
        double anomaliesError = maxAbsDifference(anomaliesBack, expectedAnomalies);
        double rowStdError = maxAbsDifference(rowStdBack, expectedRowStd);
        ok &= report("in memory", String.format(Locale.ROOT, "anomalies max |diff| %.1e, row stds max |diff| %.1e", anomaliesError, rowStdError),
                anomaliesError <= TOLERANCE && rowStdError <= TOLERANCE);

        // The figures NumPy computed when it wrote the input, if the input has them.
        var attributes = source.attributes();
        if (attributes.get("expected_row_std_sum") instanceof Number rowStdSumNumPy
                && attributes.get("expected_anomaly_sum_of_squares") instanceof Number sumOfSquaresNumPy) {
            double rowStdRelative = relative(rowStdSum, rowStdSumNumPy.doubleValue());
            double squaresRelative = relative(sumOfSquares, sumOfSquaresNumPy.doubleValue());
            ok &= report("NumPy", String.format(Locale.ROOT, "its sum of row stds %s (relative diff %.1e), its sum of squared anomalies %s (relative diff %.1e)",
                    rowStdSumNumPy, rowStdRelative, sumOfSquaresNumPy, squaresRelative),
                    rowStdRelative <= TOLERANCE && squaresRelative <= TOLERANCE);
        } else {
            System.out.println("NumPy      no expected_row_std_sum and expected_anomaly_sum_of_squares attributes in the input: not checked");
        }
        System.out.printf(Locale.ROOT, "wall       %.2f s%n", (System.nanoTime() - start) / 1e9);
        if (!ok) {
            System.out.println("Pipeline: MISMATCH");
            System.exit(1);
        }
    }

    private static boolean report(String against, String figures, boolean ok) {
        System.out.printf(Locale.ROOT, "check      against %s: %s: %s%n", against, figures, ok ? "ok" : "MISMATCH");
        return ok;
    }

    private static double maxAbsDifference(NDArray a, NDArray b) {
        if (!Arrays.equals(a.shape(), b.shape())) {
            return Double.POSITIVE_INFINITY;
        }
        // NaN anywhere makes the maximum NaN, which fails every "<=" check.
        return NDArrays.max(Ufuncs.ABSOLUTE.apply(NDArrays.subtract(a, b)), Options.all()).getDouble();
    }

    private static double relative(double value, double expected) {
        return Math.abs(value - expected) / Math.max(Math.abs(expected), Double.MIN_NORMAL);
    }

    private static String dims(long[] shape) {
        return LongStream.of(shape).mapToObj(Long::toString).collect(Collectors.joining(" x "));
    }

    /**
     * {@code directory/name}, where a store is about to be written: a Zarr v2 array left there by an
     * earlier run is deleted, and anything else there is an error rather than deleted.
     */
    private static Path replaceable(Path directory, String name) throws IOException {
        Files.createDirectories(directory);
        Path path = directory.resolve(name);
        if (Files.exists(path)) {
            if (!Files.isRegularFile(path.resolve(".zarray"))) {
                throw new IOException(path + " exists and is not a Zarr v2 array; not replacing it");
            }
            try (Stream<Path> tree = Files.walk(path)) {
                tree.sorted(Comparator.reverseOrder()).forEach(p -> {
                    try {
                        Files.delete(p);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
        return path;
    }
}
