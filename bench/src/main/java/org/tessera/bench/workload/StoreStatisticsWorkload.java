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
import org.tessera.io.zarr.Zarr;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;

/**
 * W3: stores x (uniform [0, 1), 16000 x 16000 in 2000 x 2000 blocks) to a Zarr store on local disk
 * with the default compressor, then computes {@code mean(axis=0)} and {@code std(axis=0)} from the
 * store, as bench_dask.py's {@code x.to_zarr(...)}, {@code da.compute(y.mean(0), y.std(0))}.
 *
 * <p>The default compressor is zarr-python's (Blosc lz4 with byte shuffle), which is what Dask's
 * {@code to_zarr} writes, so both sides compress the same bytes. Both statistics are computed in
 * one pass over the store, as {@code da.compute} shares the reads. The store lives in a temporary
 * directory that is deleted afterwards, as in bench_dask.py.
 */
final class StoreStatisticsWorkload implements Workload {
    private static final long SIDE = 16_000;
    private static final long CHUNK = 2_000;

    @Override
    public String name() {
        return "W3";
    }

    @Override
    public void warmUp() throws IOException {
        // The same grid of chunks, each a fifth of the side (see RandomMatrixWorkload.warmUp).
        computeAt(SIDE / RandomMatrixWorkload.WARM_UP_SCALE, CHUNK / RandomMatrixWorkload.WARM_UP_SCALE);
    }

    @Override
    public Check run() throws IOException {
        double[] value = computeAt(SIDE, CHUNK);
        boolean ok = Math.abs(value[0] - 0.5) < 1e-3 && Math.abs(value[1] - 0.28868) < 1e-3;
        return new Check(List.of(value[0], value[1]), ok);
    }

    /** The mean of the column means and the mean of the column standard deviations. */
    private double[] computeAt(long side, long chunk) throws IOException {
        Path directory = Files.createTempDirectory("w3-");
        try {
            ChunkedArray x = Creation.random(0, Creation.Distribution.UNIFORM, new long[] {side, side}, ChunkSpec.size(chunk));
            Path store = directory.resolve("x.zarr");
            Zarr.toZarr(x, store, chunk, chunk);
            ChunkedArray y = Zarr.fromZarr(store);
            List<NDArray> statistics = ChunkedArray.computeAll(ChunkedArray.defaultScheduler(), List.of(y.mean(0), y.std(0, 0)));
            return new double[] {meanOf(statistics.get(0)), meanOf(statistics.get(1))};
        } finally {
            DirectoryTrees.delete(directory);
        }
    }

    private static double meanOf(NDArray values) {
        return NDArrays.sum(values).getDouble() / values.size();
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("shape", SIDE + "x" + SIDE);
        params.put("chunks", CHUNK + "x" + CHUNK);
        params.put("store", "zarr v2, blosc lz4 shuffle (zarr-python's and Dask's default), local disk");
        params.put("threads", Runtime.getRuntime().availableProcessors());
        return params;
    }
}
