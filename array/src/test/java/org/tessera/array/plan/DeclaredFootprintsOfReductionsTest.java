package org.tessera.array.plan;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.api.ChunkedArrays;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.creation.Creation.Distribution;
import org.tessera.array.fft.ChunkedFft;
import org.tessera.array.linalg.ChunkedLeastSquares;
import org.tessera.array.linalg.ChunkedLu;
import org.tessera.array.linalg.ChunkedProducts;
import org.tessera.array.linalg.ChunkedQr;
import org.tessera.array.linalg.ChunkedSvd;
import org.tessera.array.linalg.LeastSquares;
import org.tessera.array.linalg.RandomizedSvd;
import org.tessera.array.linalg.SquareLinearAlgebra;
import org.tessera.array.linalg.TallSkinny;
import org.tessera.array.reduction.CumulativeScan;
import org.tessera.array.reduction.SharedMoments;
import org.tessera.array.sorting.ChunkedSort;
import org.tessera.array.sorting.Counting;
import org.tessera.array.sorting.Percentiles;
import org.tessera.array.sorting.TopK;
import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.memory.Footprint;
import org.tessera.graph.optimize.Optimization;
import org.tessera.graph.schedule.Callback;
import org.tessera.graph.schedule.Computation;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.fft.FftNorm;
import org.tessera.ndarray.memory.Allocations;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * The reductions, rechunks, products, decompositions, transforms and sorts declare the memory of
 * every layer they add, and honestly: for each computation, the peak the scheduler measures (the
 * results it holds and what running tasks have allocated through the ndarray core) is at most the
 * plan's projected peak. Each case prints the ratio measured / projected, and where a layer's
 * tasks allocated more than their footprint says, the layer.
 */
class DeclaredFootprintsOfReductionsTest {
    /** Name prefixes of the layers that the operations under test add (layers of creation, elementwise, slicing... are another's). */
    private static final List<String> OWN_PREFIXES = List.of(
            // tree reductions: <kind>-chunk, <kind>-partial-n, <kind>-aggregate
            "sum-", "prod-", "min-", "max-", "any-", "all-", "mean-", "var-", "std-", "nansum-", "nanprod-", "nanmin-", "nanmax-", "nanmean-",
            "nanvar-", "nanstd-", "argmin-", "argmax-", "nanargmin-", "nanargmax-", "count_nonzero-", "sum-of-products-",
            "cumsum-", "cumprod-", "nancumsum-", "nancumprod-",
            "rechunk-",
            "matmul-", "tensordot-", "einsum-", "outer-", "tsqr-", "lu-", "cholesky-", "inv-", "solve-", "lstsq-", "compressed-svd-",
            "fft-", "ifft-", "rfft-", "irfft-", "conj-", "real-",
            "sort-", "argsort-", "unique-", "quantile-", "percentile-", "median-", "topk-", "argtopk-", "histogram-", "bincount-");

    private static final List<String> RATIOS = Collections.synchronizedList(new ArrayList<>());

    private static final ChunkSpec BLOCKS = ChunkSpec.of(200, 200);

    @TempDir
    static Path scratch;

    private static ChunkedArray random() {
        return Creation.random(7, Distribution.UNIFORM, new long[] {600, 600}, BLOCKS);
    }

    private static ChunkedArray fromArray() {
        NDArray values = Ufuncs.SIN.apply(NDArrays.arange(360_000L).astype(DType.FLOAT64)).reshape(600, 600).copy();
        return ChunkedArrays.fromArray(values, BLOCKS);
    }

    private static boolean own(String layer) {
        return OWN_PREFIXES.stream().anyMatch(layer::startsWith);
    }

