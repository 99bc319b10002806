/**
 * Pictures of chunked arrays. Only the chunk grid is drawn, so this package needs nothing but
 * {@link org.tessera.array.chunks.Chunks}: it is a leaf that the core {@code ChunkedArray} may call
 * for {@code toSvg()}. The output is plain SVG text, valid standalone XML, with no fonts or scripts
 * to load, so a notebook can inline it and a test can parse it.
 */
package org.tessera.array.render;
