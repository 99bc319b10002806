package org.tessera.bench.workload;

import java.util.Map;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;

/**
 * W4: {@code x.rechunk((250, 16000)).sum()} for x uniform [0, 1) of 16000 x 16000 in 16000 x 250
 * blocks: columns to rows, so every new block takes a piece of every old one.
 */
final class RechunkSumWorkload extends RandomMatrixWorkload {
    private static final long STRIP = 250;

    RechunkSumWorkload() {
        super("W4", 16_000, 16_000, 16_000, STRIP);
    }

    /** The sum over the number of elements, bench_dask.py's check value. */
    @Override
    double compute(ChunkedArray x) {
        // -1 (the whole axis) rather than 16000 so that the warm-up's smaller matrix gets whole rows too.
        double sum = x.rechunk(ChunkSpec.of(STRIP, -1)).sum().compute().getDouble();
        return sum / ((double) x.shape(0) * x.shape(1));
    }

    @Override
    boolean accepts(double value, long rows, long columns) {
        return Math.abs(value - 0.5) < 1e-3;
    }

    @Override
    void addParams(Map<String, Object> params) {
        params.put("rechunk_to", STRIP + "x-1");
    }
}
