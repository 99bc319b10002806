package org.tessera.graph.schedule;

import java.nio.file.Path;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.LongSupplier;

import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.memory.AllocationMeter;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.memory.ResultRecycler;
import org.tessera.graph.memory.SizeOf;
import org.tessera.graph.memory.SpillStore;
import org.tessera.graph.order.OrderedGraph;

/**
 * One computation of the {@link ThreadedScheduler}. Tasks are numbered in static priority order, so
 * the ready queue is a heap of ints and the bookkeeping arrays are indexed by task number. All state
 * changes happen under one lock; tasks run outside it.
 */
final class Execution {
    private static final int NOT_NEEDED = Integer.MAX_VALUE;
    private static final ResultRecycler RECYCLER = ResultRecycler.find();
    /** Beyond this many results in memory, a dropped one is left to the collector: each offer walks them all. */
    private static final int MOST_HELD_TO_RECYCLE = 4096;

    private final List<Callback> callbacks;
    private final int workerCount;
    private final MemoryBudget budget;
    private final long budgetBytes;
    private final boolean budgeted;
    private final Path spillDirectory;

    private final TaskGraph graph;
    private final int[] outputNumbers;
    private final Key[] keys;
    private final Task[] tasks;
    private final int[][] inputs;
    private final int[][] readers;
    private final int[] inputsLeft;
    private final int[] readersLeft;
    private final boolean[] started;
    /** Tasks given a read-ahead hint (see {@link #readAhead}) that have not started when it was given. */
    private final boolean[] hinted;
    /** Read-ahead: how many tasks without inputs may be hinted and not yet started, the next number to consider, and how many are. */
    private final int readAheadWindow;
    private int readAheadCursor;
    private int readAheadPending;
    private final boolean[] isOutput;
    /** Where outputs go as they finish, or null to hold them all until the end. */
    private final OutputSink sink;
    /** What the sink holds for the outputs from the start ({@link OutputSink#heldBytes}), counted in the measured peak. */
    private final long sinkBytes;
    /**
     * Outputs the sink took (it keeps a copy): released like any result once no task reads them.
     * Set by the worker that ran the task before it completes it under the lock.
     */
    private final boolean[] taken;
    private final Object[] results;
    private final long[] sizes;
    private final int[] pins;
    private final BitSet inMemory = new BitSet();
    private final BitSet spilled = new BitSet();

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled, one worker at a time, when the ready queue has a task for a waiting worker. */
    private final Condition workReady = lock.newCondition();
    /** Signalled when the computation stops (finished, failed or cancelled). */
    private final Condition stopped = lock.newCondition();
    private final IntHeap ready = new IntHeap();
    private int finished;
    private boolean stopping;
    private Throwable failure;
    private int failedTask = -1;

    private long bytesInMemory;
    private long peakBytes;
    private long largestResult;
    private int liveResults;
    private int peakLiveResults;
    private SpillStore spillStore;

    /**
     * The measured side of a memory plan: each worker's allocation meter, what it read when the
     * worker took its current tasks, and whether it runs tasks now (all under the lock). The
     * computation holds, at a moment, its results in memory, what each running task has allocated
     * so far and what the sink holds; {@link #measuredPeak} is the most of that seen when a worker
     * completes.
     */
    private final LongSupplier[] meters;
    private final long[] meterAtStart;
    private final boolean[] running;
    private long measuredPeak;

