package org.tessera.bench.workload;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.tessera.array.ChunkedArray;
import org.tessera.array.blockwise.MapBlocks;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.io.StoreOptions;
import org.tessera.io.StoreReport;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.zarr.ArrayMetadataV2;
import org.tessera.io.zarr.Zarr;
import org.tessera.io.zarr.ZarrArray;
import org.tessera.io.zarr.ZarrFft;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.fft.Fft;

/**
 * F1 of WORKLOADS.md: {@code fft2} of a 16384 x 16384 complex128 array (4 GiB) stored as an
 * uncompressed Zarr v2 array in 2048 x 2048 chunks, into a new store, out of core: a 1 GiB heap
 * (the chunked workloads' JVM options) and a scheduler memory budget of 1 GiB. The array (real
 * and imaginary parts uniform in [0, 1), fixed seeds) is written before the timed part, and so is
 * the reference: its energy and one row of its transform computed directly in memory (row r of
 * fft2 is the one-dimensional fft of the sum over m of row m times {@code exp(-2 pi i r m / M)}),
 * in one pass over the stored rows.
 *
 * <p>Timed: {@link ZarrFft#fft2} (pass one: bands of 256 whole rows, fft along the rows, an
 * intermediate store chunked (256, 16384); pass two: bands of 256 whole columns read from it, fft
 * along the columns, the target chunked (2048, 256)), then the check: Parseval's identity (the
 * energy of the result is M N times the input's) within 1e-9 relative, and the stored row r
 * against the direct transform within 1e-9 of its largest modulus. {@code params} gives the
 * seconds of the transform and of the check apart, and what each pass held. The stores live in a
 * temporary directory (about 12 GB at the peak), deleted at the end of each run and at exit.
 */
final class StoredFftWorkload implements Workload {
    static final long SIDE = 16_384;
    static final long CHUNK = 2_048;
    private static final long BAND_BYTES = 64L << 20;
    private static final long BUDGET_BYTES = 1L << 30;
    private static final long[] TARGET_CHUNKS = {2_048, 256};
    private static final long ROW = 4_321;
    /** The warm-up: the same path on an array an eighth as long on each side (2048 x 2048 in 256 x 256 chunks), bands a 64th as large. */
    private static final long WARM_UP_SCALE = 8;

    private final long side;
    private final long chunk;
    private final long bandBytes;
    private final long[] targetChunks;
    private Path directory;
    private Instance instance;
    private final Map<String, Object> measured = new LinkedHashMap<>();

    /** F1 as WORKLOADS.md gives it. */
    StoredFftWorkload() {
        this(SIDE, CHUNK, BAND_BYTES, TARGET_CHUNKS);
    }

    /** The same workload at another size (a test runs a small one); sizes must divide by {@link #WARM_UP_SCALE}. */
    StoredFftWorkload(long side, long chunk, long bandBytes, long[] targetChunks) {
        this.side = side;
        this.chunk = chunk;
        this.bandBytes = bandBytes;
        this.targetChunks = targetChunks.clone();
    }

    @Override
    public String name() {
        return "F1";
    }

    /** An input store, its reference values, and how a transform of it runs. */
    private record Instance(long side, long chunk, long bandBytes, long[] targetChunks, Path input, double energy, double[] row,
                            double writeSeconds, double referenceSeconds) {
    }

