package org.tessera.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class StoredFftWorkloadTest {
    /** F1's whole path (store, two passes through an intermediate store, Parseval and the direct row) on 512 x 512. */
    @Test
    void aSmallF1PassesItsChecks() throws Exception {
        StoredFftWorkload workload = new StoredFftWorkload(512, 64, 512 * 16 * 16, new long[] {64, 16});
        workload.warmUp();
        Workload.Check check = workload.run();
        assertTrue(check.ok(), "check " + check.value());
        List<?> errors = (List<?>) check.value();
        assertTrue((Double) errors.get(0) < 1e-12 && (Double) errors.get(1) < 1e-12, errors.toString());
        Map<String, Object> params = workload.params();
        assertEquals("512x512", params.get("shape"));
        assertEquals(2, ((List<?>) params.get("passes")).size());
        assertTrue((Double) params.get("fft2_seconds") > 0, params.toString());
    }
}
