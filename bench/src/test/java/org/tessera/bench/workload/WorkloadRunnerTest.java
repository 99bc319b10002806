package org.tessera.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertEquals(List.of("arithmetic", "exp_log", "pairwise_sum", "uniform"), List.copyOf(((Map<?, ?>) machine.get("simd_kernels")).keySet()));
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
    void theHandMadeBlockSumGraphGivesTwiceTheLength() {
        assertEquals(2.0 * 12_340, BlockSumWorkload.compute(12_340));
    }
}
