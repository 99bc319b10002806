package org.tessera.array.property;

import org.tessera.array.ChunkedArray;
import org.tessera.ndarray.NDArray;

/**
 * The two arrays a chain carries, and what the comparison must allow: {@code tolerant} once a step
 * has added floating-point values in another order than the dense array does (block by block,
 * then the blocks' partial results), and {@code scale}, the largest finite magnitude any dense
 * array of the chain has held, against which that difference is measured; {@code anyNonFinite}
 * once a reordered complex product made infinities or NaN, whose pattern then depends on the order;
 * {@code rtol}, the loosest relative tolerance of the dtypes the chain held since it became tolerant.
 */
record State(NDArray dense, ChunkedArray chunked, boolean tolerant, double scale, boolean anyNonFinite, double rtol) {

    static State start(NDArray dense, ChunkedArray chunked) {
        return new State(dense, chunked, false, Comparison.largestMagnitude(dense), false, 0);
    }

    /**
     * The next state: the new arrays, tolerant from now on when the step added
     * {@code reorderedTerms} (more than none) floating-point values per element in another order
     * than the dense array does; and where a reordered complex result holds an infinite or NaN
     * part, any non-finite value stands for any other from now on (complex multiplication with
     * infinities is not associative).
     */
    State then(NDArray nextDense, ChunkedArray nextChunked, long reorderedTerms) {
        boolean reorders = reorderedTerms > 0;
        boolean loose = anyNonFinite || reorders && nextDense.dtype().isComplex() && Comparison.hasNonFinite(nextDense);
        boolean nextTolerant = tolerant || reorders;
        // A difference made in float32 stays a float32 difference after a cast to float64.
        double nextRtol = nextTolerant ? Math.max(rtol, Comparison.rtol(nextDense.dtype(), reorderedTerms)) : 0;
        return new State(nextDense, nextChunked, nextTolerant, Math.max(scale, Comparison.largestMagnitude(nextDense)), loose, nextRtol);
    }
}
