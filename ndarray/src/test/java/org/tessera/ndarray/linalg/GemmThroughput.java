package org.tessera.ndarray.linalg;

import java.util.Random;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.blas.Blas;
import org.tessera.ndarray.blas.Gemm;
import org.tessera.ndarray.dtype.DType;

/**
 * Prints the GFLOP/s of an n×n float64 matmul for each provider (a measurement to read, not a test):
 * {@code java -cp ndarray/target/classes:ndarray/target/test-classes --enable-native-access=ALL-UNNAMED
 * org.tessera.ndarray.linalg.GemmThroughput 4096 3 [java|openblas]}.
 */
public final class GemmThroughput {
    private GemmThroughput() {}

    public static void main(String[] arguments) {
        int size = arguments.length > 0 ? Integer.parseInt(arguments[0]) : 4096;
        int repetitions = arguments.length > 1 ? Integer.parseInt(arguments[1]) : 3;
        NDArray a = randomNative(size, 1);
        NDArray b = randomNative(size, 2);
        // Java first: OpenBLAS threads keep spinning for a while after a call and would steal its cores.
        String only = arguments.length > 2 ? arguments[2] : "";
        for (Gemm gemm : Blas.openBlas().map(found -> new Gemm[] {Blas.java(), found}).orElse(new Gemm[] {Blas.java()})) {
            if (!only.isEmpty() && !gemm.name().equals(only)) {
                continue;
            }
            Matmul.matmul(a, b, gemm); // warm-up: JIT compilation, BLAS thread start
            double best = Double.MAX_VALUE;
            double bestCpu = Double.MAX_VALUE;
            for (int run = 0; run < repetitions; run++) {
                long start = System.nanoTime();
                long cpuStart = processCpuNanos();
                Matmul.matmul(a, b, gemm);
                best = Math.min(best, (System.nanoTime() - start) / 1e9);
                bestCpu = Math.min(bestCpu, (processCpuNanos() - cpuStart) / 1e9);
            }
            double flops = 2.0 * size * size * size;
            // CPU seconds are reported too: on a shared machine they show the work done apart from waiting.
            System.out.printf("%s float64 %dx%d: best %.3f s, %.1f GFLOP/s (%.2f CPU s, %.1f GFLOP per CPU second)%n",
                    gemm.name(), size, size, best, flops / best / 1e9, bestCpu, flops / bestCpu / 1e9);
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static NDArray randomNative(int size, long seed) {
        NDArray result = NDArray.zerosNative(DType.FLOAT64, size, size);
        Random random = new Random(seed);
        NDArray flat = result.reshape(result.size());
        for (long i = 0; i < flat.size(); i++) {
            flat.setDouble(random.nextDouble(), i);
        }
        return result;
    }
}
