package org.tessera.spark.events;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Numbers the core slots of the executors as the workers of the task events. Spark does not say
 * which core a task occupies, so a task takes the lowest free slot of its executor: concurrent
 * tasks of one executor get distinct workers, and a lightly loaded executor shows as its first
 * slots. Executors met later (dynamic allocation, a replaced executor) get numbers after the
 * others. Not thread-safe, except {@link #names()}, which others read while it grows.
 */
final class WorkerSlots {
    private final int coresPerTask;
    private final List<String> names = new CopyOnWriteArrayList<>();
    private final Map<String, List<Integer>> workers = new HashMap<>();
    private final Map<String, Integer> capacity = new HashMap<>();
    private final Map<String, BitSet> busy = new HashMap<>();

    /** A slot of an executor, and its worker number. */
    record Slot(String executor, int index, int worker) {
    }

    /** @param coresPerTask Spark's {@code spark.task.cpus}: an executor runs cores / coresPerTask tasks at once */
    WorkerSlots(int coresPerTask) {
        this.coresPerTask = coresPerTask;
    }

    /** Names the slots of an executor that has {@code cores} cores, unless it was added before. */
    void addExecutor(String executor, int cores) {
        int slots = Math.max(1, cores / coresPerTask);
        if (capacity.putIfAbsent(executor, slots) == null) {
            for (int slot = 0; slot < slots; slot++) {
                worker(executor, slot);
            }
        }
    }

    /** Worker {@code i}'s name is element {@code i}; a view that grows as executors appear. */
    List<String> names() {
        return Collections.unmodifiableList(names);
    }

    /** The lowest free slot of {@code executor}, or null if all its slots are taken (an executor of unknown cores has no limit). */
    Slot take(String executor) {
        BitSet taken = busy.computeIfAbsent(executor, unused -> new BitSet());
        int slot = taken.nextClearBit(0);
        if (slot >= capacity.getOrDefault(executor, Integer.MAX_VALUE)) {
            return null;
        }
        taken.set(slot);
        return new Slot(executor, slot, worker(executor, slot));
    }

    void free(Slot slot) {
        busy.get(slot.executor()).clear(slot.index());
    }

    private int worker(String executor, int slot) {
        List<Integer> numbers = workers.computeIfAbsent(executor, unused -> new ArrayList<>());
        while (numbers.size() <= slot) {
            numbers.add(names.size());
            names.add("executor " + executor + " slot " + (numbers.size() - 1));
        }
        return numbers.get(slot);
    }
}
