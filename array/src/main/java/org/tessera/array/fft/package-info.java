/**
 * NumPy's {@code numpy.fft} on chunked arrays along any axis, whatever its chunking: a blockwise map
 * of the NDArray transform where the axis is one block, the four-step decomposition (or
 * Bluestein's algorithm) across blocks otherwise. {@link org.tessera.array.fft.ChunkedFft} is the
 * facade.
 */
package org.tessera.array.fft;
