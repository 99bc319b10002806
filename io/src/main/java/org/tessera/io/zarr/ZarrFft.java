package org.tessera.io.zarr;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.fft.ChunkedFft;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.io.StoreOptions;
import org.tessera.io.StoreReport;
import org.tessera.io.store.DirectoryStore;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.fft.Fft;
import org.tessera.ndarray.fft.FftNorm;

/**
 * Multi-axis FFTs of a stored Zarr array into a new store, out of core: one axis per pass, each
 * pass reading bands that hold its axis whole (so every task is a blockwise NDArray transform of
 * one band, as Dask's fft), and writing an intermediate store chunked as those bands, from which
 * the next pass reads its own bands, as Pangeo's rechunker goes through an intermediate store.
 * Each pass holds only the bands its tasks work on, so memory is bounded by the band size times
 * the scheduler's workers, whatever the array's size; the intermediate stores are uncompressed
 * (spectra of data do not compress), and an uncompressed chunk is read region by region from its
 * mapping, so a band that takes a slice of every chunk of the previous pass copies only that slice.
 *
 * <pre>{@code
 * ZarrArray source = Zarr.open(Path.of("x.zarr"));                 // 16384 x 16384 complex128 in 2048 x 2048 chunks
 * ZarrFft.Transformed spectrum = ZarrFft.fft2(source, Path.of("X.zarr"), null, ZarrFft.Settings.defaults());
 * }</pre>
 *
 * <p>With two axes, 16384 x 16384 complex128 (4 GB) and bands of 64 MB: pass one reads bands of
 * 256 whole rows (256 x 16384), transforms the rows and writes them to the intermediate store in
 * chunks of (256, 16384); pass two reads bands of 256 whole columns (16384 x 256), 64 slices of
 * 256 x 256 each, transforms the columns and writes the target, chunked as its bands unless
 * other target chunks are given (chunks the bands cover whole keep the writes lock-free; chunks
 * that straddle bands are gathered in memory by the store, which costs up to a row of them).
 */
public final class ZarrFft {
    private ZarrFft() {
    }

    /**
     * How the passes run.
     *
     * @param bandBytes    the bytes of one band (a block of one pass) of the result's dtype; a band
     *                     holds its axis whole however small this is
     * @param targetChunks the target store's chunks, or null for the last pass's bands
     * @param scratch      where the intermediate stores go (created and deleted here), or null
     *                     for a directory beside the target
     * @param scheduler    runs every pass; a ThreadedScheduler reports what each pass held
     */
    public record Settings(long bandBytes, long[] targetChunks, Path scratch, Scheduler scheduler) {
        public Settings {
            if (bandBytes <= 0) {
                throw new IllegalArgumentException("the band size must be positive, got " + bandBytes);
            }
            Objects.requireNonNull(scheduler);
            targetChunks = targetChunks == null ? null : targetChunks.clone();
        }

        /** Bands of 64 MiB, the target chunked as the last pass's bands, scratch beside the target, the default scheduler. */
        public static Settings defaults() {
            return new Settings(64L << 20, null, null, ChunkedArray.defaultScheduler());
        }

        public Settings withBandBytes(long bytes) {
            return new Settings(bytes, targetChunks, scratch, scheduler);
        }

        public Settings withTargetChunks(long... chunks) {
            return new Settings(bandBytes, chunks, scratch, scheduler);
        }

        public Settings withScratch(Path directory) {
            return new Settings(bandBytes, targetChunks, directory, scheduler);
        }

        public Settings withScheduler(Scheduler newScheduler) {
            return new Settings(bandBytes, targetChunks, scratch, newScheduler);
        }
    }

    /**
     * The transformed array and what each pass did.
     *
     * @param result the target array, opened
     * @param passes one report per pass, in order: chunks written and, under a ThreadedScheduler,
     *               the peak bytes the pass held
     * @param bands  the band shape of each pass
     * @param seconds the wall seconds of each pass
     */
    public record Transformed(ZarrArray result, List<StoreReport> passes, List<long[]> bands, List<Double> seconds) {
    }

    /** NumPy's {@code fft2(x, axes=(-2, -1), norm=norm)} of the stored array, written to a new Zarr v2 array at {@code target}. */
    public static Transformed fft2(ZarrArray source, Path target, FftNorm norm, Settings settings) throws IOException {
        return fftn(source, target, new int[] {-2, -1}, norm, true, settings);
    }