    /**
     * Plans and runs {@code arrays} together (as computeAll runs them), asserts that every layer of
     * the operations under test declared its memory and that the measured peak stays within the
     * projected one.
     */
    private static void check(String label, ChunkedArray... arrays) {
        List<ChunkedArray> all = List.of(arrays);
        HighLevelGraph merged = HighLevelGraph.merge(all.stream().map(ChunkedArray::graph).toArray(HighLevelGraph[]::new));
        List<Key> keys = new ArrayList<>();
        all.forEach(array -> keys.addAll(array.flatKeys()));
        HighLevelGraph rewritten = SharedMoments.apply(merged).cull(keys);
        List<String> undeclared = new ArrayList<>();
        for (String layer : rewritten.layers().keySet()) {
            Footprint footprint = rewritten.footprint(layer);
            if (own(layer) && (footprint == null || !footprint.declared())) {
                undeclared.add(layer);
            } else if (own(layer) && !serializable(footprint)) {
                FAILURES.add(label + ": the footprint of " + layer + " does not serialize: " + footprint);
            }
        }
        Plan plan = ChunkedArray.plan(all, Budget.standard());

        Map<Key, Long> allocated = new ConcurrentHashMap<>();
        Map<Long, Long> started = new ConcurrentHashMap<>();
        Callback meter = new Callback() {
            @Override
            public void beforeTask(Key key, int worker) {
                started.put(Thread.currentThread().threadId(), Allocations.ofCurrentThread().bytes());
            }

            @Override
            public void afterTask(Key key, int worker, Throwable failure) {
                allocated.put(key, Allocations.ofCurrentThread().bytes() - started.get(Thread.currentThread().threadId()));
            }
        };
        ThreadedScheduler scheduler = ThreadedScheduler.builder().workers(plan.workers()).callback(meter).build();
        Computation run = scheduler.run(Optimization.optimize(rewritten, keys), keys);
        long measured = run.statistics().measuredPeakBytes();
        long projected = plan.projectedPeakBytes();
        String line = String.format(Locale.ROOT, "%-34s measured %,13d projected %,13d ratio %.2f", label, measured, projected,
                (double) measured / projected);
        RATIOS.add(line);
        System.out.println(line);

        // Which layers' tasks allocated more than their footprints say: each task's own, and those of the tasks folded into it.
        HighLevelGraph layered = Optimization.fuseLayers(rewritten, keys);
        TaskGraph unfused = layered.materialize();
        TaskGraph tasks = Optimization.fuseTasks(unfused, keys);
        Map<String, long[]> byLayer = new TreeMap<>();
        allocated.forEach((key, bytes) -> {
            long declared = folded(key, layered, unfused, tasks, new HashSet<>());
            byLayer.merge(key.name(), new long[] {bytes, declared}, (a, b) -> new long[] {Math.max(a[0], b[0]), Math.max(a[1], b[1])});
        });
        // FOOTPRINTS_VERBOSE=1 prints every plan and every layer's most allocated against its footprint.
        boolean verbose = System.getenv("FOOTPRINTS_VERBOSE") != null;
        if (verbose) {
            System.out.println(plan);
        }
        byLayer.forEach((layer, most) -> {
            if (most[0] > most[1] || verbose) {
                System.out.printf(Locale.ROOT, "    %-60s allocated up to %,11d, footprint up to %,11d%n", layer, most[0], most[1]);
            }
        });
        if (!plan.undeclaredLayers().isEmpty()) {
            System.out.println("    undeclared in the plan (fused with others' layers included): " + plan.undeclaredLayers());
        }
        if (!undeclared.isEmpty()) {
            FAILURES.add(label + ": layers without a declared footprint: " + undeclared);
        }
        if (measured > projected) {
            FAILURES.add(label + ": measured peak " + measured + " above the projected " + projected + "\n" + plan);
        }
    }

    /** Whether {@code footprint} serializes, as a graph's footprints must to travel with it. */
    private static boolean serializable(Footprint footprint) {
        try (ObjectOutputStream output = new ObjectOutputStream(new ByteArrayOutputStream())) {
            output.writeObject(footprint);
            return true;
        } catch (IOException notSerializable) {
            return false;
        }
    }

    /** The footprint of {@code key}'s task with those of the keys that fusion and inlining folded into it. */
    private static long folded(Key key, HighLevelGraph layered, TaskGraph unfused, TaskGraph tasks, Set<Key> seen) {
        Footprint footprint = layered.footprint(key.name());
        long bytes = footprint == null ? 0 : footprint.taskBytes(key);
        if (unfused.contains(key)) {
            for (Key input : unfused.dependencies(key)) {
                if (!tasks.contains(input) && seen.add(input)) {
                    bytes += folded(input, layered, unfused, tasks, seen);
                }
            }
        }
        return bytes;
    }

