/**
 * General matrix multiply (GEMM) over strided matrices in memory segments, knowing dtypes but not
 * arrays: {@code out = a × b} for one {@link org.tessera.ndarray.blas.Matrix} triple.
 *
 * <p>Two providers implement {@link org.tessera.ndarray.blas.Gemm}. {@code OpenBlasGemm} calls
 * {@code cblas_?gemm} of a system OpenBLAS through the FFM API when one is found; it passes
 * strided inputs through the transpose flags and copies only what BLAS cannot describe.
 * {@code JavaGemm} is the fallback: a cache-blocked kernel in plain Java (packed panels, an
 * inner loop the JIT vectorises, row blocks in parallel). Integer and bool products never go to
 * BLAS: they run an exact {@code long} kernel whose results wrap as NumPy's do.
 *
 * <p>Choice: {@link org.tessera.ndarray.blas.Blas#selected()} is read once. The system property
 * {@code tessera.blas=java} forces the fallback; {@code tessera.blas.library} (property or
 * environment variable) names the OpenBLAS shared library to load.
 *
 * <p>Example: a transposed float64 operand (byte strides (8, 8·rows)) goes to OpenBLAS as
 * {@code CblasTrans} with leading dimension {@code rows}, without a copy.
 */
package org.tessera.ndarray.blas;
