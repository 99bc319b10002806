package org.tessera.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.io.hdf5.Hdf5;
import org.tessera.io.hdf5.Hdf5Dataset;

/**
 * H1 of WORKLOADS.md, R1 on an HDF5 file: {@code y.sum()} of dataset {@code y} (uniform [0, 1)
 * float64, 16000 x 16000 in 2000 x 2000 chunks, gzip and byte shuffle) written by h5py through
 * {@code dask_workloads.py make-h5 FILE}, which {@code --store FILE} names. Unlike the R workloads it
 * does not write its input itself: Tessera's HDF5 writer gathers a dataset whole, and 2 GB do not fit
 * the one configuration's 1 GB heap. The warm-up sums the file's corner, four chunks by four, and
 * the result reports {@code floor_seconds} as the R workloads do.
 */
final class StoredHdf5Workload implements StoredWorkload {
    static final String DATASET = "y";

    private final Path givenFile;
    private Path file;

    StoredHdf5Workload(Path givenFile) {
        this.givenFile = givenFile;
    }

    @Override
    public String name() {
        return "H1";
    }

    @Override
    public void warmUp() throws IOException {
        if (givenFile == null || !Files.isRegularFile(givenFile)) {
            throw new IOException("H1 reads an HDF5 file written by h5py: give --store FILE after writing it with "
                    + "/usr/bin/python3 bench/anchors/dask_workloads.py make-h5 FILE" + (givenFile == null ? "" : " (" + givenFile + " is not a file)"));
        }
        file = givenFile;
        long side = 4 * StoredArrayWorkload.CHUNK;
        try (Hdf5Dataset dataset = Hdf5.open(file, DATASET)) {
            Creation.fromSource(new CornerSource(dataset, new long[] {side, side}), ChunkSpec.of(StoredArrayWorkload.CHUNK, StoredArrayWorkload.CHUNK))
                    .sum().compute();
        }
    }

    @Override
    public Check run() throws IOException {
        try (Hdf5Dataset dataset = Hdf5.open(file, DATASET)) {
            double mean = Hdf5.fromHdf5(dataset, ChunkSpec.of(StoredArrayWorkload.CHUNK, StoredArrayWorkload.CHUNK)).sum().compute().getDouble()
                    / ((double) StoredArrayWorkload.SIDE * StoredArrayWorkload.SIDE);
            return new Check(mean, Math.abs(mean - 0.5) < 1e-3);
        }
    }

    /** Seconds to read and decode every chunk of the file on all cores, nothing else. */
    @Override
    public double floorSeconds() throws IOException, InterruptedException {
        try (Hdf5Dataset dataset = Hdf5.open(file, DATASET)) {
            return ChunkFloor.seconds(dataset, StoredArrayWorkload.CHUNK, file.toString());
        }
    }

    /** Seconds to read every chunk of the file in slabs where it has them, else whole (see {@link ChunkFloor#slabSeconds}). */
    @Override
    public double slabFloorSeconds() throws IOException, InterruptedException {
        try (Hdf5Dataset dataset = Hdf5.open(file, DATASET)) {
            return ChunkFloor.slabSeconds(dataset, StoredArrayWorkload.CHUNK, file.toString());
        }
    }

    /** Nothing to delete: the file was given. */
    @Override
    public void close() {
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("operation", "y.sum() of an HDF5 dataset (gzip, shuffle)");
        params.put("shape", StoredArrayWorkload.SIDE + "x" + StoredArrayWorkload.SIDE);
        params.put("chunks", StoredArrayWorkload.CHUNK + "x" + StoredArrayWorkload.CHUNK);
        params.put("store", String.valueOf(givenFile));
        params.put("threads", Runtime.getRuntime().availableProcessors());
        return params;
    }
}
