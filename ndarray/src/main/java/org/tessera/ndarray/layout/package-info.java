/**
 * Shape and stride arithmetic on plain {@code long[]}: sizes, broadcasting, contiguity, and the
 * no-copy reshape rule. No arrays and no memory here, so every rule can be tested on numbers alone.
 */
package org.tessera.ndarray.layout;
