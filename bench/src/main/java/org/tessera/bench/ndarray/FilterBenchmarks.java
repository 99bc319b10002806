package org.tessera.bench.ndarray;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.filter.EdgeMode;
import org.tessera.ndarray.filter.UniformFilter;

/**
 * The 3 x 3 mean filter of W8 and R6 on one enlarged block (2002 x 2002 float64, a 2000 x 2000
 * chunk with its ghost ring), reflected at the edges, the output's allocation included. Run
 * with {@code ./tessera jmh FilterBenchmarks}; add {@code -jvmArgsAppend -Dtessera.simd=false}
 * for the scalar loops, or {@code -jvmArgsAppend -XX:UseAVX=2} to hold the JIT to AVX2.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector"})
public class FilterBenchmarks {
    NDArray block;

    @Setup
    public void setUp() {
        block = KernelBenchmarks.formula(2002L * 2002).reshape(2002, 2002);
    }

    @Benchmark
    public NDArray meanFilter3x3() {
        return UniformFilter.apply(block, 3, EdgeMode.REFLECT);
    }
}
