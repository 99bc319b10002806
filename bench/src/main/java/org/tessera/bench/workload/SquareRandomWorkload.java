package org.tessera.bench.workload;

import java.util.LinkedHashMap;
import java.util.Map;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;

/**
 * The chunked workloads over one square array x uniform in [0, 1) (W1, W7, W8): the warm-up runs
 * the same expression on a side one fifth as long, and the check compares the value with what the
 * uniform distribution makes of it.
 */
abstract class SquareRandomWorkload implements Workload {
    private final String name;
    private final long side;
    private final long chunk;

    SquareRandomWorkload(String name, long side, long chunk) {
        this.name = name;
        this.side = side;
        this.chunk = chunk;
    }

    /** The workload's expression on x; returns its check value. */
    abstract double compute(ChunkedArray x);

    /** Whether {@code value}, computed on a side of {@code side}, is within WORKLOADS.md's tolerance. */
    abstract boolean accepts(double value, long side);

    /** Extra parameters for the report (depth, boundary). */
    void addParams(Map<String, Object> params) {
    }

    double computeAt(long length) {
        return compute(Creation.random(0, Creation.Distribution.UNIFORM, new long[] {length, length}, ChunkSpec.size(chunk)));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void warmUp() {
        computeAt(side / 5);
    }

    @Override
    public Check run() {
        double value = computeAt(side);
        return new Check(value, accepts(value, side));
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("shape", side + "x" + side);
        params.put("chunks", chunk + "x" + chunk);
        addParams(params);
        params.put("threads", Runtime.getRuntime().availableProcessors());
        return params;
    }
}
