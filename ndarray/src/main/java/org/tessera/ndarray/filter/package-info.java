/**
 * Neighbourhood filters over whole arrays, as {@code scipy.ndimage} offers them: each output
 * element computed from a window of input elements around it, with the window's part outside the
 * array made by an edge {@link org.tessera.ndarray.filter.EdgeMode}. The stencils a chunked
 * {@code mapOverlap} runs on each enlarged block.
 */
package org.tessera.ndarray.filter;
