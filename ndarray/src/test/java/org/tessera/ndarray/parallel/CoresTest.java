package org.tessera.ndarray.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class CoresTest {
    @Test
    void rangesCoverEveryElementOnceOnThePoolsThreads() {
        long count = Cores.SPLIT_ELEMENTS * 3 + 77;
        AtomicIntegerArray seen = new AtomicIntegerArray((int) (count / 64 + 1));
        AtomicLong covered = new AtomicLong();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        Cores.forRanges(count, (from, to) -> {
            assertTrue(from < to && from % 64 == 0, "range [" + from + ", " + to + ")");
            for (long i = from; i < to; i += 64) {
                seen.incrementAndGet((int) (i / 64));
            }
            covered.addAndGet(to - from);
            threads.add(Thread.currentThread().getName());
        });
        assertEquals(count, covered.get());
        for (int i = 0; i < seen.length(); i++) {
            assertEquals(1, seen.get(i), "elements " + i * 64L + ".. were visited " + seen.get(i) + " times");
        }
        if (Cores.threads() > 1) {
            assertTrue(threads.stream().allMatch(name -> name.startsWith("tessera-kernel-")), "ran on " + threads);
        }
    }

    @Test
    void rangesRunAtOnce() throws InterruptedException {
        // Each range waits for a second one to start: they finish only if two run at the same time.
        int together = Math.min(2, Cores.threads());
        CountDownLatch started = new CountDownLatch(together);
        Cores.forRanges(Cores.SPLIT_ELEMENTS * 2, (from, to) -> {
            started.countDown();
            try {
                assertTrue(started.await(30, TimeUnit.SECONDS), "no other range ran beside [" + from + ", " + to + ")");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertEquals(0, started.getCount());
    }

    @Test
    void anOperationBelowTheSplitRunsWholeOnItsCaller() {
        long count = Cores.SPLIT_ELEMENTS - 1;
        Thread caller = Thread.currentThread();
        AtomicLong calls = new AtomicLong();
        Cores.forRanges(count, (from, to) -> {
            assertEquals(0, from);
            assertEquals(count, to);
            assertEquals(caller, Thread.currentThread());
            calls.incrementAndGet();
        });
        assertEquals(1, calls.get());
        assertTrue(!Cores.splits(count) && Cores.splits(Cores.SPLIT_ELEMENTS) == Cores.threads() > 1);
    }

    @Test
    void aSumAddsItsHalvesInOrder() {
        // 1e16 + 1 + -1e16: left to right the 1 is lost, so the order of the addition shows.
        assertEquals(0.0, Cores.sum(() -> 1e16 + 1, () -> -1e16));
        assertEquals(1e16 + 1 + -1e16, Cores.sum(() -> 1e16 + 1, () -> -1e16));
    }

    @Test
    void aFailureInARangeReachesTheCaller() {
        IllegalStateException failure = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> Cores.forRanges(Cores.SPLIT_ELEMENTS * 2, (from, to) -> {
                    if (from > 0) {
                        throw new IllegalStateException("range from " + from);
                    }
                }));
        assertTrue(failure.getMessage().contains("range from"), failure.getMessage());
    }
}
