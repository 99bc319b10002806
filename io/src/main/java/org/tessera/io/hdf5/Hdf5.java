package org.tessera.io.hdf5;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.Group;
import io.jhdf.api.Node;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkNormalization;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.Creation;
import org.tessera.array.plan.Working;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.ndarray.NDArray;

/**
 * HDF5 datasets as chunked arrays, as Dask's {@code from_array(h5py_dataset)} and {@code to_hdf5}.
 *
 * <pre>{@code
 * ChunkedArray x = Hdf5.fromHdf5(Path.of("data.h5"), "/group/x");   // blocks in multiples of the stored chunks
 * Hdf5.toHdf5(x.multiply(2), Path.of("twice.h5"), "/x", Hdf5WriteOptions.chunked(1000, 1000).withShuffle().withGzip(4));
 * }</pre>
 *
 * <p>Reading is out-of-core: each block reads only its region. Writing is not: jhdf, the pure-Java
 * HDF5 library underneath, writes a file in one go from whole Java arrays when it is closed, so
 * {@code toHdf5} holds every dataset it writes in memory (twice, as an NDArray and as the Java
 * arrays jhdf takes). For arrays larger than memory, write Zarr.
 */
public final class Hdf5 {
    private Hdf5() {
    }

    /**
     * The paths of every dataset in {@code file} ("/x", "/group/y"), groups walked depth first in
     * name order, so a tool can list a file it was not told about.
     *
     * @throws Hdf5Exception when the file is not HDF5
     */
    public static List<String> datasetPaths(Path file) throws IOException {
        if (!java.nio.file.Files.isRegularFile(file)) {
            throw new java.nio.file.NoSuchFileException(file.toAbsolutePath().toString(), null, "no HDF5 file there");
        }
        try (HdfFile hdf = Hdf5Files.open(file).hdf()) {
            List<String> paths = new ArrayList<>();
            collectDatasetPaths(hdf, paths);
            return List.copyOf(paths);
        } catch (RuntimeException failure) {
            // jhdf reports a malformed file with HdfException or with whatever its parsing threw.
            throw new Hdf5Exception("cannot open " + file.toAbsolutePath() + " as an HDF5 file: " + failure, failure);
        }
    }

    private static void collectDatasetPaths(Group group, List<String> paths) {
        for (Node child : new java.util.TreeMap<>(group.getChildren()).values()) {
            switch (child) {
                case Dataset dataset -> paths.add(dataset.getPath());
                case Group inner -> collectDatasetPaths(inner, paths);
                default -> { }
            }
        }
    }

    /** The dataset at {@code datasetPath} of {@code file} as a region source. */
    public static Hdf5Dataset open(Path file, String datasetPath) throws IOException {
        return Hdf5Dataset.open(file, datasetPath);
    }

    /**
     * A chunked array over the dataset with Dask's automatic block sizes; for a chunked dataset the
     * blocks are whole multiples of the stored chunks where they can be, so no chunk is decoded by
     * two blocks.
     */
    public static ChunkedArray fromHdf5(Path file, String datasetPath) throws IOException {
        return fromHdf5(open(file, datasetPath), ChunkSpec.auto());
    }

    public static ChunkedArray fromHdf5(Path file, String datasetPath, ChunkSpec spec) throws IOException {
        return fromHdf5(open(file, datasetPath), spec);
    }

    /** A chunked array over {@code dataset} in blocks given by {@code spec} ("auto" parts grow from the stored chunks). */
    public static ChunkedArray fromHdf5(Hdf5Dataset dataset, ChunkSpec spec) {
        long[] shape = dataset.shape();
        long[][] storedChunks = dataset.chunkShape().map(chunkShape -> {
            Chunks regular = Chunks.regular(shape, chunkShape);
            long[][] lengths = new long[shape.length][];
            for (int axis = 0; axis < shape.length; axis++) {
                lengths[axis] = regular.axis(axis);
            }
            return lengths;
        }).orElse(null);
        Chunks chunks = ChunkNormalization.normalize(spec, shape, null, dataset.dtype(), storedChunks);
        long[][] blocks = new long[shape.length][];
        for (int axis = 0; axis < shape.length; axis++) {
            blocks[axis] = chunks.axis(axis);
        }
        // A chunked dataset decodes each stored chunk a block overlaps whole; a contiguous one reads straight into the block.
        return dataset.chunkShape().map(chunkShape -> Creation.fromStoredChunks(dataset, ChunkSpec.explicit(blocks), chunkShape))
                .orElseGet(() -> Creation.fromSource(dataset, ChunkSpec.explicit(blocks), Working.none()));
    }

    /** Writes {@code array} as the only dataset of a new file (replacing {@code file}), contiguous as h5py's default. */
    public static void toHdf5(ChunkedArray array, Path file, String datasetPath) throws IOException {
        toHdf5(array, file, datasetPath, Hdf5WriteOptions.contiguous());
    }

    public static void toHdf5(ChunkedArray array, Path file, String datasetPath, Hdf5WriteOptions options) throws IOException {
        toHdf5(file, Map.of(datasetPath, array), options, ChunkedArray.defaultScheduler());
    }

    /**
     * Writes several arrays into a new file, one dataset per path ("/a/b/x" creates groups a and
     * a/b), as Dask's {@code to_hdf5(filename, {"/x": x, "/y": y})}. The arrays are computed
     * together, so work they share runs once. The file is written under a temporary name and
     * renamed over {@code file}, so a failure leaves any earlier file as it was.
     *
     * @throws Hdf5Exception naming the dataset path when a dtype cannot be written (jhdf writes
     *                       signed and unsigned integers, float32 and float64) or a shape has a
     *                       zero-length axis
     */
    public static void toHdf5(Path file, Map<String, ChunkedArray> datasets, Hdf5WriteOptions options, Scheduler scheduler) throws IOException {
        Map<String, ChunkedArray> ordered = new LinkedHashMap<>(datasets);
        for (Map.Entry<String, ChunkedArray> entry : ordered.entrySet()) {
            Hdf5Writer.requireWritable(file, entry.getKey(), entry.getValue().dtype(), entry.getValue().chunks().requireKnownShape("toHdf5"));
        }
        List<NDArray> values = ChunkedArray.computeAll(scheduler, new ArrayList<>(ordered.values()));
        Map<String, NDArray> computed = new LinkedHashMap<>();
        int position = 0;
        for (String path : ordered.keySet()) {
            computed.put(path, values.get(position++));
        }
        Hdf5Writer.write(file, computed, options);
    }
}
