package org.tessera.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.graph.schedule.ThreadedScheduler;

class SchedulersTest {
    @Test
    void namesGiveTheirSchedulers() {
        assertInstanceOf(ThreadedScheduler.class, Schedulers.named("threads"));
        assertInstanceOf(SynchronousScheduler.class, Schedulers.named("sync"));
        Schedulers.requireAvailable("threads");
        Schedulers.requireAvailable("sync");
    }

    @Test
    void anUnknownNameListsTheKnownOnes() {
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () -> Schedulers.named("dask"));
        assertEquals("unknown scheduler 'dask'; expected one of threads, sync, spark", thrown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Schedulers.requireAvailable("Threads"));
    }

    @Test
    void sparkIsLookedUpAtRunTime() {
        boolean present;
        try {
            Class.forName("org.tessera.spark.SparkScheduler");
            present = true;
        } catch (ClassNotFoundException absent) {
            present = false;
        }
        if (present) {
            Schedulers.requireAvailable("spark");
            return;
        }
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> Schedulers.requireAvailable("spark"));
        assertTrue(thrown.getMessage().startsWith("the spark module is not on the class path (org.tessera.spark.SparkScheduler not found)"), thrown.getMessage());
        assertThrows(IllegalStateException.class, () -> Schedulers.named("spark"));
    }
}
