package org.tessera.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.io.StoreOptions;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.store.Store;
import org.tessera.io.store.Stores;
import org.tessera.io.zarr.ArrayMetadataV2;
import org.tessera.io.zarr.Zarr;
import org.tessera.io.zarr.ZarrArray;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;

/**
 * R1-R7 of WORKLOADS.md: an operation on a stored Zarr v2 array y (uniform [0, 1) float64, 16000 x
 * 16000 in 2000 x 2000 chunks, Blosc lz4 with byte shuffle), written by another tool. With
 * {@code --store DIR} the workload reads the store there (written by zarr-python through
 * {@code dask_workloads.py make-store DIR}); {@code --store s3://bucket/y.zarr} reads it from object
 * storage (configured as the AWS tools are). Without it, or where the location holds no array yet,
 * the workload writes the same array itself before the timed part. The timed part starts with
 * opening the store.
 *
 * <p>The result also reports {@code floor_seconds}: reading and decoding every chunk of the store on
 * all cores with no array work, measured in the same process after the timed runs, the least any
 * operation that reads the whole store can take; and {@code floor_slab_seconds}: the same, each chunk
 * read in slabs of a strip's rows into reused scratch memory, as reductions and scans read it.
 */
final class StoredArrayWorkload implements StoredWorkload {
    static final long SIDE = 16_000;
    static final long CHUNK = 2_000;
    /** The warm-up's corner of the store: the same chunks, four by four of them (a quarter of the store). */
    private static final long WARM_UP_SIDE = 4 * CHUNK;

    /** What a workload does with the stored array; {@code scratch} is a directory for stores it writes. */
    @FunctionalInterface
    interface Operation {
        Check apply(ChunkedArray y, Path scratch) throws IOException;
    }

    private final String name;
    private final String description;
    private final Operation operation;
    /** Null, a local directory or a URI ({@link Stores#open(String)}). */
    private final String givenStore;
    private Store store;
    private Path writtenHere;

    StoredArrayWorkload(String name, String description, Operation operation, String givenStore) {
        this.name = name;
        this.description = description;
        this.operation = operation;
        this.givenStore = givenStore;
    }

    /** R1-R7 by name, each reading the store at {@code store}, or writing one first where it is null. */
    static Map<String, StoredArrayWorkload> all(String store) {
        Map<String, StoredArrayWorkload> workloads = new LinkedHashMap<>();
        workloads.put("R1", new StoredArrayWorkload("R1", "y.sum()", (y, scratch) -> {
            double mean = y.sum().compute().getDouble() / y.size();
            return new Check(mean, Math.abs(mean - 0.5) < 1e-3);
        }, store));
        workloads.put("R2", new StoredArrayWorkload("R2", "mean(axis=0) and std(axis=0) in one pass", (y, scratch) -> {
            List<NDArray> statistics = ChunkedArray.computeAll(ChunkedArray.defaultScheduler(), List.of(y.mean(0), y.std(0, 0)));
            double[] value = {meanOf(statistics.get(0)), meanOf(statistics.get(1))};
            return new Check(List.of(value[0], value[1]), Math.abs(value[0] - 0.5) < 1e-3 && Math.abs(value[1] - 0.28868) < 1e-3);
        }, store));
        workloads.put("R3", onSquare("R3", "(y + y.T).mean(axis=0)", new TransposeMeanWorkload(), store));
        workloads.put("R4", onSquare("R4", "y[::3, 100:-100][idx].sum()", new FancyIndexSumWorkload(), store));
        workloads.put("R5", onSquare("R5", "y.cumsum(axis=0)[-1].sum()", new CumulativeSumWorkload(), store));
        workloads.put("R6", onSquare("R6", "3 x 3 mean filter by map_overlap (depth 1, reflect), then sum", new StencilWorkload(), store));
        workloads.put("R7", new StoredArrayWorkload("R7", "y.rechunk((250, 16000)) stored to a new Zarr store, then its sum", (y, scratch) -> {
            Path target = scratch.resolve("rechunked.zarr");
            try {
                Zarr.toZarr(y.rechunk(ChunkSpec.of(250, y.shape(1))), target, 250, y.shape(1));
                ZarrArray written = Zarr.open(target);
                boolean chunkedRight = written.chunkShape()[0] == 250 && written.chunkShape()[1] == y.shape(1);
                double mean = Zarr.fromZarr(written).sum().compute().getDouble() / y.size();
                return new Check(mean, chunkedRight && Math.abs(mean - 0.5) < 1e-3);
            } finally {
                DirectoryTrees.delete(target);
            }
        }, store));
        return workloads;
    }

