/**
 * NumPy's {@code numpy.fft}: discrete Fourier transforms of NDArrays ({@link org.tessera.ndarray.fft.Fft})
 * and the one-dimensional plans behind them, which other code can call on plain {@code double[]}
 * lines ({@link org.tessera.ndarray.fft.FftPlan} for complex data, interleaved;
 * {@link org.tessera.ndarray.fft.RealFftPlan} for real data).
 *
 * <p>The algorithms are written here (no native library): a mixed-radix Cooley-Tukey transform in
 * self-sorting order with radix 4, 2, 3 and 5 butterflies and a generic pass for other primes;
 * Bluestein's chirp-z algorithm for lengths with a large prime factor; real transforms of even
 * length as a complex transform of half the length. Twiddle factors are computed directly from an
 * argument reduced to the first octant, so results agree with NumPy's pocketfft to about 1e-15
 * relative to the largest magnitude. Plans are immutable, cached per length (a small LRU cache) and
 * safe to share between threads; scratch buffers belong to the caller.
 */
package org.tessera.ndarray.fft;
