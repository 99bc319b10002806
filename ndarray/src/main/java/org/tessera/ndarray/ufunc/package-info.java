/**
 * Universal functions as NumPy's: a {@link org.tessera.ndarray.ufunc.Ufunc} holds a table of typed
 * loops; each loop states its scalar semantics once per computing lane (long for bool and integers,
 * double for floats), and the executor moves blocks between memory and the lanes, casting on the
 * way. Type resolution follows NumPy 2 (NEP 50 weak scalars, then the first loop every input casts
 * to safely). {@code Reductions} adds reduce/accumulate/reduceat/outer on binary ufuncs and
 * {@code Statistics} the NumPy statistics built on them.
 */
package org.tessera.ndarray.ufunc;
