package org.tessera.array.property;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.statistics.Statistics;

import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.graph.schedule.ThreadedScheduler;

/**
 * Chunked equals dense, for any chunking (issue 21): random chains of operations applied to an
 * NDArray and to a ChunkedArray made of the same values in a random chunking (irregular, with empty
 * blocks, and unknown lengths after a chunked boolean mask) give the same dtype and shape before
 * computing and the same values after, bit for bit unless the chain adds floats in another order
 * (the tolerance is {@link Comparison}'s).
 *
 * <p>The steps ({@link Step.Kind}): unary and binary ufuncs with scalars and with broadcast arrays of
 * other dtypes and chunkings; reductions over any axes with keepdims and split_every;
 * arg-reductions; basic, fancy (NDArray or chunked positions, 2-D ones) and boolean (NDArray or chunked mask)
 * indexing; assignment through a basic index (scalar, NDArray or chunked value) and a mask; rechunk
 * (explicit, regular, under a small task memory limit); reshape; transpose; concatenate and stack;
 * matmul; cumulative sums and products (both scan methods); map_overlap with every boundary; casts;
 * compute_chunk_sizes. A step the dense array rejects must be rejected by the chunked array too;
 * a chunked step that needs lengths a mask left unknown gets computeChunkSizes first, as a Dask user
 * would. What the chains leave out, and why, is said where it is left out: comparisons, casts to
 * integers and arg-reductions after a reordered float sum ({@link Comparison}), float sums and
 * products that may overflow, signbit and copysign where they would read the unspecified sign of a NaN ({@link Steps}).
 *
 * <p>The seed is jqwik's, random per run and printed with any failure (rerun one with
 * {@code @Property(seed = "...")}); a failing seed is tried first on the next run from the database
 * in {@code target/jqwik-database}. Tries are fixed (1,000 synchronous and 300 threaded chains of 1 to
 * 8 steps: about 10 to 20 s on a busy 2-core machine), and shrinking is jqwik's bounded one (at most
 * 10 s). Every failure found became a JUnit test in {@link ChunkedPropertyRegressionTest}.
 */
class ChunkedPropertyTest {
    private static final SynchronousScheduler SYNCHRONOUS = new SynchronousScheduler();
    private static final ThreadedScheduler THREADED = ThreadedScheduler.builder().workers(2).build();

    @Provide
    Arbitrary<Chain> chains() {
        return Chains.chains(8);
    }

    @Property(tries = 1000, shrinking = ShrinkingMode.BOUNDED, edgeCases = EdgeCasesMode.NONE)
    void chunkedEqualsDenseOnTheSynchronousScheduler(@ForAll("chains") Chain chain) {
        for (String outcome : chain.run(SYNCHRONOUS)) {
            boolean comparison = outcome.equals(Chain.COMPARED_BIT_FOR_BIT) || outcome.equals(Chain.COMPARED_WITHIN_TOLERANCE);
            Statistics.label(comparison ? "comparison" : "steps").collect(outcome);
        }
    }

    @Property(tries = 300, shrinking = ShrinkingMode.BOUNDED, edgeCases = EdgeCasesMode.NONE)
    void chunkedEqualsDenseOnTheThreadedScheduler(@ForAll("chains") Chain chain) {
        chain.run(THREADED);
    }
}
