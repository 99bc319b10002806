package org.tessera.array.property;

import org.tessera.array.ChunkedArray;
import org.tessera.ndarray.NDArray;

/**
 * The two arrays a chain carries, and what the comparison must allow: {@code tolerant} once a step
 * has added floating-point values in another order than the dense array does (block by block,
 * then the blocks' partial results), and {@code scale}, the largest finite magnitude any dense
 * array of the chain has held, against which that difference is measured.
 */
record State(NDArray dense, ChunkedArray chunked, boolean tolerant, double scale) {

    static State start(NDArray dense, ChunkedArray chunked) {
        return new State(dense, chunked, false, Comparison.largestMagnitude(dense));
    }

    /** The next state: the new arrays, tolerant from now on when {@code reorders}. */
    State then(NDArray nextDense, ChunkedArray nextChunked, boolean reorders) {
        return new State(nextDense, nextChunked, tolerant || reorders, Math.max(scale, Comparison.largestMagnitude(nextDense)));
    }
}