    Execution(TaskGraph fullGraph, Collection<Key> requested, int workerCount, MemoryBudget budget, Path spillDirectory, List<Callback> callbacks,
            OutputSink sink) {
        OrderedGraph ordered = OrderedGraph.of(fullGraph, requested);
        this.graph = fullGraph;
        this.callbacks = callbacks;
        this.workerCount = workerCount;
        this.budget = budget;
        this.budgetBytes = budget.bytes();
        this.budgeted = !budget.isUnlimited();
        this.spillDirectory = spillDirectory;

        keys = ordered.keys();
        tasks = ordered.tasks();
        inputs = ordered.inputs();
        outputNumbers = ordered.outputs();
        int count = keys.length;
        readers = ordered.readers();
        inputsLeft = new int[count];
        readersLeft = new int[count];
        for (int number = 0; number < count; number++) {
            inputsLeft[number] = inputs[number].length;
            readersLeft[number] = readers[number].length;
        }
        started = new boolean[count];
        hinted = new boolean[count];
        readAheadWindow = Math.max(4, 2 * workerCount);
        isOutput = new boolean[count];
        for (int output : outputNumbers) {
            isOutput[output] = true;
        }
        this.sink = sink;
        this.sinkBytes = sink == null ? 0 : sink.heldBytes();
        taken = new boolean[count];
        results = new Object[count];
        sizes = new long[count];
        pins = new int[count];
        meters = new LongSupplier[workerCount];
        meterAtStart = new long[workerCount];
        running = new boolean[workerCount];
    }

    Computation run() {
        int threads = Math.min(workerCount, Math.max(1, keys.length));
        if (!callbacks.isEmpty()) {
            TaskGraph scheduled = keys.length == graph.size() ? graph : scheduledTasks();
            List<String> workerNames = java.util.stream.IntStream.range(0, threads).mapToObj(Execution::threadName).toList();
            callbacks.forEach(callback -> callback.configured(workerNames, budget));
            callbacks.forEach(callback -> callback.start(scheduled));
        }
        for (int number = 0; number < keys.length; number++) {
            if (inputsLeft[number] == 0) {
                ready.add(number);
            }
        }
        if (keys.length == 0) {
            stopping = true;
        }
        Thread[] workers = new Thread[threads];
        for (int worker = 0; worker < threads; worker++) {
            int workerNumber = worker;
            workers[worker] = Thread.ofPlatform().daemon().name(threadName(worker)).start(() -> work(workerNumber));
        }
        boolean interrupted = awaitEnd();
        if (interrupted || failure != null) {
            for (Thread worker : workers) {
                worker.interrupt();
            }
        }
        joinAll(workers);
        try {
            if (interrupted) {
                callbacks.forEach(callback -> callback.finish(false));
                Thread.currentThread().interrupt();
                throw new CancellationException("the computation of " + outputKeys() + " was cancelled by an interrupt after " + finished + " of " + keys.length + " tasks");
            }
            if (failure != null) {
                callbacks.forEach(callback -> callback.finish(false));
                throw new TaskFailedException(keys[failedTask], tasks[failedTask].label(), failure);
            }
            Map<Key, Object> values = new LinkedHashMap<>();
            for (int number : outputNumbers) {
                if (!taken[number]) {
                    values.put(keys[number], spilled.get(number) ? spillStore.take(keys[number]) : results[number]);
                }
            }
            int spills = spillStore == null ? 0 : spillStore.spillCount();
            long spillBytes = spillStore == null ? 0 : spillStore.bytesWritten();
            ExecutionStatistics statistics = new ExecutionStatistics(finished, peakLiveResults, peakBytes, spills, spillBytes, measuredPeak);
            callbacks.forEach(callback -> callback.statistics(statistics));
            callbacks.forEach(callback -> callback.finish(true));
            return new Computation(values, statistics);
        } finally {
            if (spillStore != null) {
                spillStore.close();
            }
        }
    }

    private static String threadName(int worker) {
        return "tessera-worker-" + worker;
    }

    private List<Key> outputKeys() {
        return java.util.Arrays.stream(outputNumbers).mapToObj(number -> keys[number]).toList();
    }

    private TaskGraph scheduledTasks() {
        Map<Key, Task> scheduled = LinkedHashMap.newLinkedHashMap(keys.length);
        for (int number = 0; number < keys.length; number++) {
            scheduled.put(keys[number], tasks[number]);
        }
        return TaskGraph.of(scheduled);
    }