    @Override
    public void warmUp() throws IOException {
        directory = Files.createTempDirectory("tessera-F1-");
        Path root = directory;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                DirectoryTrees.delete(root);
            } catch (IOException ignored) {
                // The temporary directory is the system's to clean up then.
            }
        }));
        long scale = WARM_UP_SCALE;
        Instance small = prepare(directory.resolve("warm-up.zarr"), side / scale, chunk / scale, bandBytes / (scale * scale),
                new long[] {targetChunks[0] / scale, targetChunks[1] / scale});
        Map<String, Object> ignored = new LinkedHashMap<>();
        Check check = transformAndCheck(small, ignored);
        if (!check.ok()) {
            throw new IllegalStateException("F1's warm-up on " + small.side() + " x " + small.side() + " failed its check: " + check.value());
        }
        DirectoryTrees.delete(small.input());
        instance = prepare(directory.resolve("x.zarr"), side, chunk, bandBytes, targetChunks);
    }

    @Override
    public Check run() throws IOException {
        return transformAndCheck(instance, measured);
    }

    /** The scheduler of every pass: the threaded one under the memory budget, unless --scheduler chose another. */
    private static Scheduler scheduler() {
        Scheduler chosen = ChunkedArray.defaultScheduler();
        return chosen instanceof ThreadedScheduler threaded
                ? ThreadedScheduler.builder().workers(threaded.workers()).memoryBudget(MemoryBudget.ofBytes(BUDGET_BYTES)).build() : chosen;
    }

    /** Writes the input store and computes its energy and the reference row (untimed). */
    private Instance prepare(Path input, long side, long chunk, long bandBytes, long[] targetChunks) throws IOException {
        // Parameters shadow the fields on purpose: the warm-up prepares a smaller instance.
        long start = System.nanoTime();
        long[] shape = {side, side};
        ChunkSpec chunks = ChunkSpec.of(chunk, chunk);
        ChunkedArray real = Creation.random(11, Creation.Distribution.UNIFORM, shape, chunks);
        ChunkedArray imaginary = Creation.random(12, Creation.Distribution.UNIFORM, shape, chunks);
        ChunkedArray x = MapBlocks.of(StoredFftWorkload::complex, real, imaginary).dtype(DType.COMPLEX128).label("complex").build();
        ArrayMetadataV2 metadata = ArrayMetadataV2.of(shape, new long[] {chunk, chunk}, DType.COMPLEX128).withCompressor(null);
        Zarr.toZarr(x, DirectoryStore.open(input), "", metadata, new StoreOptions(scheduler(), false));
        double writeSeconds = (System.nanoTime() - start) / 1e9;

        start = System.nanoTime();
        ZarrArray stored = Zarr.open(input);
        long rowIndex = ROW % side;
        double[] sum = new double[Math.toIntExact(2 * side)];
        double energy = 0;
        long bandRows = Math.max(1, bandBytes / (side * 16));
        for (long first = 0; first < side; first += bandRows) {
            long rows = Math.min(bandRows, side - first);
            double[] band = doubles(stored.readRegion(new long[] {first, 0}, new long[] {rows, side}));
            for (int row = 0; row < rows; row++) {
                long m = first + row;
                // exp(-2 pi i r m / M), the exponent reduced exactly first.
                double angle = -2 * Math.PI * ((double) Math.floorMod(rowIndex * m, side) / side);
                double wr = Math.cos(angle);
                double wi = Math.sin(angle);
                int offset = Math.toIntExact(2 * side * row);
                for (int column = 0; column < 2 * side; column += 2) {
                    double re = band[offset + column];
                    double im = band[offset + column + 1];
                    energy += re * re + im * im;
                    sum[column] += re * wr - im * wi;
                    sum[column + 1] += re * wi + im * wr;
                }
            }
        }
        NDArray weighted = NDArray.zeros(DType.COMPLEX128, side);
        MemorySegment.copy(sum, 0, weighted.segment(), ValueLayout.JAVA_DOUBLE_UNALIGNED, weighted.byteOffset(), sum.length);
        double[] row = doubles(Fft.fft(weighted));
        return new Instance(side, chunk, bandBytes, targetChunks, input, energy, row, writeSeconds, (System.nanoTime() - start) / 1e9);
    }

    private static NDArray complex(NDArray... parts) {
        NDArray result = NDArray.empty(DType.COMPLEX128, parts[0].shape());
        result.real().assign(parts[0]);
        result.imag().assign(parts[1]);
        return result;
    }

    private static double[] doubles(NDArray complex) {
        NDArray contiguous = complex.ascontiguousarray();
        double[] values = new double[Math.toIntExact(2 * contiguous.size())];
        MemorySegment.copy(contiguous.segment(), ValueLayout.JAVA_DOUBLE_UNALIGNED, contiguous.byteOffset(), values, 0, values.length);
        return values;
    }

    /** The timed part: the transform into a new store, then Parseval's identity and the reference row; the result store is deleted after. */
    private Check transformAndCheck(Instance of, Map<String, Object> report) throws IOException {
        Path target = directory.resolve("X.zarr");
        try {
            long start = System.nanoTime();
            ZarrFft.Settings settings = new ZarrFft.Settings(of.bandBytes(), of.targetChunks(), directory.resolve("scratch"), scheduler());
            ZarrFft.Transformed transformed = ZarrFft.fft2(Zarr.open(of.input()), target, null, settings);
            double fftSeconds = (System.nanoTime() - start) / 1e9;

            start = System.nanoTime();
            ChunkedArray spectrum = Zarr.fromZarr(transformed.result());
            long[] ones = new long[spectrum.numBlocks()[0]];
            java.util.Arrays.fill(ones, 1);
            long[] onesColumns = new long[spectrum.numBlocks()[1]];
            java.util.Arrays.fill(onesColumns, 1);
            ChunkedArray blockEnergy = MapBlocks.of(StoredFftWorkload::energy, spectrum).chunks(ones, onesColumns).dtype(DType.FLOAT64)
                    .label("energy").build();
            double energy = blockEnergy.sum().compute(scheduler()).getDouble();
            double expectedEnergy = of.energy() * of.side() * of.side();
            double parseval = Math.abs(energy - expectedEnergy) / expectedEnergy;
            double[] row = doubles(transformed.result().readRegion(new long[] {ROW % of.side(), 0}, new long[] {1, of.side()}));
            double largest = 0;
            double worst = 0;
            for (int index = 0; index < row.length; index += 2) {
                largest = Math.max(largest, Math.hypot(of.row()[index], of.row()[index + 1]));
                worst = Math.max(worst, Math.hypot(row[index] - of.row()[index], row[index + 1] - of.row()[index + 1]));
            }
            double rowError = worst / largest;
            double checkSeconds = (System.nanoTime() - start) / 1e9;

            report.clear();
            report.put("fft2_seconds", fftSeconds);
            report.put("check_seconds", checkSeconds);
            report.put("write_seconds", of.writeSeconds());
            report.put("reference_seconds", of.referenceSeconds());
            report.put("parseval_relative_error", parseval);
            report.put("row_relative_error", rowError);
            List<Object> passes = new ArrayList<>();
            for (int pass = 0; pass < transformed.passes().size(); pass++) {
                StoreReport written = transformed.passes().get(pass);
                Map<String, Object> summary = new LinkedHashMap<>();
                long[] band = transformed.bands().get(pass);
                summary.put("band", band[0] + "x" + band[1]);
                summary.put("seconds", transformed.seconds().get(pass));
                summary.put("tasks", written.tasksRun());
                summary.put("chunks_written", written.chunksWritten());
                if (written.statistics() != null) {
                    summary.put("peak_result_bytes", written.statistics().peakResultBytes());
                    summary.put("spilled_bytes", written.statistics().spilledBytes());
                }
                passes.add(summary);
            }
            report.put("passes", passes);
            return new Check(List.of(parseval, rowError), parseval <= 1e-9 && rowError <= 1e-9);
        } finally {
            DirectoryTrees.delete(target);
        }
    }

    /** The energy of a block, sum |z|^2, as a 1 x 1 block. */
    private static NDArray energy(NDArray... blocks) {
        double[] values = doubles(blocks[0]);
        double sum = 0;
        for (double value : values) {
            sum += value * value;
        }
        NDArray result = NDArray.zeros(DType.FLOAT64, 1, 1);
        result.setDouble(sum, 0, 0);
        return result;
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("operation", "fft2 of a stored array into a new store, out of core, then Parseval's identity and one row checked");
        params.put("shape", side + "x" + side);
        params.put("dtype", "complex128");
        params.put("chunks", chunk + "x" + chunk);
        params.put("store", "zarr v2, no compressor, written by Tessera before the timed part");
        params.put("target_chunks", targetChunks[0] + "x" + targetChunks[1]);
        params.put("band_bytes", bandBytes);
        params.put("memory_budget_bytes", BUDGET_BYTES);
        params.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
        params.put("checked_row", ROW);
        params.put("threads", Runtime.getRuntime().availableProcessors());
        params.putAll(measured);
        return params;
    }
}
