package org.tessera.graph.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.graph.Task.call;
import static org.tessera.graph.Task.ref;

import java.io.Serial;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.tessera.graph.Key;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;

/** The threaded scheduler hints the tasks without inputs that come next, a bounded number ahead. */
class ReadAheadTest {
    /** What the reads saw: hinted keys, and how many hinted reads had not started, at most. */
    private static final Set<Long> HINTED = ConcurrentHashMap.newKeySet();
    private static final Set<Long> READ_AFTER_HINT = ConcurrentHashMap.newKeySet();
    private static final Set<Object> HINTED_WITH_UNKNOWN_ARGUMENTS = ConcurrentHashMap.newKeySet();
    private static final AtomicInteger WAITING = new AtomicInteger();
    private static final AtomicInteger MOST_WAITING = new AtomicInteger();
    private static final AtomicInteger HINTS = new AtomicInteger();

    /** A read of block {@code i} that takes a while, as a request does. */
    private record SlowRead() implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) throws InterruptedException {
            long block = (Long) arguments.getFirst();
            if (HINTED.contains(block)) {
                READ_AFTER_HINT.add(block);
                WAITING.decrementAndGet();
            }
            Thread.sleep(2);
            return block;
        }

        @Override
        public boolean prefetches() {
            return true;
        }

        @Override
        public void prefetch(List<Object> arguments) {
            HINTS.incrementAndGet();
            if (!(arguments.getFirst() instanceof Long block)) {
                HINTED_WITH_UNKNOWN_ARGUMENTS.add(String.valueOf(arguments.getFirst()));
                return;
            }
            HINTED.add(block);
            MOST_WAITING.accumulateAndGet(WAITING.incrementAndGet(), Math::max);
        }
    }

    private static final TaskFunction SUM = TaskFunction.binary("sum", (Long a, Long b) -> a + b);

    @Test
    void readsAreHintedAheadInOrderAndNoMoreThanTheWindowWait() {
        int blocks = 60;
        TaskGraph.Builder graph = TaskGraph.builder();
        for (long block = 0; block < blocks; block++) {
            graph.put(Key.of("read", (int) block), call(new SlowRead(), block));
        }
        // A tree of sums over the reads: tasks with inputs, which are never hinted.
        int level = 0;
        int width = blocks;
        String name = "read";
        while (width > 1) {
            String next = "sum" + level++;
            for (int i = 0; i < width / 2; i++) {
                graph.put(Key.of(next, i), call(SUM, ref(Key.of(name, 2 * i)), ref(Key.of(name, 2 * i + 1))));
            }
            if (width % 2 == 1) {
                graph.put(Key.of(next, width / 2), call(SUM, ref(Key.of(name, width - 1)), ref(Key.of(name, width - 2))));
            }
            width = (width + 1) / 2;
            name = next;
        }
        ThreadedScheduler scheduler = ThreadedScheduler.builder().workers(2).build();
        Object total = scheduler.get(graph.build(), Key.of(name, 0));
        assertTrue(((Long) total) >= (long) blocks * (blocks - 1) / 2, "the sum ran: " + total);

        assertTrue(HINTED_WITH_UNKNOWN_ARGUMENTS.isEmpty(), "only tasks whose arguments are known are hinted: " + HINTED_WITH_UNKNOWN_ARGUMENTS);
        assertEquals(HINTS.get(), HINTED.size(), "no read is hinted twice");
        assertTrue(HINTED.size() >= blocks - 2, "all but the reads that start at once are hinted: " + HINTED.size() + " of " + blocks);
        assertEquals(HINTED, READ_AFTER_HINT, "every hinted read ran after its hint");
        // The window is max(4, 2 x workers) hinted tasks not yet taken by a worker; a read counts here until
        // it runs, so a task each worker has taken and not yet begun, and one more in flight, add to it.
        assertTrue(MOST_WAITING.get() <= 4 + 2 * 2 && MOST_WAITING.get() >= 2,
                "a bounded number of hinted reads wait to run, and read-ahead happens: " + MOST_WAITING.get());
    }
}
