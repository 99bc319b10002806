/**
 * Element types and the rules between them: the {@link org.tessera.ndarray.dtype.DType} table,
 * NumPy 2 promotion with NEP 50's weak Java scalars, and the casting rules (no, equiv, safe,
 * same_kind, unsafe).
 */
package org.tessera.ndarray.dtype;
