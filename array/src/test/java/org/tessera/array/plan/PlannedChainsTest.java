package org.tessera.array.plan;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;

import org.tessera.array.ChunkedArray;
import org.tessera.array.property.Chain;
import org.tessera.array.property.Chains;
import org.tessera.array.property.Step;
import org.tessera.array.property.Step.Kind;
import org.tessera.graph.Key;
import org.tessera.graph.schedule.Computation;
import org.tessera.graph.schedule.MeasuredPeak;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.dtype.DType;

/**
 * The projection holds on random graphs: for chains of random operations over random chunkings
 * (the property chains of the array module), every operation declared its working memory, and the
 * peak the threaded scheduler measures is at most the one the plan projected. The ratio of the two
 * is reported in the statistics, in tenths.
 */
class PlannedChainsTest {
    private static final ThreadedScheduler THREADED = ThreadedScheduler.builder().workers(2).build();
    private static double lowest = Double.MAX_VALUE;
    private static double highest;

    @Provide
    Arbitrary<Chain> chains() {
        return Chains.chains(8);
    }

    @Property(tries = 300, shrinking = ShrinkingMode.BOUNDED, edgeCases = EdgeCasesMode.NONE)
    void theMeasuredPeakIsWithinTheProjectedOne(@ForAll("chains") Chain chain) {
        assertWithinProjection(chain);
    }

    /** Caught: 118 tiny tasks (empty blocks) held one result more than the paper run, when a worker ran a batch ahead. */
    @Example
    void aWorkerABatchAheadOfThePaperRun() {
        assertWithinProjection(new Chain(new long[] {0, 7, 9}, DType.BOOL, 0L, -2L, List.of(new Step(Kind.RECHUNK, 0, 0, 2, 2L))));
    }

    /** Caught: an empty selection of a deferred chain still asked each operation for a box of twelve elements. */
    @Example
    void anEmptySelectionOfADeferredChain() {
        Step negative = new Step(Kind.UNARY, 0, 0, 0, 0L);
        assertWithinProjection(new Chain(new long[] {2, 3, 4}, DType.COMPLEX128, 0L, -7L,
                List.of(negative, negative, negative, negative, new Step(Kind.BASIC_INDEX, 0, 0, 0, 14748L))));
    }

    /** Caught: 210 tiny reshapes finished in another order than both even runs on paper, and held 1 KB more. */
    @Example
    void tinyTasksFinishingInAnotherOrder() {
        assertWithinProjection(new Chain(new long[] {5, 21}, DType.BOOL, 1L, 2L, List.of(new Step(Kind.RECHUNK, 1, 0, 1, 3L),
                new Step(Kind.STACK, 5, 9, 21, -28370L), new Step(Kind.BINARY_SCALAR, 22, 5, 5, 21L), new Step(Kind.TRANSPOSE, 686, 745, 254, -254L),
                new Step(Kind.RESHAPE, 563, 807, 33, 56536L))));
    }

    /**
     * Caught: a thousand empty blocks, whose results are headers alone, held 16 more than the most
     * held on paper; and in about one run in a hundred, 144 more (MemoryProjection's AHEAD_HEADERS).
     */
    @Example
    void aThousandEmptyBlocks() {
        assertWithinProjection(new Chain(new long[] {4, 16, 1, 0}, DType.COMPLEX64, 1531L, -151957L, List.of(new Step(Kind.CONCATENATE, 98, 85, 11, -2935506L),
                new Step(Kind.STACK, 6, 481, 106, 3516L), new Step(Kind.CUMULATIVE, 142, 81, 30, 636147L), new Step(Kind.MAP_OVERLAP, 355, 107, 64, -34L),
                new Step(Kind.REDUCE, 249, 282, 3, -3528L), new Step(Kind.RESHAPE, 329, 32, 103, 10L), new Step(Kind.TRANSPOSE, 9, 32, 86, -10897947L))));
    }

    private static void assertWithinProjection(Chain chain) {
        ChunkedArray array = chain.build(new SynchronousScheduler());
        Plan plan = array.plan(Budget.ofBytes(1L << 30));
        assertTrue(plan.undeclaredLayers().isEmpty(), () -> "layers without a declared working memory: " + plan.undeclaredLayers() + " in " + chain);
        List<Key> keys = array.flatKeys();
        Computation run = THREADED.run(array.optimizedGraph(), keys);
        long measured = run.statistics().measuredPeakBytes();
        assertTrue(measured <= plan.projectedPeakBytes(), () -> "measured " + measured + " bytes, projected " + plan.projectedPeakBytes() + " for " + chain
                + System.lineSeparator() + plan);
        if (!array.chunks().isKnown()) {
            return;   // compute() asks for the chunk sizes first (UnknownChunksException)
        }
        // compute() streams the blocks into a result allocated first, which the measured peak counts too.
        MeasuredPeak computed = new MeasuredPeak();
        array.compute(ThreadedScheduler.builder().workers(2).callback(computed).build());
        assertTrue(computed.bytes() <= plan.projectedPeakBytes(), () -> "compute() measured " + computed.bytes() + " bytes, projected "
                + plan.projectedPeakBytes() + " for " + chain + System.lineSeparator() + plan);
        double ratio = (double) measured / Math.max(1, plan.projectedPeakBytes());
        synchronized (PlannedChainsTest.class) {
            lowest = Math.min(lowest, ratio);
            highest = Math.max(highest, ratio);
        }
        Statistics.label("measured/projected").collect(Math.round(ratio * 10) / 10.0);
    }

    @AfterContainer
    static void report() {
        System.out.printf("measured/projected peak over the chains: %.2f to %.2f%n", lowest, highest);
    }
}
