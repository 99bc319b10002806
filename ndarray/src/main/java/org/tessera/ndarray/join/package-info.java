/**
 * Joining arrays: concatenate along an existing axis, stack along a new one. The result dtype is
 * the NumPy promotion of the inputs; each input is assigned into its slice of the result.
 */
package org.tessera.ndarray.join;
