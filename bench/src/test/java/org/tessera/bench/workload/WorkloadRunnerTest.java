package org.tessera.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class WorkloadRunnerTest {
    @Test
    void resultsAreTheJsonObjectOfWorkloadsMd() throws Exception {
        Workload fixed = new Workload() {
            @Override
            public String name() {
                return "T1";
            }

            @Override
            public void warmUp() {
            }

            @Override
            public Check run() {
                return new Check(2.5, true);
            }

            @Override
            public Map<String, Object> params() {
                return Map.of("size", 3);
            }
        };
        Map<String, Object> result = WorkloadRunner.measure(fixed, 3);
        assertEquals(List.of("workload", "impl", "seconds", "runs", "peak_rss_bytes", "check", "check_ok", "params", "machine"), List.copyOf(result.keySet()));
        Map<?, ?> machine = (Map<?, ?>) result.get("machine");
        assertEquals(List.of("cpu", "simd", "simd_kernels", "use_avx", "blas", "blas_kernels", "jvm_options", "java_version"), List.copyOf(machine.keySet()));
        assertTrue(machine.get("blas_kernels").toString().length() > 0, machine.toString());
        assertEquals(List.of("arithmetic", "exp_log", "pairwise_sum", "transpose", "uniform", "unshuffle"), List.copyOf(((Map<?, ?>) machine.get("simd_kernels")).keySet()));
        assertEquals(Runtime.version().toString(), machine.get("java_version"));
        assertTrue(machine.get("cpu").toString().length() > 0 && machine.get("jvm_options") instanceof List<?>, machine.toString());
        assertEquals(3, ((List<?>) result.get("runs")).size());
        assertTrue((Long) result.get("peak_rss_bytes") > 0);
        Map<String, Object> sample = new LinkedHashMap<>();
        sample.put("workload", "W\"5");
        sample.put("runs", List.of(1.5, 2.0));
        sample.put("check_ok", true);
        sample.put("params", Map.of("threads", 2));
        assertEquals("{\"workload\": \"W\\\"5\", \"runs\": [1.5, 2.0], \"check_ok\": true, \"params\": {\"threads\": 2}}", WorkloadRunner.toJson(sample));
        assertEquals(2.0, WorkloadRunner.median(List.of(3.0, 1.0, 2.0)));
        assertEquals(1.5, WorkloadRunner.median(List.of(2.0, 1.0)));
    }

    @Test
    void thePeakMemoryIsTheTimedRunsNotThePlanningRunsAfterThem() throws Exception {
        long touched = 256L << 20;
        Workload growingWhenPlanned = new Workload() {
            private int runs;

            @Override
            public String name() {
                return "W0";
            }

            @Override
            public void warmUp() {
            }

            /** The second run, the one planned after the timed run, makes the process resident in 256 MB more. */
            @Override
            public Check run() {
                if (++runs == 2) {
                    try (Arena arena = Arena.ofConfined()) {
                        arena.allocate(touched).fill((byte) 1);
                    }
                }
                return new Check(1.0, true);
            }

            @Override
            public Map<String, Object> params() {
                return Map.of();
            }
        };
        // The high-water mark from here on: earlier tests in this JVM may have held more than the planning run adds.
        Files.writeString(Path.of("/proc/self/clear_refs"), "5");
        Map<String, Object> result = WorkloadRunner.measure(growingWhenPlanned, 1);
        long peakAfterPlanning = ProcessMemory.peakResidentBytes();
        assertTrue((Long) result.get("peak_rss_bytes") <= peakAfterPlanning - touched / 2,
                result.get("peak_rss_bytes") + " bytes reported, " + peakAfterPlanning + " after the planning run");
    }

    @Test
    void theHandMadeBlockSumGraphGivesTwiceTheLength() {
        assertEquals(2.0 * 12_340, BlockSumWorkload.compute(12_340));
    }
}
