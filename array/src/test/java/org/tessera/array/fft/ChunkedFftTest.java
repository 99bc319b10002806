package org.tessera.array.fft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.schedule.Computation;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.ArgumentTypeException;
import org.tessera.ndarray.fft.Fft;
import org.tessera.ndarray.fft.FftNorm;

/**
 * The chunked transforms against the NDArray ones, on every path: one block along the axis, the
 * four-step across blocks (with the rechunks it needs before and after), whole lines for a prime
 * length, Bluestein's algorithm when a prime line does not fit a block (a tiny task memory
 * limit), and out-of-core under a scheduler's memory budget.
 */
class ChunkedFftTest {
    private static final SynchronousScheduler SCHEDULER = new SynchronousScheduler();
    /**
     * A task memory limit whose blocks hold 16 complex128 values: a prime length above 16 goes
     * through Bluestein's algorithm, and no length above 256 can be transformed.
     */
    private static final long TINY = 4 * 16 * 16;

    static NDArray random(DType dtype, long seed, long... shape) {
        SplittableRandom random = new SplittableRandom(seed);
        NDArray values = NDArray.zeros(DType.COMPLEX128, shape);
        NDArray flat = values.reshape(values.size());
        for (long index = 0; index < values.size(); index++) {
            flat.real().setDouble(random.nextDouble(-1, 1), index);
            flat.imag().setDouble(random.nextDouble(-1, 1), index);
        }
        return dtype.isComplex() ? values.astype(dtype) : values.real().astype(dtype);
    }

    static ChunkedArray chunked(NDArray array, ChunkSpec spec) {
        return Creation.fromSource(RegionSource.of(array), spec);
    }

    /** Whether {@code actual} is {@code expected} in dtype and shape, and within {@code tolerance} of its largest magnitude. */
    static String mismatch(NDArray expected, NDArray actual, double tolerance) {
        if (expected.dtype() != actual.dtype()) {
            return "dtype " + actual.dtype() + ", expected " + expected.dtype();
        }
        if (!java.util.Arrays.equals(expected.shape(), actual.shape())) {
            return "shape " + java.util.Arrays.toString(actual.shape()) + ", expected " + java.util.Arrays.toString(expected.shape());
        }
        NDArray e = expected.astype(DType.COMPLEX128).reshape(expected.size());
        NDArray a = actual.astype(DType.COMPLEX128).reshape(actual.size());
        double largest = 0;
        double worst = 0;
        for (long index = 0; index < e.size(); index++) {
            largest = Math.max(largest, Math.hypot(e.real().getDouble(index), e.imag().getDouble(index)));
        }
        for (long index = 0; index < e.size(); index++) {
            double difference = Math.hypot(e.real().getDouble(index) - a.real().getDouble(index), e.imag().getDouble(index) - a.imag().getDouble(index));
            worst = Math.max(worst, difference);
        }
        return worst <= tolerance * Math.max(largest, 1e-300) || worst == 0 ? null : "largest difference " + worst + " for values up to " + largest;
    }

    static void assertClose(NDArray expected, NDArray actual, double tolerance, String what) {
        String mismatch = mismatch(expected, actual, tolerance);
        if (mismatch != null) {
            fail(what + ": " + mismatch);
        }
    }

    private static final List<ChunkSpec> CHUNKINGS = List.of(ChunkSpec.size(1), ChunkSpec.size(2), ChunkSpec.size(3), ChunkSpec.size(5));

