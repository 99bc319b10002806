/**
 * The machine's cores lent to one large in-memory operation: a kernel over tens of millions of
 * elements is cut into ranges that run at once, where NumPy runs one core. A leaf: it knows
 * nothing of arrays, only of ranges and the pool that runs them.
 */
package org.tessera.ndarray.parallel;
