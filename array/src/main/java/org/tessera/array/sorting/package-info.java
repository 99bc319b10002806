/**
 * Sorting-like operations on chunked arrays, as Dask offers them: {@code topk} and
 * {@code argtopk}, {@code unique}, {@code histogram}, {@code bincount} and an approximate
 * {@code percentile}; and what Dask does not offer, sorting across chunks
 * ({@link org.tessera.array.sorting.ChunkedSort}: {@code sort}, {@code argsort}, a lazy
 * {@code unique}, and exact {@code quantile}, {@code percentile} and {@code median} along an axis,
 * by a sample sort whose runs go to scratch files when they outgrow memory).
 *
 * <p>Design notes. Each is a per-block step followed by a tree that combines a few partials per
 * task ({@link org.tessera.array.sorting.PartialTree}), so no task holds more than
 * {@code splitEvery} partials: the k best of a block for topk, its distinct values for unique,
 * its counts for histogram and bincount. Percentiles are the exception to exactness: a block's
 * percentiles cannot be merged exactly, so, as Dask does, every block reports its percentiles on a
 * fine grid with its element count and the merge treats them as weighted samples; the answer is
 * exact for one block and approximate otherwise.
 */
package org.tessera.array.sorting;