    @Test
    void oneAxisTransformsEqualTheNDArrayOnesOnEveryChunking() {
        List<String> failures = new ArrayList<>();
        long[] lengths = {1, 2, 3, 4, 6, 7, 8, 12, 13, 16, 17, 30, 31, 64};
        int checked = 0;
        for (long length : lengths) {
            NDArray complex = random(DType.COMPLEX128, length, 3, length);
            NDArray real = random(DType.FLOAT64, length + 100, 3, length);
            for (ChunkSpec spec : CHUNKINGS) {
                for (long limit : new long[] {ChunkedFft.DEFAULT_TASK_MEMORY_BYTES, TINY}) {
                    for (Long n : new Long[] {null, length + 3, Math.max(1, length - 1)}) {
                        for (FftNorm norm : FftNorm.values()) {
                            String label = "length " + length + ", " + spec + ", limit " + limit + ", n " + n + ", " + norm;
                            ChunkedArray x = chunked(complex, spec);
                            ChunkedArray r = chunked(real, spec);
                            checked += 4;
                            check(failures, label + " fft", Fft.fft(complex, n, 1, norm), ChunkedFft.fft(x, n, 1, norm, limit));
                            check(failures, label + " ifft", Fft.ifft(complex, n, -1, norm), ChunkedFft.ifft(x, n, -1, norm, limit));
                            check(failures, label + " rfft", Fft.rfft(real, n, 1, norm), ChunkedFft.rfft(r, n, 1, norm, limit));
                            if (n != null || length > 1) {
                                check(failures, label + " irfft", Fft.irfft(complex, n, 1, norm), ChunkedFft.irfft(x, n, 1, norm, limit));
                            }
                        }
                    }
                }
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " of " + checked + " failed, the first: " + failures.subList(0, Math.min(10, failures.size())));
    }

    private static void check(List<String> failures, String label, NDArray expected, ChunkedArray actual) {
        try {
            String mismatch = mismatch(expected, actual.compute(SCHEDULER), expected.dtype() == DType.COMPLEX64 || expected.dtype() == DType.FLOAT32 ? 1e-5 : 1e-12);
            if (mismatch != null) {
                failures.add(label + ": " + mismatch);
            }
        } catch (RuntimeException failure) {
            failures.add(label + ": " + failure);
        }
    }

    @Test
    void severalAxesAndFloat32() {
        List<String> failures = new ArrayList<>();
        NDArray x = random(DType.COMPLEX128, 5, 6, 10, 7);
        NDArray real = random(DType.FLOAT64, 6, 6, 10, 8);
        NDArray single = random(DType.FLOAT32, 7, 12, 9);
        for (ChunkSpec spec : List.of(ChunkSpec.size(2), ChunkSpec.of(4, 3, 5), ChunkSpec.size(100))) {
            for (long limit : new long[] {ChunkedFft.DEFAULT_TASK_MEMORY_BYTES, TINY}) {
                String label = spec + ", limit " + limit;
                ChunkedArray cx = chunked(x, spec);
                ChunkedArray cr = chunked(real, spec);
                check(failures, label + " fft2", Fft.fft2(x, null, null, null), ChunkedFft.fft2(cx, null, null, null, limit));
                check(failures, label + " ifft2 s", Fft.ifft2(x, new long[] {5, 12}, new int[] {0, 2}, FftNorm.ORTHO),
                        ChunkedFft.ifft2(cx, new long[] {5, 12}, new int[] {0, 2}, FftNorm.ORTHO, limit));
                check(failures, label + " fftn", Fft.fftn(x), ChunkedFft.fftn(cx, null, null, null, limit));
                check(failures, label + " ifftn", Fft.ifftn(x, null, new int[] {2, 0, 2}, FftNorm.FORWARD),
                        ChunkedFft.ifftn(cx, null, new int[] {2, 0, 2}, FftNorm.FORWARD, limit));
                check(failures, label + " rfftn", Fft.rfftn(real), ChunkedFft.rfftn(cr, null, null, null, limit));
                check(failures, label + " irfftn", Fft.irfftn(x), ChunkedFft.irfftn(cx, null, null, null, limit));
                check(failures, label + " irfft2 s", Fft.irfft2(x, new long[] {4, 9}, null, null), ChunkedFft.irfft2(cx, new long[] {4, 9}, null, null, limit));
                check(failures, label + " rfft2", Fft.rfft2(real, null, new int[] {0, 1}, FftNorm.ORTHO), ChunkedFft.rfft2(cr, null, new int[] {0, 1}, FftNorm.ORTHO, limit));
            }
            ChunkedArray cs = chunked(single, ChunkSpec.size(5));
            check(failures, "float32 fft2", Fft.fft2(single), ChunkedFft.fft2(cs, null, null, null, TINY));
            check(failures, "float32 rfft", Fft.rfft(single, null, 0, null), ChunkedFft.rfft(cs, null, 0, null, TINY));
        }
        assertTrue(failures.isEmpty(), failures.size() + " failed, the first: " + failures.subList(0, Math.min(10, failures.size())));
    }

    @Test
    void resultBlocksAreStatedUpFront() {
        NDArray x = random(DType.COMPLEX128, 9, 8, 24);
        ChunkedArray chunked = chunked(x, ChunkSpec.explicit(new long[] {8}, new long[] {5, 7, 12}));
        // The axis is one block: Dask's blockwise map, the axis one block of the output length.
        assertArrayEquals(new long[] {30}, ChunkedFft.fft(chunked, 30L, 0, null).chunks().axis(0));
        // Across blocks: the input's blocks, cut at n or followed by blocks of the largest length.
        assertArrayEquals(new long[] {5, 7, 12}, ChunkedFft.fft(chunked).chunks().axis(1));
        assertArrayEquals(new long[] {8}, ChunkedFft.fft(chunked).chunks().axis(0));
        assertArrayEquals(new long[] {5, 7, 8}, ChunkedFft.fft(chunked, 20L, 1, null).chunks().axis(1));
        assertArrayEquals(new long[] {5, 7, 12, 12, 4}, ChunkedFft.ifft(chunked, 40L, 1, null).chunks().axis(1));
        assertArrayEquals(new long[] {5, 7, 1}, ChunkedFft.rfft(chunked.astype(DType.FLOAT64), null, 1, null).chunks().axis(1));
        assertArrayEquals(new long[] {12, 12, 12, 10}, ChunkedFft.irfft(chunked).chunks().axis(1));
        assertEquals(DType.COMPLEX64, ChunkedFft.fft(chunked.astype(DType.FLOAT32)).dtype());
        assertEquals(DType.FLOAT32, ChunkedFft.irfft(chunked.astype(DType.COMPLEX64)).dtype());
    }

    /** The layers of each path: a blockwise map, the four-step, whole lines for a prime, Bluestein's algorithm. */
    @Test
    void eachPathBuildsItsLayers() {
        NDArray values = random(DType.COMPLEX128, 3, 4, 4099);
        assertEquals(java.util.Set.of("fft"), kinds(ChunkedFft.fft(chunked(values, ChunkSpec.of(2, 4099)))));
        ChunkedArray fourStep = ChunkedFft.fft(chunked(values.slice(1, 0, 1, 4096), ChunkSpec.of(2, 512)));
        assertTrue(kinds(fourStep).containsAll(java.util.Set.of("fft-split", "fft-lines", "fft-merge")), kinds(fourStep).toString());
        ChunkedArray prime = ChunkedFft.fft(chunked(values, ChunkSpec.of(2, 512)));
        assertTrue(kinds(prime).contains("fft-lines") && !kinds(prime).contains("fft-chirp"), kinds(prime).toString());
        ChunkedArray bluestein = ChunkedFft.fft(chunked(values, ChunkSpec.of(2, 512)), null, -1, null, 64 << 10);
        assertTrue(kinds(bluestein).containsAll(java.util.Set.of("fft-chirp", "fft-chirp-kernel", "fft-split", "fft-merge")), kinds(bluestein).toString());
        assertClose(Fft.fft(values), bluestein.compute(SCHEDULER), 1e-12, "Bluestein across blocks, 4099 points");
        assertClose(Fft.fft(values.slice(1, 0, 1, 4096)), fourStep.compute(SCHEDULER), 1e-12, "four-step, 4096 points");
    }

    private static java.util.Set<String> kinds(ChunkedArray array) {
        java.util.Set<String> kinds = new java.util.TreeSet<>();
        for (String name : array.graph().layers().keySet()) {
            kinds.add(name.replaceFirst("-[0-9a-f]{16}$", ""));
        }
        kinds.removeIf(kind -> !kind.startsWith("fft"));
        return kinds;
    }

    @Test
    void errorsAreRaisedBeforeAnythingRuns() {
        ChunkedArray x = chunked(random(DType.COMPLEX128, 1, 4, 6), ChunkSpec.size(2));
        assertThrows(IllegalArgumentException.class, () -> ChunkedFft.fft(x, 0L, 1, null));
        assertThrows(IndexOutOfBoundsException.class, () -> ChunkedFft.fft(x, null, 2, null));
        assertThrows(ArgumentTypeException.class, () -> ChunkedFft.rfft(x));
        assertThrows(IllegalArgumentException.class, () -> ChunkedFft.fftn(x, new long[] {4}, new int[] {0, 1}, null));
        assertThrows(IllegalArgumentException.class, () -> ChunkedFft.irfft(chunked(random(DType.COMPLEX128, 1, 4, 1), ChunkSpec.size(2))));
        IllegalArgumentException tooSmall = assertThrows(IllegalArgumentException.class, () -> ChunkedFft.fft(x, 300L, 1, null, TINY));
        assertTrue(tooSmall.getMessage().contains("shape [4, 300]") && tooSmall.getMessage().contains("axis 1")
                && tooSmall.getMessage().contains(TINY + " bytes"), tooSmall.getMessage());
    }

    /**
     * 256 x 256 complex128 (1 MiB) in blocks of 32 x 32 (16 KiB), transformed across blocks along
     * both axes with blocks of at most 16 KiB, under a memory budget of 256 KiB: a quarter of the
     * array; what waits between the steps is spilled.
     */
    @Test
    void transformsAcrossBlocksWithinAMemoryBudget() {
        NDArray x = random(DType.COMPLEX128, 11, 256, 256);
        ChunkedArray chunked = chunked(x, ChunkSpec.of(32, 32));
        ChunkedArray spectrum = ChunkedFft.fft2(chunked, null, null, null, 64 << 10);
        assertArrayEquals(new long[] {32, 32}, spectrum.chunkSize());
        long budget = 256 << 10;
        ThreadedScheduler scheduler = ThreadedScheduler.builder().workers(2).memoryBudget(MemoryBudget.ofBytes(budget)).build();
        // The largest difference from the NDArray transform, so that nothing but a scalar is held at the end.
        ChunkedArray error = spectrum.subtract(chunked(Fft.fft2(x), ChunkSpec.of(32, 32))).abs().max();
        Computation computation = scheduler.run(error.optimizedGraph(), error.flatKeys());
        double largest = ((NDArray) computation.results().get(error.flatKeys().getFirst())).getDouble();
        System.out.println("fft2 of 256 x 256 in 32 x 32 blocks under a budget of " + budget + " bytes: " + computation.statistics()
                + ", largest difference " + largest);
        assertTrue(largest <= 1e-12 * 256 * 256 * Math.sqrt(2), "largest difference " + largest);
        assertTrue(computation.statistics().spilledResults() > 0, "nothing was spilled: " + computation.statistics());
        assertTrue(computation.statistics().peakResultBytes() <= budget, "peak " + computation.statistics());
    }
}
