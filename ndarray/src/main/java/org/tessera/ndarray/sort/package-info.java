/**
 * Ordering with NumPy's rules: {@code sort}, {@code argsort}, {@code partition},
 * {@code argpartition}, {@code unique}, {@code searchsorted}, {@code nonzero}, {@code flatnonzero},
 * and the order statistics {@code quantile}, {@code percentile} and {@code median}
 * ({@link org.tessera.ndarray.sort.Quantiles}, every method of NumPy 2).
 *
 * <p>The order is NumPy's total order for each loop type ({@link org.tessera.ndarray.sort.Keys}):
 * signed and unsigned integers by value (uint64 compares unsigned), floats with NaN after +inf and
 * -0.0 equal to 0.0, complex numbers lexicographically by real then imaginary part with the NaN
 * placements of NumPy ({@code R+Rj < R+nanj < nan+Rj < nan+nanj}). Every dtype is carried in one of
 * three carriers (long, double, two doubles); results are built by copying element bytes, so
 * sorting never changes a value's bits (NaN payloads and signed zeros survive).
 *
 * <p>Policy: every sort kind is served by one stable merge sort of indices. Stable is a valid
 * result for NumPy's quicksort and heapsort (they promise nothing about ties), and it makes
 * results reproducible. Partitions use a three-way quickselect per kth (expected O(n)).
 *
 * <p>Example: sorting float64 {@code [nan, -0.0, 1, 0.0, -inf]} gives {@code [-inf, -0.0, 0.0, 1, nan]}
 * (the zeros in their input order).
 */
package org.tessera.ndarray.sort;
