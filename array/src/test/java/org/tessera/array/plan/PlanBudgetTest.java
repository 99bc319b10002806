package org.tessera.array.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.slicing.ChunkedIndex;
import org.tessera.array.slicing.Slicing;
import org.tessera.graph.schedule.MeasuredPeak;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;

/** A budget refuses a plan that cannot fit before anything runs, and runs one that can within it. */
class PlanBudgetTest {
    private static final long MIB = 1 << 20;

    /** A source of uniform values that counts its reads, so a test can tell that nothing ran. */
    private record CountingSource(RegionSource values, AtomicInteger reads) implements RegionSource {
        static CountingSource of(long rows, long columns) {
            return new CountingSource(RegionSource.of(NDArrays.arange(rows * columns).astype(DType.FLOAT64).reshape(rows, columns)), new AtomicInteger());
        }

        @Override
        public long[] shape() {
            return values.shape();
        }

        @Override
        public DType dtype() {
            return values.dtype();
        }

        @Override
        public NDArray read(long[] start, long[] shape) {
            reads.incrementAndGet();
            return values.read(start, shape);
        }

        @Override
        public Object identity() {
            return this;
        }
    }

    @Test
    void aTaskLargerThanTheBudgetIsRefusedBeforeAnyBlockIsRead() {
        CountingSource source = CountingSource.of(2000, 1000);
        ChunkedArray x = Creation.fromSource(source, ChunkSpec.of(1000, 1000));
        MemoryPlanException refused = assertThrows(MemoryPlanException.class, () -> x.add(1).sum().compute(Budget.of("4MB")));
        assertEquals(0, source.reads().get());
        String message = refused.getMessage();
        assertTrue(message.contains("4.0 MiB") && message.contains("sum-chunk") && message.contains("smaller"), message);
        assertTrue(refused.plan().largestTaskBytes() > 4 * MIB);
    }

    @Test
    void fewerTasksRunAtOnceWhenTwoDoNotFit() {
        ChunkedArray x = Creation.fromSource(CountingSource.of(4000, 1000), ChunkSpec.of(1000, 1000));
        ChunkedArray y = x.multiply(2).sum(0);
        long task = y.plan().largestTaskBytes();
        Budget budget = Budget.ofBytes(task + task / 2);
        ThreadedScheduler scheduler = ChunkedArray.budgetedScheduler(List.of(y), budget);
        assertEquals(1, scheduler.workers());
        MeasuredPeak peak = new MeasuredPeak();
        NDArray sums = ChunkedArray.computeAll(ChunkedArray.budgetedScheduler(List.of(y), budget, List.of(peak)), List.of(y)).getFirst();
        assertEquals(y.compute(new ThreadedScheduler()).toString(), sums.toString());
        assertTrue(peak.bytes() > 0 && peak.bytes() <= budget.bytes(), "measured " + peak.bytes() + " within " + budget.bytes());
    }

    @Test
    void resultsBeyondTheBudgetWaitOnDiskAndTheRunStaysWithinIt() {
        // x - x.mean(0) over a tall array: the mean needs every block, and every block is read again after it.
        ChunkedArray x = Creation.fromSource(CountingSource.of(16000, 200), ChunkSpec.of(1000, 200));
        ChunkedArray centred = x.subtract(x.mean(0)).sum(1);
        Plan unbounded = centred.plan(Budget.ofBytes(1L << 40));
        Budget budget = Budget.ofBytes(Math.max(unbounded.largestTaskBytes() * 3, unbounded.projectedPeakBytes() / 4));
        Plan plan = centred.plan(budget);
        assertTrue(plan.fits() && !plan.fitsInMemory(), plan.toString());
        MeasuredPeak peak = new MeasuredPeak();
        NDArray computed = ChunkedArray.computeAll(ChunkedArray.budgetedScheduler(List.of(centred), budget, List.of(peak)), List.of(centred)).getFirst();
        assertEquals(centred.compute().toString(), computed.toString());
        assertTrue(peak.bytes() <= budget.bytes(), "measured " + peak.bytes() + " within " + budget.bytes() + System.lineSeparator() + plan);
    }

    @Test
    void aRechunkIsBuiltAgainWithSmallerTasksWhereItsPlanDoesNotFit() {
        ChunkedArray x = Creation.fromSource(CountingSource.of(4000, 2000), ChunkSpec.of(4000, 50));
        ChunkedArray rows = x.rechunk(ChunkSpec.of(50, 2000)).sum(1);
        Budget budget = Budget.of("16MB");
        Plan asBuilt = rows.plan(budget);
        assertTrue(!asBuilt.fits(), asBuilt.toString());
        List<ChunkedArray> fitted = ChunkedArray.withinBudget(List.of(rows), budget);
        Plan replanned = ChunkedArray.plan(fitted, budget);
        assertTrue(replanned.fits() && replanned.tasks() > asBuilt.tasks(), asBuilt + System.lineSeparator() + replanned);
        MeasuredPeak peak = new MeasuredPeak();
        NDArray sums = ChunkedArray.computeAll(ChunkedArray.budgetedScheduler(fitted, budget, List.of(peak)), fitted).getFirst();
        assertEquals(rows.compute(new ThreadedScheduler()).toString(), sums.toString());
        assertEquals(sums.toString(), rows.compute(budget).toString());
        assertTrue(peak.bytes() <= budget.bytes(), "measured " + peak.bytes() + " within " + budget);
    }

