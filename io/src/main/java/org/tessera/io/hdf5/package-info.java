/**
 * HDF5 datasets as chunked arrays, read and written through jhdf, a pure-Java HDF5 library.
 *
 * <p>Reading: {@link org.tessera.io.hdf5.Hdf5Dataset} is a region source whose reads touch only
 * their region: the byte runs of a contiguous dataset, or the chunks of a chunked dataset that the
 * region overlaps (decoded through the dataset's filters: deflate/gzip, shuffle, Fletcher-32, LZF,
 * LZ4, bitshuffle; a Fletcher-32 checksum is checked, and a mismatch names the file, dataset and
 * chunk). What is read: integers of 1 to 8 bytes, float16/32/64, and h5py's encodings of
 * bool (an 8-bit enum) and complex (a compound of two floats), in either byte order; contiguous,
 * chunked and compact layouts; datasets anywhere in the group tree. Chunks never written read as
 * the dataset's fill value. Other datatypes, and filters jhdf lacks (szip, scale-offset, n-bit,
 * Blosc, ...), are refused when the dataset is opened, with an {@link
 * org.tessera.io.hdf5.Hdf5Exception} naming the file, the dataset path and the filter or type.
 *
 * <p>Writing: {@link org.tessera.io.hdf5.Hdf5#toHdf5} writes new files that h5py reads, contiguous
 * or chunked with shuffle and gzip, for the dtypes jhdf writes (integers, float32, float64). It is
 * not out-of-core: jhdf takes whole Java arrays and writes the file when it is closed.
 *
 * <p>Example: a dataset {@code /a/b/values} of shape (8, 3) float64 stored in chunks of (3, 3)
 * with gzip opens as {@code Hdf5.fromHdf5(path, "/a/b/values")}; a block of rows 3..5 decodes one
 * chunk, a block of rows 2..4 decodes two.
 */
package org.tessera.io.hdf5;
