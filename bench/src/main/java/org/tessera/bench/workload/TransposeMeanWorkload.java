package org.tessera.bench.workload;

import java.util.LinkedHashMap;
import java.util.Map;

import org.tessera.array.ChunkedArray;
import org.tessera.array.blockwise.Elementwise;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.reduction.ChunkedStatistics;
import org.tessera.array.reduction.ChunkedStatistics.Request;
import org.tessera.array.reshape.Transpose;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.ufunc.Ufuncs;

/** W1: {@code (x + x.T).mean(axis=0)} for x uniform [0, 1) of 20000 x 20000 in 2000 x 2000 blocks. */
final class TransposeMeanWorkload implements Workload {
    static final long SIDE = 20_000;
    static final long CHUNK = 2_000;

    @Override
    public String name() {
        return "W1";
    }

    @Override
    public void warmUp() {
        compute(SIDE / 5);
    }

    @Override
    public Check run() {
        double value = compute(SIDE);
        return new Check(value, Math.abs(value - 1.0) < 1e-3);
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("shape", SIDE + "x" + SIDE);
        params.put("chunks", CHUNK + "x" + CHUNK);
        params.put("threads", Runtime.getRuntime().availableProcessors());
        return params;
    }

    /** The mean of the result, the check value of WORKLOADS.md. */
    static double compute(long side) {
        ChunkedArray x = Creation.random(0, Creation.Distribution.UNIFORM, new long[] {side, side}, ChunkSpec.size(CHUNK));
        NDArray columnMeans = ChunkedStatistics.mean(Elementwise.apply(Ufuncs.ADD, x, Transpose.transpose(x)), Request.axes(0)).compute();
        return NDArrays.sum(columnMeans).getDouble() / columnMeans.size();
    }
}