    /** The expression of a square random workload (W1, W6, W7, W8) on the stored array, with its check. */
    private static StoredArrayWorkload onSquare(String name, String description, SquareRandomWorkload expression, String store) {
        return new StoredArrayWorkload(name, description, (y, scratch) -> {
            double value = expression.compute(y);
            return new Check(value, expression.accepts(value, y.shape(0)));
        }, store);
    }

    private static double meanOf(NDArray values) {
        return NDArrays.sum(values).getDouble() / values.size();
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * Makes sure the timed store exists (writing it where none was given), then runs the operation
     * on its top-left corner, four chunks by four: the same chunks, codec and graph on fewer blocks.
     * The warm-up reads the store it will time rather than writing one of its own, so the peak
     * memory reported is the operation's, not that of a writer the workload never times.
     */
    @Override
    public void warmUp() throws IOException {
        if (givenStore != null) {
            store = Stores.open(givenStore);
        } else {
            store = DirectoryStore.open((writtenHere = Files.createTempDirectory("tessera-" + name + "-")).resolve("y.zarr"));
        }
        if (!store.contains(".zarray")) {
            write(store, SIDE);
        }
        Path directory = Files.createTempDirectory("tessera-" + name + "-warm-up-");
        try {
            ChunkedArray corner = Creation.fromSource(new CornerSource(ZarrArray.open(store, ""), new long[] {WARM_UP_SIDE, WARM_UP_SIDE}), ChunkSpec.of(CHUNK, CHUNK));
            operation.apply(corner, directory);
        } finally {
            DirectoryTrees.delete(directory);
        }
    }

    /** The workload's input as WORKLOADS.md describes it, with Tessera's writer (Blosc lz4, byte shuffle: zarr-python's default). */
    private static void write(Store target, long side) throws IOException {
        ChunkedArray y = Creation.random(7, Creation.Distribution.UNIFORM, new long[] {side, side}, ChunkSpec.of(CHUNK, CHUNK));
        Zarr.toZarr(y, target, "", ArrayMetadataV2.of(y.shape(), new long[] {CHUNK, CHUNK}, y.dtype()), StoreOptions.defaults());
    }

    @Override
    public Check run() throws IOException {
        Path scratch = Files.createTempDirectory("tessera-" + name + "-scratch-");
        try {
            return operation.apply(Zarr.fromZarr(ZarrArray.open(store, "")), scratch);
        } finally {
            DirectoryTrees.delete(scratch);
        }
    }

    /** Seconds to read and decode every chunk of the store on all cores, nothing else (see {@link ChunkFloor}). */
    @Override
    public double floorSeconds() throws IOException, InterruptedException {
        return ChunkFloor.seconds(ZarrArray.open(store, ""), CHUNK, store.describe());
    }

    /** Seconds to read every chunk of the store in slabs of a strip's rows (see {@link ChunkFloor#slabSeconds}). */
    @Override
    public double slabFloorSeconds() throws IOException, InterruptedException {
        return ChunkFloor.slabSeconds(ZarrArray.open(store, ""), CHUNK, store.describe());
    }

    @Override
    public void close() throws IOException {
        if (writtenHere != null) {
            DirectoryTrees.delete(writtenHere);
        }
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("operation", description);
        params.put("shape", SIDE + "x" + SIDE);
        params.put("chunks", CHUNK + "x" + CHUNK);
        params.put("store", givenStore != null ? givenStore : "written by Tessera before the timed part");
        params.put("threads", Runtime.getRuntime().availableProcessors());
        return params;
    }
}