    @Test
    void aContractionIsSummedInSmallerGroupsWhereItsPlanDoesNotFit() {
        ChunkedArray a = Creation.randomIntegers(5, -50, 50, new long[] {400, 12_800}, ChunkSpec.of(400, 400));
        ChunkedArray b = Creation.randomIntegers(6, -50, 50, new long[] {12_800, 400}, ChunkSpec.of(400, 400));
        // 32 partial products of 1.3 MB (integers: a task per product), all added by one task.
        ChunkedArray product = org.tessera.array.linalg.ChunkedProducts.matmul(a, b, 32);
        Budget budget = Budget.of("24MB");
        Plan asBuilt = product.plan(budget);
        assertTrue(!asBuilt.fits(), asBuilt.toString());
        List<ChunkedArray> fitted = ChunkedArray.withinBudget(List.of(product), budget);
        Plan replanned = ChunkedArray.plan(fitted, budget);
        assertTrue(replanned.fits() && replanned.tasks() > asBuilt.tasks(), asBuilt + System.lineSeparator() + replanned);
        MeasuredPeak peak = new MeasuredPeak();
        NDArray values = ChunkedArray.computeAll(ChunkedArray.budgetedScheduler(fitted, budget, List.of(peak)), fitted).getFirst();
        NDArray expected = product.compute(new ThreadedScheduler());
        assertEquals(expected.getLong(3, 5), values.getLong(3, 5));
        assertTrue(peak.bytes() <= budget.bytes(), "measured " + peak.bytes() + " within " + budget);
    }

    @Test
    void blocksPulledInStripsAreProjectedAtTheirStrips() {
        // (x + x.T).mean(0) over generated blocks of 32 MB: the mean's chunk step pulls the sum in strips, and no block is made whole.
        ChunkedArray x = Creation.random(8, Creation.Distribution.UNIFORM, new long[] {4000, 4000}, ChunkSpec.of(2000, 2000));
        ChunkedArray means = x.add(x.T()).mean(0);
        Plan plan = means.plan(Budget.of("1GB"));
        long block = 2000L * 2000 * 8;
        assertTrue(plan.largestTaskBytes() < block, plan.toString());
        MeasuredPeak peak = new MeasuredPeak();
        ChunkedArray.computeAll(ChunkedArray.budgetedScheduler(List.of(means), Budget.of("1GB"), List.of(peak)), List.of(means));
        assertTrue(peak.bytes() > 0 && peak.bytes() <= plan.projectedPeakBytes(), "measured " + peak.bytes() + System.lineSeparator() + plan);
    }

    @Test
    void unknownChunksAreProjectedAtTheirBoundAndComputingThemTightensThePlan() {
        NDArray values = NDArrays.arange(100_000).astype(DType.FLOAT64);
        ChunkedArray x = Creation.fromSource(RegionSource.of(values), ChunkSpec.of(10_000));
        ChunkedArray masked = Slicing.get(x, List.of(ChunkedIndex.mask(x.less(5_000L))));
        Plan bounded = masked.plan();
        assertTrue(bounded.undeclaredLayers().isEmpty(), bounded.toString());
        ChunkedArray known = masked.computeChunkSizes();
        Plan tight = known.plan();
        assertTrue(tight.projectedPeakBytes() < bounded.projectedPeakBytes(), bounded + System.lineSeparator() + tight);
        assertTrue(bounded.largestTaskBytes() >= 10_000 * 8, bounded.toString());
    }

    @Test
    void budgetsAreReadAsPeopleWriteThem() {
        assertEquals(2L << 30, Budget.of("2GB").bytes());
        assertEquals(512L << 20, Budget.of("512 MiB").bytes());
        assertEquals(3L << 29, Budget.of("1.5g").bytes());
        assertEquals(4096, Budget.of("4096").bytes());
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Budget.of("lots"));
        assertTrue(refused.getMessage().contains("'lots'"));
        long heapShare = (long) (Runtime.getRuntime().maxMemory() * Budget.HEAP_FRACTION);
        assertEquals(heapShare, Budget.standard().bytes());
        System.setProperty(Budget.NATIVE_PROPERTY, "1GB");
        try {
            assertEquals(heapShare + (1L << 30), Budget.standard().bytes());
        } finally {
            System.clearProperty(Budget.NATIVE_PROPERTY);
        }
    }

    @Test
    void thePlanPrintsAsATableAndAsHtml() {
        ChunkedArray x = Creation.random(3, Creation.Distribution.UNIFORM, new long[] {2000, 2000}, ChunkSpec.of(500, 500));
        Plan plan = x.add(x.T()).mean(0).plan(Budget.of("64MB"));
        String table = plan.toString();
        assertTrue(table.contains("largest task") && table.contains("projected peak") && table.contains("64.0 MiB: fits"), table);
        assertTrue(plan.toHtml().contains("<table") && plan.toHtml().contains("<svg"), plan.toHtml());
        assertEquals(plan.tasks(), plan.layers().stream().mapToInt(row -> row.tasks()).sum());
    }
}
