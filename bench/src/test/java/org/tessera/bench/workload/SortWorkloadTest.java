package org.tessera.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class SortWorkloadTest {
    /** S1's whole path (the input store, the out-of-core sort into a new store, the check over it) on 2^16 values in chunks of 2^13. */
    @Test
    void aSmallS1PassesItsCheck() throws Exception {
        SortWorkload workload = new SortWorkload(1L << 16, 1L << 13);
        try {
            workload.warmUp();
            Workload.Check check = workload.run();
            assertTrue(check.ok(), "check " + check.value());
            Map<?, ?> value = (Map<?, ?>) check.value();
            assertEquals(true, value.get("non_decreasing"));
            assertEquals(1L << 16, value.get("length"));
            Map<String, Object> figures = workload.figures();
            assertEquals(1, ((List<?>) figures.get("runs")).size());
            assertTrue((Double) figures.get("seconds") > 0, figures.toString());
            assertEquals(1L << 11, workload.params().get("output_chunks"));
        } finally {
            workload.close();
        }
    }
}
