package org.tessera.bench.workload;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.sorting.ChunkedSort;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.io.StoreOptions;
import org.tessera.io.StoreReport;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.zarr.ArrayMetadataV2;
import org.tessera.io.zarr.Zarr;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.sort.SortKind;

/**
 * S1 of WORKLOADS.md, the out-of-core sort: a 2^29-element float64 array (4 GiB, uniform [0, 1)) in
 * chunks of 2^24, written to a Zarr store before the timed part, sorted into a new Zarr store by
 * {@link ChunkedSort} with its runs in a scratch directory, in the chunked workloads' JVM (a 1 GiB
 * heap). The timed part is the sort and the store; the check then reads the new store back: it
 * must be non-decreasing, as long as the input and with the input's sum (within 1e-9, the order of
 * the additions differing).
 *
 * <p>On the threaded scheduler the workload runs with a memory budget of half the heap and as
 * many workers as the heap holds tasks of three blocks (a run's task holds its block and the
 * sorted copy; a merge its output block and the store's buffers): two under 1 GiB. On Spark
 * ({@code --scheduler spark}) the same graph runs on the Spark session, and Spark's own
 * {@code RDD.sortBy} of the same stored values is measured after it, in the same JVM, as a
 * separate figure ({@code spark_sortby}).
 *
 * <p>The size can be lowered for a trial run with {@code -Dtessera.s1.length=2^k} (and
 * {@code -Dtessera.s1.chunk}) in {@code TESSERA_JVM_OPTS}; the report says what ran.
 */
final class SortWorkload implements Workload {
    private static final long SEED = 29;

    private final long length;
    private final long chunk;
    /** The output store's chunks: a quarter of a block, so the store's encoding buffers stay small beside the block. */
    private final long outputChunk;
    private final long warmUpLength;

    private final List<Double> sortSeconds = new ArrayList<>();
    private final List<Double> checkSeconds = new ArrayList<>();
    private Path directory;
    private Path input;
    private double inputSum;
    private double writeSeconds;
    private long peakResultBytes = -1;
    private int workers;
    private Scheduler scheduler;
    private MemoryBudget budget;

    /** S1 as WORKLOADS.md gives it, or the size of {@code -Dtessera.s1.length} and {@code -Dtessera.s1.chunk}. */
    SortWorkload() {
        this(Long.getLong("tessera.s1.length", 1L << 29), Long.getLong("tessera.s1.chunk", 1L << 24));
    }

    SortWorkload(long length, long chunk) {
        this.length = length;
        this.chunk = chunk;
        this.outputChunk = Math.max(1, chunk / 4);
        this.warmUpLength = Math.min(length, 1L << 22);
    }

    @Override
    public String name() {
        return "S1";
    }

