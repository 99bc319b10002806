package org.tessera.graph.schedule;

import static org.tessera.graph.Task.call;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.tessera.graph.Key;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;

/** Graphs the scheduler tests share. */
final class SchedulerFixtures {
    static final TaskFunction SUM = TaskFunction.unary("sum", (List<Long> values) -> values.stream().mapToLong(Long::longValue).sum());
    static final TaskFunction LEAF = TaskFunction.unary("leaf", (Integer block) -> (long) block);

    private SchedulerFixtures() {
    }

    /** N leaves and a tree sum with the given fan-in (as a chunked array's sum builds it). */
    static TaskGraph treeSum(int leaves, int fanIn) {
        TaskGraph.Builder builder = TaskGraph.builder();
        List<Key> level = new ArrayList<>();
        for (int block = 0; block < leaves; block++) {
            Key key = Key.of("leaf", block);
            builder.put(key, call(LEAF, block));
            level.add(key);
        }
        int depth = 0;
        while (level.size() > 1) {
            depth++;
            List<Key> next = new ArrayList<>();
            for (int start = 0; start < level.size(); start += fanIn) {
                Key key = level.size() <= fanIn ? Key.of("total") : Key.of("partial-" + depth, next.size());
                builder.put(key, call(SUM, level.subList(start, Math.min(level.size(), start + fanIn))));
                next.add(key);
            }
            level = next;
        }
        return builder.build();
    }

    /** A random DAG: each key sums a few earlier keys and its own number. */
    static TaskGraph randomDag(long seed, int size) {
        Random random = new Random(seed);
        TaskGraph.Builder builder = TaskGraph.builder();
        for (int number = 0; number < size; number++) {
            List<Object> inputs = new ArrayList<>();
            inputs.add(Long.valueOf(number));
            int reads = number == 0 ? 0 : random.nextInt(Math.min(number, 4) + 1);
            for (int read = 0; read < reads; read++) {
                inputs.add(Key.of("k", random.nextInt(number)));
            }
            builder.put(Key.of("k", number), call(SUM, inputs));
        }
        return builder.build();
    }
}
