/**
 * How values travel through Spark: results as {@link org.tessera.spark.serialization.EncodedBlock}s
 * ({@code .npy} bytes for an NDArray: a header with dtype and shape, then raw bytes), and tasks
 * with Java serialization that replaces every NDArray inside them by the same {@code .npy} bytes.
 * Spark itself then only ever serializes keys and byte arrays.
 */
package org.tessera.spark.serialization;
