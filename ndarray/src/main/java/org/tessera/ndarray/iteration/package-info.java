/**
 * The multi-operand strided iterator. Callers broadcast their operands to one shape first (stride
 * 0 on broadcast axes); the iterator drops axes of length 1, merges neighbouring axes that every
 * operand steps through uniformly, and calls an {@link org.tessera.ndarray.iteration.InnerLoop}
 * once per remaining inner run, so kernels see the longest 1-D loops the layouts allow. It works on
 * raw {@link org.tessera.ndarray.iteration.Operand}s rather than arrays, which keeps it a leaf that
 * the core can use for copies and casts.
 */
package org.tessera.ndarray.iteration;
