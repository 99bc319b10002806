package org.tessera.bench.ndarray;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * The per-chunk kernels of issue 3 on the data of bench_numpy.py: contiguous float64 add and sum
 * of 10^8 elements, a transposed add of 10^4 x 10^4, exp of 10^7, float64 matmul of 4096 x 4096, int32
 * add of 10^8. The heap is sized to the data and touched at start-up (as the workload runner does) so that the outputs reuse
 * memory the JVM has already touched instead of faulting in fresh pages on every call. Run with
 * {@code ./tessera jmh KernelBenchmarks}; compare with {@code python3 bench/anchors/numpy_kernels.py N1..N6}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms6g", "-Xmx6g", "-XX:+AlwaysPreTouch", "-XX:+UseTransparentHugePages", "--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector"})
public class KernelBenchmarks {
    static final long N = 100_000_000L;

    NDArray a;
    NDArray b;
    NDArray square;
    NDArray squareOther;
    NDArray small;
    NDArray intA;
    NDArray intB;
    NDArray matrixA;
    NDArray matrixB;

    @Setup(Level.Trial)
    public void setUp() {
        a = formula(N);
        b = NDArrays.get(a, Index.range(null, null, -1L)).copy();
        square = a.reshape(10_000, 10_000);
        squareOther = b.reshape(10_000, 10_000);
        small = formula(N / 10);
        intA = Ufuncs.REMAINDER.apply(NDArrays.arange(N), 1000L).astype(DType.INT32);
        intB = Ufuncs.REMAINDER.apply(NDArrays.arange(N), 7L).astype(DType.INT32);
        matrixA = formula(4096L * 4096).reshape(4096, 4096);
        matrixB = NDArrays.get(formula(4096L * 4096), Index.range(null, null, -1L)).copy().reshape(4096, 4096);
    }

    static NDArray formula(long n) {
        return Ufuncs.MULTIPLY.apply(Ufuncs.REMAINDER.apply(NDArrays.arange(n), 1000L), 0.001);
    }

    @Benchmark
    public NDArray addFloat64() {
        return Ufuncs.ADD.apply(a, b);
    }

    @Benchmark
    public NDArray sumFloat64() {
        return NDArrays.sum(a);
    }

    @Benchmark
    public NDArray addTransposed() {
        return Ufuncs.ADD.apply(square.transpose(), squareOther);
    }

    @Benchmark
    public NDArray expFloat64() {
        return Ufuncs.EXP.apply(small);
    }

    /** N5: float64 4096 x 4096 matmul through the selected BLAS provider (-Dtessera.blas=java for the Java kernel). */
    @Benchmark
    public NDArray matmulFloat64() {
        return NDArrays.matmul(matrixA, matrixB);
    }

    @Benchmark
    public NDArray addInt32() {
        return Ufuncs.ADD.apply(intA, intB);
    }
}
