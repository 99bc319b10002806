package org.tessera.bench.workload;

import java.util.LinkedHashMap;
import java.util.Map;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;

/**
 * The chunked workloads over one matrix x uniform in [0, 1) (W1, W2, W4, W6, W7, W8): the warm-up
 * runs the same expression on a matrix one fifth as long on each side, in blocks of the same shape
 * (clipped to it), and the check compares the value with what the uniform distribution makes of it.
 */
abstract class RandomMatrixWorkload implements Workload {
    private final String name;
    private final long rows;
    private final long columns;
    private final long blockRows;
    private final long blockColumns;

    RandomMatrixWorkload(String name, long rows, long columns, long blockRows, long blockColumns) {
        this.name = name;
        this.rows = rows;
        this.columns = columns;
        this.blockRows = blockRows;
        this.blockColumns = blockColumns;
    }

    /** The workload's expression on x; returns its check value. */
    abstract double compute(ChunkedArray x);

    /** Whether {@code value}, computed on a rows x columns matrix, is within WORKLOADS.md's tolerance. */
    abstract boolean accepts(double value, long rows, long columns);

    /** Extra parameters for the report (depth, boundary, target chunks). */
    void addParams(Map<String, Object> params) {
    }

    private double computeAt(long rowCount, long columnCount) {
        // Seed 0 as bench_dask.py's RandomState(0); the streams differ anyway, which the statistical checks allow.
        return compute(Creation.random(0, Creation.Distribution.UNIFORM, new long[] {rowCount, columnCount}, ChunkSpec.of(blockRows, blockColumns)));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void warmUp() {
        computeAt(rows / 5, columns / 5);
    }

    @Override
    public Check run() {
        double value = computeAt(rows, columns);
        return new Check(value, accepts(value, rows, columns));
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("shape", rows + "x" + columns);
        params.put("chunks", blockRows + "x" + blockColumns);
        addParams(params);
        params.put("threads", Runtime.getRuntime().availableProcessors());
        return params;
    }
}
