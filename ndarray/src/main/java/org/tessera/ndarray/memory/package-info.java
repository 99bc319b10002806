/**
 * Owning storage. Arrays up to about 16 GiB live on the Java heap in a {@code long[]} (8-byte
 * aligned, freed by the GC, no native bookkeeping); larger ones, or callers who ask, get native
 * memory from an automatic arena; buffers that native code walks (BLAS operands) are mapped on
 * transparent huge pages. Memory-mapped files come from the npy package.
 */
package org.tessera.ndarray.memory;
