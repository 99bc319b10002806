/**
 * The workload suite of {@code bench/WORKLOADS.md}: one class per workload, the runner
 * that times one in this JVM and prints the JSON object the Dask and NumPy scripts print, and the
 * out-of-core {@code A.T @ A} run over a Zarr store.
 *
 * <p>The runner is the entry point of a JVM started for one workload ({@code ./tessera bench}
 * starts one per workload with that workload's heap); {@link org.tessera.bench.workload.Schedulers}
 * maps {@code --scheduler} names to schedulers. {@link org.tessera.bench.workload.RandomZarrMatrix},
 * {@link org.tessera.bench.workload.ProcessMemory} and {@link org.tessera.bench.workload.DirectoryTrees}
 * are public because {@code ./tessera demo} measures the same matrix the same way.
 */
package org.tessera.bench.workload;
