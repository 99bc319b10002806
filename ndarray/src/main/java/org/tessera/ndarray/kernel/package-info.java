/**
 * Element loads and stores and the conversion loops between dtypes, written against
 * (segment, byte offset, byte stride, count) and knowing dtypes but not arrays. Values travel in
 * carriers: {@code long} for bool and integers, {@code double} for floats, two doubles for complex.
 * Nothing outside the ndarray module should use this package.
 */
package org.tessera.ndarray.kernel;
