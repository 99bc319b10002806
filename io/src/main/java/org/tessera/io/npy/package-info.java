/**
 * Chunked arrays over {@code .npy} files: a single memory-mapped file, and Dask's "npy stack"
 * (a directory of {@code 0.npy}, {@code 1.npy}, ... blocks along one axis, plus a pickled
 * {@code info} file with the chunks, the dtype and the axis).
 *
 * <p>Example: an array of shape (10, 4) in blocks of (3, 2) stacked along axis 0 is rechunked to
 * blocks of (3, 4), (3, 4), (3, 4), (1, 4) and written as {@code 0.npy} to {@code 3.npy}, with
 * {@code info} = {@code {"chunks": ((3, 3, 3, 1), (4,)), "dtype": dtype('float64'), "axis": 0}}.
 */
package org.tessera.io.npy;
