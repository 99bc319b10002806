/**
 * The few exception types of the NDArray layer. They extend the standard Java exceptions that
 * match NumPy's categories, so callers can catch either: {@link java.lang.IllegalArgumentException}
 * for ValueError, {@link java.lang.IndexOutOfBoundsException} for IndexError,
 * {@link org.tessera.ndarray.error.CastingException} for the TypeError of a forbidden cast.
 * Every message names the shapes, axes, indices or dtypes involved, in NumPy's words.
 */
package org.tessera.ndarray.error;