    /** The scheduler of a run: the default one, or on the threaded scheduler one sized to the heap (see the class note). */
    private Scheduler scheduler() {
        Scheduler chosen = ChunkedArray.defaultScheduler();
        if (!(chosen instanceof ThreadedScheduler)) {
            workers = -1;
            return chosen;
        }
        long heap = Runtime.getRuntime().maxMemory();
        long blockBytes = chunk * Double.BYTES;
        workers = (int) Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), (heap - (128L << 20)) / (3 * blockBytes)));
        budget = MemoryBudget.ofBytes(heap / 2);
        return ThreadedScheduler.builder().workers(workers).memoryBudget(budget).build();
    }

    /** Writes the input store (untimed) and its sum, then sorts a small array through the same path to compile it. */
    @Override
    public void warmUp() throws IOException {
        scheduler = scheduler();
        directory = Files.createTempDirectory("tessera-S1-");
        input = directory.resolve("x.zarr");
        long start = System.nanoTime();
        // One writer at a time: a task of the writer holds the block, its bytes and their compressed copy.
        Scheduler writer = scheduler instanceof ThreadedScheduler ? ThreadedScheduler.builder().workers(1).build() : scheduler;
        ChunkedArray random = Creation.random(SEED, Creation.Distribution.UNIFORM, new long[] {length}, ChunkSpec.of(chunk));
        Zarr.toZarr(random, DirectoryStore.open(input), "", ArrayMetadataV2.of(new long[] {length}, new long[] {chunk}, DType.FLOAT64),
                StoreOptions.defaults().withScheduler(writer));
        inputSum = Zarr.fromZarr(input).sum().compute(scheduler).getDouble();
        writeSeconds = (System.nanoTime() - start) / 1e9;

        Path warm = directory.resolve("warm-up");
        Files.createDirectories(warm);
        long smallChunk = Math.max(1, warmUpLength / 8);
        ChunkedArray small = Creation.random(SEED + 1, Creation.Distribution.UNIFORM, new long[] {warmUpLength}, ChunkSpec.of(smallChunk));
        Path smallStore = warm.resolve("small.zarr");
        Zarr.toZarr(small, DirectoryStore.open(smallStore), "", ArrayMetadataV2.of(new long[] {warmUpLength}, new long[] {smallChunk}, DType.FLOAT64),
                StoreOptions.defaults().withScheduler(scheduler));
        sortInto(Zarr.fromZarr(smallStore), warm.resolve("sorted.zarr"), warm.resolve("scratch"), smallChunk);
        DirectoryTrees.delete(warm);
    }

    private StoreReport sortInto(ChunkedArray x, Path target, Path scratch, long outputChunk) throws IOException {
        Files.createDirectories(scratch);
        ChunkedArray sorted = ChunkedSort.sort(x, 0, SortKind.STABLE, ChunkedSort.Options.outOfCore(scratch));
        return Zarr.toZarr(sorted, DirectoryStore.open(target), "", ArrayMetadataV2.of(x.shape(), new long[] {outputChunk}, DType.FLOAT64),
                StoreOptions.defaults().withScheduler(scheduler));
    }

    @Override
    public Check run() throws IOException {
        Path output = directory.resolve("sorted.zarr");
        DirectoryTrees.delete(output);
        long start = System.nanoTime();
        StoreReport report = sortInto(Zarr.fromZarr(input), output, directory.resolve("scratch"), outputChunk);
        sortSeconds.add((System.nanoTime() - start) / 1e9);
        if (report.statistics() != null) {
            peakResultBytes = Math.max(peakResultBytes, report.statistics().peakResultBytes());
        }

        long checkStart = System.nanoTime();
        long count = 0;
        double sum = 0;
        double compensation = 0;
        double previous = Double.NEGATIVE_INFINITY;
        boolean nonDecreasing = true;
        Iterator<NDArray> blocks = Zarr.fromZarr(output).iterateBlocks(scheduler);
        while (blocks.hasNext()) {
            NDArray block = blocks.next();
            long size = block.size();
            for (long i = 0; i < size; i++) {
                double value = block.getDouble(i);
                nonDecreasing &= value >= previous;
                previous = value;
                // Kahan's compensated sum: 2^29 additions in a row would lose more than the check's 1e-9.
                double term = value - compensation;
                double next = sum + term;
                compensation = (next - sum) - term;
                sum = next;
            }
            count += size;
        }
        checkSeconds.add((System.nanoTime() - checkStart) / 1e9);
        DirectoryTrees.delete(output);
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("non_decreasing", nonDecreasing);
        value.put("length", count);
        value.put("sum", sum);
        value.put("input_sum", inputSum);
        boolean ok = nonDecreasing && count == length && Math.abs(sum - inputSum) <= 1e-9 * Math.abs(inputSum);
        return new Check(value, ok);
    }

    /**
     * What the runner's result gets beyond its own fields: {@code seconds} and {@code runs} of the
     * sort and store alone (the runner's include the check), the check's seconds, the input's
     * writing, the peak bytes of task results, and on Spark its {@code RDD.sortBy} of the same values.
     */
    Map<String, Object> figures() throws IOException {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("seconds", WorkloadRunner.median(sortSeconds));
        figures.put("runs", List.copyOf(sortSeconds));
        figures.put("check_seconds", checkSeconds);
        figures.put("write_input_seconds", writeSeconds);
        figures.put("peak_result_bytes", peakResultBytes);
        figures.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
        if (!(scheduler instanceof ThreadedScheduler) && scheduler.getClass().getName().equals("org.tessera.spark.SparkScheduler")) {
            figures.put("spark_sortby", sparkSortBy());
        }
        return figures;
    }

    /** Spark's {@code JavaRDD.sortBy} of the stored values, by the spark module's baseline (found by reflection, as Spark itself). */
    private Object sparkSortBy() {
        try {
            Path target = directory.resolve("spark-sortby");
            String store = input.toString();
            long chunkLength = chunk;
            long total = length;
            IntFunction<NDArray> reader = (IntFunction<NDArray> & Serializable) index -> readChunk(store, index, chunkLength, total);
            int chunks = (int) ((length + chunk - 1) / chunk);
            Object result = Class.forName("org.tessera.spark.baseline.RddSortBaseline")
                    .getMethod("sortBy", IntFunction.class, int.class, long.class, String.class, double.class)
                    .invoke(null, reader, chunks, length, target.toString(), inputSum);
            DirectoryTrees.delete(target);
            return result;
        } catch (ReflectiveOperationException | IOException | RuntimeException failure) {
            Throwable cause = failure instanceof java.lang.reflect.InvocationTargetException invocation ? invocation.getCause() : failure;
            return Map.of("error", String.valueOf(cause));
        }
    }

    /** Stored chunk {@code index}, read by Tessera's Zarr reader (in a Spark task). */
    private static NDArray readChunk(String store, int index, long chunkLength, long total) {
        try {
            long start = index * chunkLength;
            return Zarr.open(Path.of(store)).read(new long[] {start}, new long[] {Math.min(chunkLength, total - start)});
        } catch (IOException failure) {
            throw new java.io.UncheckedIOException(failure);
        }
    }

    void close() throws IOException {
        if (directory != null) {
            DirectoryTrees.delete(directory);
        }
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("operation", "sort of a stored float64 array into a new Zarr store (ChunkedSort.sort, runs in scratch files)");
        params.put("length", length);
        params.put("chunks", chunk);
        params.put("output_chunks", outputChunk);
        params.put("bytes", length * Double.BYTES);
        params.put("store", "Zarr v2, Blosc lz4 with byte shuffle, written by Tessera before the timed part");
        params.put("threads", Runtime.getRuntime().availableProcessors());
        params.put("workers", workers);
        params.put("memory_budget_bytes", budget == null ? null : budget.bytes());
        return params;
    }
}
