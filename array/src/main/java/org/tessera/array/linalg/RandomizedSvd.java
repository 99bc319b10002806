package org.tessera.array.linalg;

import org.tessera.array.ChunkedArray;
import org.tessera.array.blockwise.MapBlocks;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.creation.Creation.Distribution;
import org.tessera.array.plan.Working;

/**
 * Dask's {@code svd_compressed}: the k leading singular triplets of any 2-D chunked matrix by a
 * randomized range finder (Halko, Martinsson and Tropp). A seeded Gaussian test matrix
 * {@code Omega (n x (k + oversamples))} gives {@code Y = A Omega}, whose orthonormal basis Q (by
 * TSQR) captures A's leading column space; power iterations {@code Y = A (A^T Q)} sharpen it when
 * the spectrum decays slowly, each re-orthonormalised so that the small directions survive
 * rounding. The small {@code B = Q^T A} is then decomposed by TSQR of its transpose. The answer
 * is approximate unless A's rank is at most {@code k + oversamples}; it is the same for the same
 * seed whatever the scheduler.
 */
public final class RandomizedSvd {
    /** Dask's default number of extra samples beyond k. */
    public static final int DEFAULT_OVERSAMPLES = 10;

    private RandomizedSvd() {
    }

    /** {@link #compressedSvd(ChunkedArray, int, int, int, long)} with Dask's 10 extra samples. */
    public static ChunkedSvd compressedSvd(ChunkedArray a, int k, int powerIterations, long seed) {
        return compressedSvd(a, k, powerIterations, DEFAULT_OVERSAMPLES, seed);
    }

    /**
     * U ({@code m x k}, chunked along rows as {@code a}), the k largest singular values and V^T
     * ({@code k x n}, chunked along columns as {@code a}).
     */
    public static ChunkedSvd compressedSvd(ChunkedArray a, int k, int powerIterations, int oversamples, long seed) {
        if (a.ndim() != 2) {
            throw new IllegalArgumentException("compressedSvd: needs a 2-D array, got shape " + TaskLayers.shape(a));
        }
        long[] shape = a.chunks().requireKnownShape("compressedSvd");
        long smaller = Math.min(shape[0], shape[1]);
        if (k < 1 || k > smaller) {
            throw new IllegalArgumentException("compressedSvd: k = " + k + " must lie in [1, " + smaller + "] for an array of shape " + TaskLayers.shape(a));
        }
        if (powerIterations < 0 || oversamples < 0) {
            throw new IllegalArgumentException("compressedSvd: powerIterations (" + powerIterations + ") and oversamples (" + oversamples + ") must not be negative");
        }
        long samples = Math.min(k + (long) oversamples, smaller);
        ChunkedArray input = a.astype(TaskLayers.resultType(a.dtype()));
        ChunkedArray omega = Creation.random(seed, Distribution.NORMAL, new long[] {shape[1], samples},
                ChunkSpec.explicit(a.chunks().axis(1), new long[] {samples})).astype(input.dtype());
        ChunkedArray range = TallSkinny.qr(input.matmul(omega)).q();
        for (int iteration = 0; iteration < powerIterations; iteration++) {
            ChunkedArray back = TallSkinny.qr(input.T().matmul(range)).q();
            range = TallSkinny.qr(input.matmul(back)).q();
        }
        // B^T = A^T Q is n x samples: tall-and-skinny, chunked along rows as A's columns.
        ChunkedArray compressedTransposed = input.T().matmul(range);
        ChunkedSvd small = TallSkinny.svd(compressedTransposed);
        // B^T = V_B S U_B^T, so A ~ Q B = (Q U_B) S V_B^T.
        ChunkedArray u = range.matmul(small.vt().T());
        ChunkedArray vt = small.u().T();
        long[] uRows = u.chunks().axis(0);
        int leading = k;
        ChunkedArray uLeading = MapBlocks.of(blocks -> blocks[0].slice(1, 0, 1, leading).copy(), u)
                .label("compressed-svd-u").working(Working.none()).chunks(uRows, new long[] {k}).dtype(u.dtype()).token(k).build();
        ChunkedArray vtLeading = MapBlocks.of(blocks -> blocks[0].slice(0, 0, 1, leading).copy(), vt)
                .label("compressed-svd-vt").working(Working.none()).chunks(new long[] {k}, vt.chunks().axis(1)).dtype(vt.dtype()).token(k).build();
        ChunkedArray sLeading = MapBlocks.of(blocks -> blocks[0].slice(0, 0, 1, leading).copy(), small.singularValues())
                .label("compressed-svd-s").working(Working.none()).chunks(new long[] {k}).dtype(small.singularValues().dtype()).token(k).build();
        return new ChunkedSvd(uLeading, sLeading, vtLeading);
    }
}
