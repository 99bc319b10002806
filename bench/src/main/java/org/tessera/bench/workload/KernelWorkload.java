package org.tessera.bench.workload;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.blas.Blas;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.parallel.Cores;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * N1–N6 of WORKLOADS.md: one in-memory kernel on arrays made from the formula
 * {@code a[i] = (i % 1000) * 0.001} (and its reverse), the same data bench_numpy.py makes. Setup is
 * not timed; the warm-up runs the kernel once on a 1/10 instance, so that C2 has compiled it.
 */
final class KernelWorkload implements Workload {
    static final long N = 100_000_000L;

    /** The inputs of one run. */
    record Inputs(NDArray a, NDArray b) {
    }

    private final String name;
    private final Function<Long, Inputs> setup;
    private final Function<Inputs, NDArray> operation;
    private final Checker checker;
    private final long size;
    private Inputs inputs;

    @FunctionalInterface
    interface Checker {
        Check check(Inputs inputs, NDArray result);
    }

    KernelWorkload(String name, long size, Function<Long, Inputs> setup, Function<Inputs, NDArray> operation, Checker checker) {
        this.name = name;
        this.size = size;
        this.setup = setup;
        this.operation = operation;
        this.checker = checker;
    }

    static Map<String, Supplier<Workload>> all() {
        Map<String, Supplier<Workload>> workloads = new LinkedHashMap<>();
        workloads.put("N1", () -> new KernelWorkload("N1", N, n -> new Inputs(formula(n), reversed(formula(n))),
                inputs -> Ufuncs.ADD.apply(inputs.a(), inputs.b()), KernelWorkload::spotSum));
        workloads.put("N2", () -> new KernelWorkload("N2", N, n -> new Inputs(formula(n), null),
                inputs -> NDArrays.sum(inputs.a()), KernelWorkload::exactSum));
        workloads.put("N3", () -> new KernelWorkload("N3", N, n -> squares(formula(n), reversed(formula(n))),
                inputs -> Ufuncs.ADD.apply(inputs.a().transpose(), inputs.b()), KernelWorkload::spotTransposedSum));
        workloads.put("N4", () -> new KernelWorkload("N4", N / 10, n -> new Inputs(formula(n), null),
                inputs -> Ufuncs.EXP.apply(inputs.a()), KernelWorkload::spotExp));
        workloads.put("N5", () -> new KernelWorkload("N5", MATRIX_SIDE * MATRIX_SIDE, n -> squares(formula(n), reversed(formula(n))),
                inputs -> NDArrays.matmul(inputs.a(), inputs.b()), KernelWorkload::spotProduct));
        workloads.put("N6", () -> new KernelWorkload("N6", N, n -> new Inputs(modulo(n, 1000), modulo(n, 7)),
                inputs -> Ufuncs.ADD.apply(inputs.a(), inputs.b()), KernelWorkload::spotSum));
        return workloads;
    }

    /** {@code (arange(n) % 1000) * 0.001} as float64. */
    static NDArray formula(long n) {
        return Ufuncs.MULTIPLY.apply(Ufuncs.REMAINDER.apply(NDArrays.arange(n), 1000L), 0.001);
    }

    /** {@code (arange(n) % modulus)} as int32. */
    static NDArray modulo(long n, long modulus) {
        return Ufuncs.REMAINDER.apply(NDArrays.arange(n), modulus).astype(DType.INT32);
    }

    static NDArray reversed(NDArray x) {
        return NDArrays.get(x, Index.range(null, null, -1L)).copy();
    }

    /** Square matrices of the two inputs (N3 is on 10000 x 10000, N5 on 4096 x 4096); the warm-up's 1/10 size is cut to a square. */
    static Inputs squares(NDArray a, NDArray b) {
        long side = (long) Math.sqrt(a.size());
        Index square = Index.range(0L, side * side, 1L);
        return new Inputs(NDArrays.get(a, square).reshape(side, side), NDArrays.get(b, square).reshape(side, side));
    }

    static final long SPOT = 12345;

    /** N5 multiplies 4096 x 4096 matrices. */
    static final long MATRIX_SIDE = 4096;

    /** {@code result[7, 11]} against the dot product of row 7 of a and column 11 of b, summed here in Java. */
    private static Check spotProduct(Inputs inputs, NDArray result) {
        double expected = 0;
        for (long k = 0; k < inputs.a().shape(1); k++) {
            expected += inputs.a().getDouble(7, k) * inputs.b().getDouble(k, 11);
        }
        double value = result.getDouble(7, 11);
        return new Check(value, Math.abs(value - expected) <= 1e-9 * Math.abs(expected));
    }

    private static Check spotSum(Inputs inputs, NDArray result) {
        double expected = inputs.a().getDouble(SPOT) + inputs.b().getDouble(SPOT);
        double value = result.getDouble(SPOT);
        return new Check(value, value == expected);
    }

    private static Check spotTransposedSum(Inputs inputs, NDArray result) {
        long side = inputs.a().shape(0);
        long row = SPOT / side;
        long column = SPOT % side;
        double expected = inputs.a().getDouble(column, row) + inputs.b().getDouble(row, column);
        double value = result.getDouble(row, column);
        return new Check(value, value == expected);
    }

    private static Check spotExp(Inputs inputs, NDArray result) {
        double expected = Math.exp(inputs.a().getDouble(SPOT));
        double value = result.getDouble(SPOT);
        return new Check(value, Math.abs(value - expected) <= 4 * Math.ulp(expected));
    }

    /** The formula's exact sum: n / 1000 cycles of 0 + 0.001 + ... + 0.999 (n is a multiple of 1000). */
    private static Check exactSum(Inputs inputs, NDArray result) {
        double exact = inputs.a().size() / 1000 * 499.5;
        double value = result.getDouble();
        return new Check(value, Math.abs(value - exact) <= 1e-9 * exact);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void warmUp() {
        Inputs small = setup.apply(size / 10);
        operation.apply(small);
        inputs = setup.apply(size);
    }

    @Override
    public Check run() {
        NDArray result = operation.apply(inputs);
        return checker.check(inputs, result);
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("elements", size);
        params.put("dtype", inputs == null ? "" : inputs.a().dtype().numpyName());
        // N5 multiplies on OpenBLAS's threads, N3's transposed tiles run on one core, the others on every core (Cores).
        params.put("threads", name.equals("N5") ? Runtime.getRuntime().availableProcessors() : name.equals("N3") || !Cores.splits(size) ? 1 : Cores.threads());
        if (name.equals("N5")) {
            params.put("blas", Blas.selected().name());
        }
        return params;
    }

    @Override
    public double flops() {
        return name.equals("N5") ? 2.0 * MATRIX_SIDE * MATRIX_SIDE * MATRIX_SIDE : 0;
    }
}
