/**
 * The facade of the dense family: {@link org.tessera.ndarray.api.NDArrays} gathers the creation
 * functions and the {@code np.xxx} functions that operate on arrays, delegating to the operation
 * packages. It is the only package that may import every other.
 *
 * <p>Array families (NEP 35): {@link org.tessera.ndarray.api.DenseNamespace} is the dense family's
 * {@link org.tessera.ndarray.ArrayNamespace}, registered in {@code META-INF/services} so that
 * {@link org.tessera.ndarray.NDArray#namespace()} finds it without importing this package, and
 * {@link org.tessera.ndarray.api.Like} spells NumPy's {@code like=} overloads for any family.
 * The interfaces themselves ({@code AnyArray}, {@code ArrayNamespace}, {@code ArrayFamilies})
 * live in the core package, beside NDArray, because NDArray implements them and the core may not
 * import upward; they name ufuncs by their NumPy names to stay below the ufunc package.
 */
package org.tessera.ndarray.api;
