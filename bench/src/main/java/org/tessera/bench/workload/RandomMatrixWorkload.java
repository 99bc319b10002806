package org.tessera.bench.workload;

import java.util.LinkedHashMap;
import java.util.Map;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;

/**
 * The chunked workloads over one matrix x uniform in [0, 1) (W1, W2, W4, W6, W7, W8): the warm-up
 * runs the same expression on a matrix one fifth as long on each side, in as many blocks each a
 * fifth as long, and the check compares the value with what the uniform distribution makes of it.
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

    /**
     * The input of the timed run, or of the warm-up: the workload at a fifth of the side, on the
     * same grid of blocks a fifth of the side.
     */
    ChunkedArray input(boolean warmUp) {
        long scale = warmUp ? WARM_UP_SCALE : 1;
        // Seed 0 as bench_dask.py's RandomState(0); the streams differ anyway, which the statistical checks allow.
        return Creation.random(0, Creation.Distribution.UNIFORM, new long[] {rows / scale, columns / scale},
                ChunkSpec.of(Math.max(1, blockRows / scale), Math.max(1, blockColumns / scale)));
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * The workload on {@link #input(boolean) the warm-up's input}: the graph of the timed run (its
     * layers, the tasks of each, the groups of a product or a tree) over small blocks, so that the
     * paths compiled are the run's. With the timed run's blocks, a fifth of the side made a grid of
     * 2 x 2 blocks or fewer, whose paths are not all the run's (W2's product of two blocks took the
     * general contraction, not the grouped one): the first timed runs of W2 and W6 took 15 and 30 %
     * longer, compiling what the warm-up had not.
     */
    @Override
    public void warmUp() {
        compute(input(true));
    }

    /** How many times smaller the warm-up's side and blocks are. */
    static final long WARM_UP_SCALE = 5;

    @Override
    public Check run() {
        double value = compute(input(false));
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