    /** Waits for the end; true if the calling thread was interrupted first. */
    private boolean awaitEnd() {
        lock.lock();
        try {
            while (!stopping) {
                stopped.await();
            }
            return false;
        } catch (InterruptedException interrupt) {
            signalStop();
            return true;
        } finally {
            lock.unlock();
        }
    }

    private static void joinAll(Thread[] workers) {
        boolean interrupted = false;
        for (Thread worker : workers) {
            while (true) {
                try {
                    worker.join();
                    break;
                } catch (InterruptedException again) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Tasks quicker than this, on average, are taken several at a time. */
    private static final long TINY_TASK_NANOS = 20_000;
    /** The most tasks a worker takes in one lock round. */
    private static final int MAX_BATCH = 8;

    /**
     * A worker's loop. Completing tasks and taking the next ones happen in one critical section, and
     * a worker wakes one other worker only when it leaves tasks in the queue. While its tasks take
     * less than {@link #TINY_TASK_NANOS} each, a worker takes up to {@link #MAX_BATCH} of them per
     * lock round (never more than its share of the queue): a graph of 100,000 tiny blocks then
     * costs a few thousand lock rounds instead of 100,000, each of which may park a thread. A slower
     * task turns batching off again, so large blocks are never held back waiting for a batch; under
     * a memory budget tasks are always taken one at a time, since the budget counts only completed
     * results.
     */
    private void work(int worker) {
        int[] batch = new int[MAX_BATCH];
        Object[][] batchValues = new Object[MAX_BATCH][];
        Object[] batchResults = new Object[MAX_BATCH];
        int batchSize = 0;
        int batchLimit = 1;
        int lastRun = -1;
        LongSupplier meter = AllocationMeter.find().ofCurrentThread();
        // Read by other workers only while this one runs tasks, which it first marks under the lock below.
        meters[worker] = meter;
        while (true) {
            lock.lock();
            int number = -1;
            try {
                if (batchSize > 0) {
                    measureHeld(worker);
                }
                running[worker] = false;
                for (int position = 0; position < batchSize; position++) {
                    number = batch[position];
                    complete(number, batchResults[position]);
                    batchResults[position] = null;
                    batchValues[position] = null;
                }
                batchSize = 0;
                while (ready.isEmpty() && !stopping) {
                    workReady.await();
                }
                if (stopping) {
                    return;
                }
                if (!ready.isEmpty() && lastRun >= 0 && !sameLayer(ready.peek(), lastRun)) {
                    // Another layer's tasks may take longer: batches start again from one.
                    batchLimit = 1;
                }
                int take = budgeted ? 1 : Math.min(batchLimit, Math.max(1, ready.size() / workerCount));
                while (batchSize < take && !ready.isEmpty() && (batchSize == 0 || sameLayer(ready.peek(), batch[0]))) {
                    number = ready.poll();
                    started[number] = true;
                    if (hinted[number]) {
                        readAheadPending--;
                    }
                    batch[batchSize] = number;
                    batchValues[batchSize] = claimInputs(number);
                    batchSize++;
                    lastRun = number;
                }
                running[worker] = true;
                meterAtStart[worker] = meter.getAsLong();
                readAhead();
                if (!ready.isEmpty()) {
                    workReady.signal();
                }
            } catch (InterruptedException interrupt) {
                return;
            } catch (RuntimeException spillFailure) {
                stopWith(number, spillFailure);
                return;
            } finally {
                lock.unlock();
            }
            long start = System.nanoTime();
            for (int position = 0; position < batchSize; position++) {
                number = batch[position];
                Key key = keys[number];
                for (Callback callback : callbacks) {
                    callback.beforeTask(key, worker);
                }
                try {
                    batchResults[position] = tasks[number].evaluate(lookup(number, batchValues[position]));
                    if (sink != null && isOutput[number]) {
                        taken[number] = !sink.take(key, batchResults[position]);
                    }
                } catch (Throwable thrown) {
                    for (Callback callback : callbacks) {
                        callback.afterTask(key, worker, thrown);
                    }
                    lock.lock();
                    try {
                        stopWith(number, thrown);
                    } finally {
                        lock.unlock();
                    }
                    return;
                }
                for (Callback callback : callbacks) {
                    callback.afterTask(key, worker, null);
                }
            }
            boolean tiny = System.nanoTime() - start < TINY_TASK_NANOS * batchSize;
            batchLimit = tiny ? Math.min(MAX_BATCH, batchLimit * 2) : 1;
        }
    }

    /**
     * Whether two tasks are of one layer (their keys share a name). A batch stays within the layer
     * of the worker's last tasks, whose speed made it a batch: tasks of one layer take about as long
     * as each other, so a batch taken after tiny tasks holds no large one (a memory plan runs small
     * tasks in batches, and large ones alone).
     */
    private boolean sameLayer(int one, int other) {
        return keys[one].name().equals(keys[other].name());
    }

    /**
     * Under the lock: hints the tasks that will run soon ({@link Task#prefetch()}), so that a remote
     * store fetches their chunks while the workers compute: the next tasks without inputs in the
     * static order, the only ones whose arguments are known before they run, so that at most
     * {@link #readAheadWindow} hinted tasks wait to start. Tasks without inputs become ready at once
     * and the ready queue takes the lowest number first, so they start in this order too. Hinting
     * under the lock means no worker can start a task before its hint is given (the read would
     * then fetch it a second time); a hint only starts a request, so it is brief. The cursor only
     * moves forward: the whole computation walks the tasks once.
     */
    private void readAhead() {
        while (readAheadPending < readAheadWindow && readAheadCursor < tasks.length) {
            int candidate = readAheadCursor++;
            if (!started[candidate] && inputs[candidate].length == 0) {
                hinted[candidate] = true;
                readAheadPending++;
                try {
                    tasks[candidate].prefetch();
                } catch (RuntimeException ignored) {
                    // A hint only: the task reads for itself when it runs, and reports what fails.
                }
            }
        }
    }

    /** Under the lock: records the first failure (unless the computation is already ending) and stops. */
    private void stopWith(int number, Throwable thrown) {
        if (failure == null && !stopping) {
            failure = thrown;
            failedTask = Math.max(number, 0);
        }
        signalStop();
    }

    /** Under the lock: ends the computation and wakes every waiting worker and the caller. */
    private void signalStop() {
        stopping = true;
        workReady.signalAll();
        stopped.signalAll();
    }

    private Function<Key, Object> lookup(int number, Object[] values) {
        int[] reads = inputs[number];
        if (reads.length <= 8) {
            return key -> {
                for (int position = 0; position < reads.length; position++) {
                    if (keys[reads[position]].equals(key)) {
                        return values[position];
                    }
                }
                throw new IllegalStateException("task " + keys[number] + " read " + key + ", which is not among its inputs");
            };
        }
        Map<Key, Object> byKey = HashMap.newHashMap(reads.length);
        for (int position = 0; position < reads.length; position++) {
            byKey.put(keys[reads[position]], values[position]);
        }
        return byKey::get;
    }

    /** Under the lock: brings spilled inputs back, pins every input, and returns their values. */
    private Object[] claimInputs(int number) {
        int[] reads = inputs[number];
        if (budgeted) {
            long incoming = 0;
            for (int input : reads) {
                pins[input]++;
                if (spilled.get(input)) {
                    incoming += sizes[input];
                }
            }
            if (incoming > 0) {
                spillUntil(target() - incoming);
                for (int input : reads) {
                    if (spilled.get(input)) {
                        results[input] = spillStore.take(keys[input]);
                        spilled.clear(input);
                        inMemory.set(input);
                        bytesInMemory += sizes[input];
                    }
                }
                peakBytes = Math.max(peakBytes, bytesInMemory);
                reportHeld();
            }
        }
        Object[] values = new Object[reads.length];
        for (int position = 0; position < reads.length; position++) {
            values[position] = results[reads[position]];
        }
        return values;
    }

    /**
     * Under the lock, when {@code worker} has finished its tasks and before their results are
     * stored: the results in memory now, with its tasks' results and temporaries as it allocated
     * them, and what every other running task has allocated so far.
     */
    private void measureHeld(int worker) {
        long held = bytesInMemory + sinkBytes;
        for (int other = 0; other < running.length; other++) {
            if (running[other] || other == worker) {
                held += meters[other].getAsLong() - meterAtStart[other];
            }
        }
        measuredPeak = Math.max(measuredPeak, held);
    }

    /** Under the lock: stores a result, releases inputs no one else reads, and readies readers. */
    private void complete(int number, Object result) {
        results[number] = result;
        liveResults++;
        peakLiveResults = Math.max(peakLiveResults, liveResults);
        long size = SizeOf.estimate(result);
        sizes[number] = size;
        largestResult = Math.max(largestResult, size);
        inMemory.set(number);
        bytesInMemory += size;
        peakBytes = Math.max(peakBytes, bytesInMemory);
        reportHeld();
        for (int input : inputs[number]) {
            if (budgeted) {
                pins[input]--;
            }
            if (--readersLeft[input] == 0 && (!isOutput[input] || taken[input])) {
                release(input);
            }
        }
        for (int reader : readers[number]) {
            if (--inputsLeft[reader] == 0) {
                ready.add(reader);
            }
        }
        if (taken[number] && readersLeft[number] == 0) {
            release(number);
        }
        finished++;
        if (budgeted) {
            spillUntil(target());
        }
        reportHeld();
        if (finished == keys.length) {
            signalStop();
        }
    }

    /** Under the lock: tells the callbacks the bytes and results held now, at every point the peak may have moved. */
    private void reportHeld() {
        for (Callback callback : callbacks) {
            callback.resultsHeld(bytesInMemory, liveResults);
        }
    }

    private void release(int number) {
        Object dropped = results[number];
        results[number] = null;
        liveResults--;
        if (dropped != null && liveResults <= MOST_HELD_TO_RECYCLE && RECYCLER.recyclable(dropped)) {
            RECYCLER.recycle(dropped, heldResults());
        }
        if (spilled.get(number)) {
            spilled.clear(number);
            spillStore.discard(keys[number]);
        } else if (inMemory.get(number)) {
            inMemory.clear(number);
            bytesInMemory -= sizes[number];
        }
    }

    /** Under the lock: the results in memory now (the outputs finished so far, and the inputs of tasks running or yet to run). */
    private Iterable<Object> heldResults() {
        return () -> inMemory.stream().mapToObj(number -> results[number]).filter(java.util.Objects::nonNull).iterator();
    }

    /** Bytes of results allowed to sit in memory, leaving room for every worker's next result. */
    private long target() {
        return budgetBytes - workerCount * largestResult;
    }

    /**
     * Spills the unpinned results needed latest until at most {@code limit} bytes stay in memory:
     * those are the ones whose next reader comes last in the static order (or that only wait to be
     * returned).
     */
    private void spillUntil(long limit) {
        while (bytesInMemory > limit) {
            int victim = -1;
            int victimNextUse = -1;
            for (int number = inMemory.nextSetBit(0); number >= 0; number = inMemory.nextSetBit(number + 1)) {
                if (pins[number] > 0) {
                    continue;
                }
                int nextUse = nextUse(number);
                if (nextUse > victimNextUse) {
                    victim = number;
                    victimNextUse = nextUse;
                }
            }
            if (victim < 0) {
                return;
            }
            if (spillStore == null) {
                spillStore = SpillStore.create(spillDirectory);
            }
            long written = spillStore.write(keys[victim], results[victim]);
            for (Callback callback : callbacks) {
                callback.spilled(keys[victim], written);
            }
            results[victim] = null;
            inMemory.clear(victim);
            spilled.set(victim);
            bytesInMemory -= sizes[victim];
        }
    }

    private int nextUse(int number) {
        int next = NOT_NEEDED;
        for (int reader : readers[number]) {
            if (!started[reader]) {
                next = Math.min(next, reader);
            }
        }
        return next;
    }
}