    /** The failures of the current test's cases: each case runs, and the test fails after the last with all of them. */
    private static final List<String> FAILURES = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void noFailures() {
        List<String> failures = List.copyOf(FAILURES);
        FAILURES.clear();
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    @AfterAll
    static void printRatios() {
        System.out.println("measured / projected peaks:");
        RATIOS.forEach(System.out::println);
    }

    @Test
    void reductionsOverAllAxesAndSomeAxes() {
        ChunkedArray x = random();
        ChunkedArray a = fromArray();
        check("sum", x.sum());
        check("sum axis 0", x.sum(0));
        check("sum axis 1 of fromArray", a.sum(1));
        check("sum of int32", a.astype(DType.INT32).sum());
        check("prod axis 1", x.prod(1));
        check("mean", x.mean());
        check("mean axis 0", x.mean(0));
        check("var", x.var());
        check("var axis 1", x.var(0, 1));
        check("std axis 0", x.std(1, 0));
        check("min", x.min());
        check("max axis 1", x.max(1));
        check("argmin", x.argmin());
        check("argmin axis 0", x.argmin(0));
        check("argmax axis 1", x.argmax(1));
        check("any", x.greater(0.5).any());
        check("all axis 0", x.greater(0.5).all(0));
        check("nansum", a.nansum());
        check("nanmean axis 1", a.nanmean(1));
        check("nanvar", a.nanvar());
        check("nanstd axis 0", a.nanstd(0, 0));
        check("nanmax", a.nanmax());
        check("nanmin axis 1", a.nanmin(1));
        check("(x + 1).sum() fused", x.add(1).sum());
        check("mean and std together", x.mean(0), x.std(0, 0));
        check("mean and var together, all axes", a.mean(), a.var());
        check("var of float32", a.astype(DType.FLOAT32).var(0, 0));
        // Two readers of a transpose: its blocks (views, not C-ordered) are held, and each reduction copies them.
        ChunkedArray transposed = x.add(1).T();
        check("sum, max and var of a transpose", transposed.sum(1), transposed.max(1), transposed.var(0, 1));
    }

    /** Blocks of a strip and more: chunk steps run in scratch memory, a fused chain pulled through in strips. */
    @Test
    void reductionsOfLargeBlocks() {
        ChunkedArray x = Creation.random(5, Distribution.UNIFORM, new long[] {2000, 2000}, ChunkSpec.of(1000, 1000));
        check("large blocks: sum", x.sum());
        check("large blocks: (x + 1).sum(0)", x.add(1).sum(0));
        check("large blocks: (x * 2).var(1)", x.multiply(2).var(0, 1));
        check("large blocks: mean and std together", x.mean(0), x.std(0, 0));
        check("large blocks: argmax axis 0", x.argmax(0));
        check("large blocks: cumsum axis 0", x.cumsum(0));
    }

    @Test
    void cumulativeScans() {
        ChunkedArray x = random();
        ChunkedArray a = fromArray();
        check("cumsum axis 0", x.cumsum(0));
        check("cumsum axis 1 of fromArray", a.cumsum(1));
        check("cumprod axis 0", a.cumprod(0));
        // Flattened, the scan's blocks hold as many elements as the input has blocks: 400 of 9 here.
        check("cumsum flattened", Creation.random(9, Distribution.UNIFORM, new long[] {60, 60}, ChunkSpec.of(20, 20)).cumsum());
        check("cumsum axis 0 blelloch", x.cumsum(0, CumulativeScan.Method.BLELLOCH));
        check("nancumsum axis 1", org.tessera.array.reduction.ChunkedStatistics.nancumsum(a, 1, null));
        ChunkedArray transposed = x.add(1).T();
        check("cumsum and cumprod of a transpose", transposed.cumsum(1), transposed.cumprod(0));
    }

    @Test
    void rechunks() {
        ChunkedArray x = random();
        ChunkedArray a = fromArray();
        check("rechunk to larger blocks", x.rechunk(ChunkSpec.of(300, 300)));
        check("rechunk across every block", x.rechunk(ChunkSpec.of(150, 150)));
        check("rechunk across every block (array)", a.rechunk(ChunkSpec.of(250, 250)));
        check("rechunk to smaller blocks", a.rechunk(ChunkSpec.of(100, 100)));
        check("rechunk to rows", a.rechunk(ChunkSpec.of(50, 600)));
        check("rechunk to columns", x.rechunk(ChunkSpec.of(600, 50)));
        check("rechunk to columns, split and merged", a.rechunk(org.tessera.array.chunks.Chunks.regular(new long[] {600, 600}, new long[] {600, 50}), 400_000));
    }

    @Test
    void products() {
        ChunkedArray x = random();
        ChunkedArray a = fromArray();
        check("matmul", x.matmul(a));
        check("A.T @ A", a.T().matmul(a));
        check("tensordot", ChunkedProducts.tensordot(x, a, 1));
        check("tensordot over axis 0", ChunkedProducts.tensordot(x, a, new int[] {0}, new int[] {0}));
        check("einsum ij,jk->ik", ChunkedProducts.einsum("ij,jk->ik", x, a));
        check("einsum ij,ij->i", ChunkedProducts.einsum("ij,ij->i", x, a));
        check("outer", ChunkedProducts.outer(x.get(org.tessera.ndarray.index.Index.at(0)), a.get(org.tessera.ndarray.index.Index.at(1))));
    }

    @Test
    void decompositions() {
        ChunkedArray tall = Creation.random(3, Distribution.UNIFORM, new long[] {2000, 40}, ChunkSpec.of(500, 40));
        ChunkedQr qr = TallSkinny.qr(tall);
        check("tsqr q and r", qr.q(), qr.r());
        ChunkedSvd svd = TallSkinny.svd(tall);
        check("tsqr svd", svd.u(), svd.singularValues(), svd.vt());
        ChunkedArray rhs = Creation.random(4, Distribution.UNIFORM, new long[] {2000}, ChunkSpec.of(500));
        ChunkedLeastSquares lstsq = LeastSquares.lstsq(tall, rhs);
        check("lstsq", lstsq.solution(), lstsq.residuals(), lstsq.rank(), lstsq.singularValues());
        ChunkedArray square = Creation.random(5, Distribution.UNIFORM, new long[] {300, 300}, ChunkSpec.of(100, 100));
        ChunkedArray spd = square.matmul(square.T()).add(Creation.eye(300, 300, 0, DType.FLOAT64, ChunkSpec.of(100, 100)).multiply(300));
        check("cholesky", SquareLinearAlgebra.cholesky(spd));
        check("inv", SquareLinearAlgebra.inv(spd));
        ChunkedLu lu = SquareLinearAlgebra.lu(square);
        check("lu", lu.permutation(), lu.lower(), lu.upper());
        check("solve", SquareLinearAlgebra.solve(spd, Creation.random(6, Distribution.UNIFORM, new long[] {300}, ChunkSpec.of(100))));
        ChunkedSvd compressed = RandomizedSvd.compressedSvd(random(), 5, 1, 11);
        check("compressed svd", compressed.u(), compressed.singularValues(), compressed.vt());
    }

    @Test
    void transforms() {
        ChunkedArray x = random();
        ChunkedArray a = fromArray();
        check("fft along a chunked axis", ChunkedFft.fft(x, null, 0, FftNorm.BACKWARD));
        check("fft along the last axis", ChunkedFft.fft(a));
        check("fft of a whole axis", ChunkedFft.fft(a.rechunk(ChunkSpec.of(600, 200)), null, 0, FftNorm.ORTHO));
        check("rfft along a chunked axis", ChunkedFft.rfft(x, null, 0, FftNorm.BACKWARD));
        check("irfft along a chunked axis", ChunkedFft.irfft(ChunkedFft.rfft(a, null, 0, FftNorm.BACKWARD), 600L, 0, FftNorm.BACKWARD));
        check("fft2", ChunkedFft.fft2(a));
        ChunkedArray prime = Creation.random(8, Distribution.UNIFORM, new long[] {601, 100}, ChunkSpec.of(200, 100));
        check("fft of a prime length", ChunkedFft.fft(prime, null, 0, FftNorm.BACKWARD));
        check("fft by Bluestein", ChunkedFft.fft(prime, null, 0, FftNorm.BACKWARD, 200_000));
    }

    @Test
    void sorts() {
        ChunkedArray x = random();
        ChunkedArray a = fromArray();
        check("sort axis 0", x.sort(0));
        check("argsort axis 1", a.argsort(1));
        check("sort flattened", ChunkedSort.sort(a, null));
        check("sort axis 0 out of core", ChunkedSort.sort(x, 0, org.tessera.ndarray.sort.SortKind.STABLE, ChunkedSort.Options.outOfCore(scratch)));
        check("argsort axis 0 out of core", ChunkedSort.argsort(a, 0, org.tessera.ndarray.sort.SortKind.STABLE, ChunkedSort.Options.outOfCore(scratch)));
        check("unique", ChunkedSort.unique(a.multiply(100).astype(DType.INT64)));
        check("topk", TopK.topk(x, 5, 1, 4));
        check("argtopk axis 0", TopK.argtopk(a, -7, 0, 2));
        check("quantile", ChunkedSort.quantile(a, new double[] {0.1, 0.5, 0.9}, 0, "linear"));
        check("percentile flattened", ChunkedSort.percentile(x, new double[] {25, 75}, null, "linear"));
        check("median axis 1", x.median(1));
        check("quantile out of core", ChunkedSort.quantile(x, 0.3, 0, "linear", true, ChunkedSort.Options.outOfCore(scratch)));
        check("histogram", Counting.histogram(x, 10, 0, 1).counts());
        check("bincount", Counting.bincount(a.multiply(5).add(5).astype(DType.INT64).ravel(), 11));
        check("approximate percentiles", Percentiles.percentile(a.ravel(), 10, 50, 90));
    }
}
