package org.tessera.bench.workload;

import java.util.Map;

/**
 * One workload of bench/WORKLOADS.md. {@link #run()} is the timed part; the runner calls
 * {@link #warmUp()} first so that JIT compilation is not what gets measured.
 */
public interface Workload {

    /** Its name in WORKLOADS.md, e.g. "W5". */
    String name();

    /** Runs a smaller instance once, untimed. */
    void warmUp() throws Exception;

    /** Runs the workload once and returns its check. */
    Check run() throws Exception;

    /** The parameters reported with the result (sizes, chunks, threads). */
    Map<String, Object> params();

    /** Floating-point operations of one run, where WORKLOADS.md asks for GFLOP/s (N5); 0 otherwise. */
    default double flops() {
        return 0;
    }

    /** The check value of a run and whether it is within WORKLOADS.md's tolerance. */
    record Check(Object value, boolean ok) {
    }
}
