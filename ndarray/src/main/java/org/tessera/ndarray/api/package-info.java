/**
 * The facade of the dense family: {@link org.tessera.ndarray.api.NDArrays} gathers the creation
 * functions and the {@code np.xxx} functions that operate on arrays, delegating to the operation
 * packages. It is the only package that may import every other.
 */
package org.tessera.ndarray.api;