    /** NumPy's {@code ifft2(x, axes=(-2, -1), norm=norm)} of the stored array, written to a new Zarr v2 array at {@code target}. */
    public static Transformed ifft2(ZarrArray source, Path target, FftNorm norm, Settings settings) throws IOException {
        return fftn(source, target, new int[] {-2, -1}, norm, false, settings);
    }

    /**
     * NumPy's {@code fftn} ({@code forward}) or {@code ifftn} of the stored array over {@code axes}
     * (null: every axis), no cropping or padding, transformed from the last listed axis to the
     * first, one pass each, written to a new uncompressed Zarr v2 array at {@code target} (which
     * must not exist). The intermediate stores are deleted as soon as the next pass has read them,
     * and on failure.
     */
    public static Transformed fftn(ZarrArray source, Path target, int[] axes, FftNorm norm, boolean forward, Settings settings) throws IOException {
        long[] shape = source.shape();
        int ndim = shape.length;
        int[] order = axes == null ? range(ndim) : axes.clone();
        for (int i = 0; i < order.length; i++) {
            if (order[i] < -ndim || order[i] >= ndim) {
                throw new org.tessera.ndarray.error.AxisException(order[i], ndim);
            }
            order[i] = order[i] < 0 ? order[i] + ndim : order[i];
        }
        DType dtype = Fft.complexResultType(source.dtype());
        if (settings.targetChunks() != null && settings.targetChunks().length != ndim) {
            throw new IllegalArgumentException("target chunks " + Arrays.toString(settings.targetChunks()) + " have " + settings.targetChunks().length
                    + " axes, the array " + ndim);
        }
        if (Files.exists(target)) {
            throw new java.nio.file.FileAlreadyExistsException(target + ": the target of the FFT of " + source.describe() + " exists already");
        }
        if (order.length == 0) {
            throw new IllegalArgumentException("an FFT of " + source.describe() + " over no axes writes nothing");
        }
        Path scratch = settings.scratch() != null ? settings.scratch()
                : target.toAbsolutePath().resolveSibling(target.getFileName() + ".fft-scratch");
        boolean scratchCreated = !Files.exists(scratch);
        Files.createDirectories(scratch);
        List<StoreReport> passes = new ArrayList<>();
        List<long[]> bands = new ArrayList<>();
        List<Double> seconds = new ArrayList<>();
        StoreOptions options = new StoreOptions(settings.scheduler(), false);
        ZarrArray current = source;
        Path previous = null;
        try {
            for (int pass = 0; pass < order.length; pass++) {
                long start = System.nanoTime();
                int axis = order[order.length - 1 - pass];
                boolean last = pass == order.length - 1;
                long[] band = band(shape, axis, Math.max(1, settings.bandBytes() / dtype.byteSize()));
                ChunkedArray lines = Zarr.fromZarr(current, ChunkSpec.of(band));
                ChunkedArray transformed = forward ? ChunkedFft.fft(lines, null, axis, norm) : ChunkedFft.ifft(lines, null, axis, norm);
                Path written = last ? target : scratch.resolve("pass-" + pass + ".zarr");
                long[] chunks = last && settings.targetChunks() != null ? settings.targetChunks() : band;
                ArrayMetadataV2 metadata = ArrayMetadataV2.of(shape, chunks, dtype).withCompressor(null);
                passes.add(Zarr.toZarr(transformed, DirectoryStore.open(written), "", metadata, options));
                bands.add(band);
                seconds.add((System.nanoTime() - start) / 1e9);
                if (previous != null) {
                    delete(previous);
                }
                previous = last ? null : written;
                current = Zarr.open(written);
            }
            return new Transformed(current, List.copyOf(passes), List.copyOf(bands), List.copyOf(seconds));
        } finally {
            if (previous != null) {
                delete(previous);
            }
            if (scratchCreated) {
                delete(scratch);
            }
        }
    }

    /**
     * The band of a pass along {@code axis}: that axis whole, then the other axes from the last
     * (innermost) whole while the band holds at most {@code elements}, the next one cut to fit,
     * and those before it one element long; so a band is a run of whole rows of the C order.
     */
    static long[] band(long[] shape, int axis, long elements) {
        long[] band = new long[shape.length];
        band[axis] = Math.max(1, shape[axis]);
        long room = Math.max(1, elements / band[axis]);
        for (int other = shape.length - 1; other >= 0; other--) {
            if (other == axis) {
                continue;
            }
            long length = Math.max(1, shape[other]);
            band[other] = Math.max(1, Math.min(length, room));
            room = Math.max(1, room / band[other]);
        }
        return band;
    }

    private static int[] range(int count) {
        int[] values = new int[count];
        Arrays.setAll(values, i -> i);
        return values;
    }

    private static void delete(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
