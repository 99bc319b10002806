package org.tessera.bench.workload;

import java.util.LinkedHashMap;
import java.util.Map;

import org.tessera.array.ChunkedArray;
import org.tessera.array.blockwise.Elementwise;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.reduction.ChunkedStatistics;
import org.tessera.array.reduction.ChunkedStatistics.Request;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * W5: {@code (x + 1).sum()} for x = ones(1,000,000) in chunks of 10, so 100,000 blocks: a test of
 * the cost per task, graph building, optimisation and scheduling included.
 */
final class BlockSumWorkload implements Workload {
    static final long LENGTH = 1_000_000;
    static final int CHUNK = 10;

    @Override
    public String name() {
        return "W5";
    }

    @Override
    public void warmUp() {
        compute(LENGTH / 5);
    }

    @Override
    public Check run() {
        double value = compute(LENGTH);
        return new Check(value, value == 2 * LENGTH);
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("length", LENGTH);
        params.put("chunk", CHUNK);
        params.put("blocks", LENGTH / CHUNK);
        params.put("split_every", 4);
        params.put("threads", Runtime.getRuntime().availableProcessors());
        return params;
    }

    static double compute(long length) {
        ChunkedArray x = Creation.full(new long[] {length}, 1, DType.FLOAT64, ChunkSpec.size(CHUNK));
        return ChunkedStatistics.sum(Elementwise.apply(Ufuncs.ADD, x, 1), Request.all()).compute().getDouble();
    }
}
