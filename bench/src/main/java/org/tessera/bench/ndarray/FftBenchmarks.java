package org.tessera.bench.ndarray;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.Complex;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.fft.FftPlan;
import org.tessera.ndarray.fft.RealFftPlan;

/**
 * numpy.fft's transforms on NDArray against NumPy's pocketfft: complex128 {@code fft} of n = 1024,
 * 4096, 65536, 2^20, the prime 4099 (Bluestein) and 1000 (2^3 5^3), and float64 {@code rfft} of 2^20.
 * {@code fft} and {@code rfft} are the whole NumPy-shaped call (new result array, copies in and out),
 * which is what {@code np.fft.fft} does too; {@code planForward} is the bare in-place transform of one
 * line with a reused scratch array (what a chunked array calls per line). Run with
 * {@code ./tessera jmh FftBenchmarks}; compare with {@code python3 bench/anchors/numpy_fft.py}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch", "--enable-native-access=ALL-UNNAMED"})
public class FftBenchmarks {
    @Param({"1024", "4096", "65536", "1048576", "4099", "1000"})
    public int n;

    NDArray complexInput;
    double[] line;
    double[] work;
    double[] scratch;
    FftPlan plan;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(42);
        complexInput = NDArray.zeros(DType.COMPLEX128, n);
        line = new double[2 * n];
        for (int k = 0; k < n; k++) {
            double re = random.nextDouble() - 0.5, im = random.nextDouble() - 0.5;
            complexInput.setComplex(new Complex(re, im), k);
            line[2 * k] = re;
            line[2 * k + 1] = im;
        }
        work = new double[2 * n];
        plan = FftPlan.of(n);
        scratch = plan.newScratch();
    }

    /** np.fft.fft(x) of a complex128 array of n. */
    @Benchmark
    public NDArray fft() {
        return NDArrays.fft(complexInput);
    }

    /** The plan alone: one line transformed in place (after a copy of the input, as the NDArray call makes). */
    @Benchmark
    public double[] planForward() {
        System.arraycopy(line, 0, work, 0, 2 * n);
        plan.forward(work, 0, scratch);
        return work;
    }

    /** rfft of 2^20 float64 values (a class of its own, so that it does not run once per n above). */
    @State(Scope.Benchmark)
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @Warmup(iterations = 3, time = 1)
    @Measurement(iterations = 5, time = 1)
    @Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch", "--enable-native-access=ALL-UNNAMED"})
    public static class Real {
        @Param({"1048576"})
        public int realLength;

        NDArray input;
        double[] line;
        double[] work;
        double[] scratch;
        RealFftPlan plan;

        @Setup(Level.Trial)
        public void setUp() {
            SplittableRandom random = new SplittableRandom(7);
            line = new double[realLength];
            for (int k = 0; k < realLength; k++) {
                line[k] = random.nextDouble() - 0.5;
            }
            input = NDArrays.array(line);
            plan = RealFftPlan.of(realLength);
            work = new double[plan.lineLength()];
            scratch = plan.newScratch();
        }

        /** np.fft.rfft(x) of 2^20 float64 values. */
        @Benchmark
        public NDArray rfft() {
            return NDArrays.rfft(input);
        }

        /** The real plan alone on 2^20 values. */
        @Benchmark
        public double[] realPlanForward() {
            System.arraycopy(line, 0, work, 0, realLength);
            plan.forward(work, 0, 1.0, scratch);
            return work;
        }
    }

    /**
     * Many short lines of a 2-D complex128 array: fft2 of 1024x1024, fft along axis 0 and axis 1 of 1024x1024,
     * and fft along axis 0 of 64x1024 (compare with the 2-D cases of bench/anchors/numpy_fft.py).
     */
    @State(Scope.Benchmark)
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @Warmup(iterations = 3, time = 1)
    @Measurement(iterations = 5, time = 1)
    @Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch", "--enable-native-access=ALL-UNNAMED"})
    public static class TwoD {
        NDArray square;
        NDArray wide;

        @Setup(Level.Trial)
        public void setUp() {
            square = random(1024, 1024, 42);
            wide = random(64, 1024, 43);
        }

        private static NDArray random(int rows, int columns, long seed) {
            SplittableRandom random = new SplittableRandom(seed);
            NDArray array = NDArray.zeros(DType.COMPLEX128, rows, columns);
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < columns; c++) {
                    array.setComplex(new Complex(random.nextDouble() - 0.5, random.nextDouble() - 0.5), r, c);
                }
            }
            return array;
        }

        /** np.fft.fft2(x) of 1024x1024 complex128. */
        @Benchmark
        public NDArray fft2Square() {
            return NDArrays.fft2(square);
        }

        /** np.fft.fft(x, axis=0) of 1024x1024 complex128. */
        @Benchmark
        public NDArray fftAxis0Square() {
            return NDArrays.fft(square, null, 0, null);
        }

        /** np.fft.fft(x, axis=1) of 1024x1024 complex128. */
        @Benchmark
        public NDArray fftAxis1Square() {
            return NDArrays.fft(square, null, 1, null);
        }

        /** np.fft.fft(x, axis=0) of 64x1024 complex128. */
        @Benchmark
        public NDArray fftAxis0Wide() {
            return NDArrays.fft(wide, null, 0, null);
        }
    }
}
