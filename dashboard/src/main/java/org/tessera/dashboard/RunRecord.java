package org.tessera.dashboard;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.metrics.StoreTraffic;
import org.tessera.graph.render.JsonStrings;

/**
 * What the dashboard knows of the computations it watched: layers with their task counts, every
 * task that ran (worker row, layer, start, end), the tasks running now, and samples of memory and
 * store traffic over time. Computations watched one after another accumulate, as the progress bars
 * of Dask's dashboard do.
 *
 * <p>Task events come from the scheduler's workers and take this object's lock briefly; the memory
 * figures come from inside the scheduler's own lock, so they are plain volatile writes that never
 * wait for this lock. Readers copy what they need under the lock and format it outside.
 */
final class RunRecord {
    /** Times are microseconds since this record was made. */
    private final long originNanos = System.nanoTime();
    private final long originRead = StoreTraffic.bytesRead();
    private final long originWritten = StoreTraffic.bytesWritten();

    // Worker rows: a scheduler's worker numbers map to rows by name, so a second computation on
    // threads of the same names draws on the same rows.
    private final List<String> rows = new ArrayList<>();
    private final Map<String, Integer> rowByName = new HashMap<>();
    private int[] rowOfWorker = new int[0];
    private int[] runningLayer = new int[0];
    private long[] runningSince = new long[0];

    private final List<String> layers = new ArrayList<>();
    private final Map<String, Integer> layerByName = new HashMap<>();
    private final Map<String, Integer> layerOfKeyName = new HashMap<>();
    private long[] layerTotal = new long[4];
    private long[] layerDone = new long[4];
    private long[] layerFailed = new long[4];

    private final Table tasks = new Table();
    private final Table samples = new Table();

    private int computations;
    private int running;
    private long firstStart = -1;
    private long lastFinish;
    private boolean anyFailed;
    private long budget = -1;

    private volatile long heldBytes;
    private volatile int liveResults;
    private volatile long peakHeldBytes;
    private volatile int spills;
    private volatile long spilledBytes;

    long now() {
        return (System.nanoTime() - originNanos) / 1000;
    }

    synchronized void configured(List<String> workers, MemoryBudget memoryBudget) {
        rowOfWorker = new int[workers.size()];
        for (int worker = 0; worker < workers.size(); worker++) {
            rowOfWorker[worker] = row(workers.get(worker));
        }
        budget = memoryBudget.isUnlimited() ? -1 : memoryBudget.bytes();
    }

    synchronized void start(TaskGraph graph) {
        computations++;
        running++;
        if (firstStart < 0) {
            firstStart = now();
        }
        for (Key key : graph.keys()) {
            // Not layerTotal[layerOf(key)]++: the array is read before layerOf may grow it.
            int layer = layerOf(key);
            layerTotal[layer]++;
        }
        samples.add(now(), heldBytes, liveResults, trafficRead(), trafficWritten());
    }

    synchronized void beforeTask(Key key, int worker) {
        int row = rowOf(worker);
        runningLayer[row] = layerOf(key);
        runningSince[row] = now();
    }

    synchronized void afterTask(Key key, int worker, boolean failed) {
        int row = rowOf(worker);
        int layer = layerOf(key);
        long end = now();
        long start = runningLayer[row] >= 0 ? runningSince[row] : end;
        runningLayer[row] = -1;
        tasks.add(row, layer, start, end, failed ? 1 : 0);
        if (failed) {
            layerFailed[layer]++;
        } else {
            layerDone[layer]++;
        }
    }

    /** Called inside the scheduler's lock, one computation at a time: no lock here. */
    void resultsHeld(long bytes, int live) {
        heldBytes = bytes;
        liveResults = live;
        if (bytes > peakHeldBytes) {
            peakHeldBytes = bytes;
        }
    }

    void spilled(long bytes) {
        spills++;
        spilledBytes += bytes;
    }

    synchronized void finish(boolean succeeded) {
        running = Math.max(0, running - 1);
        anyFailed |= !succeeded;
        lastFinish = now();
        Arrays.fill(runningLayer, -1);
        samples.add(now(), heldBytes, liveResults, trafficRead(), trafficWritten());
    }

    /** Adds a sample of memory and traffic while a computation runs; the sampler calls it a few times a second. */
    synchronized void sample() {
        if (running > 0) {
            samples.add(now(), heldBytes, liveResults, trafficRead(), trafficWritten());
        }
    }

    synchronized boolean isRunning() {
        return running > 0;
    }

    /** Whether the cursor's reader has something to be sent: a run in progress, or tasks or samples it has not seen. */
    synchronized boolean hasNews(Cursor cursor) {
        return running > 0 || !cursor.sentAll || tasks.size() > cursor.tasksSent || samples.size() > cursor.samplesSent;
    }

    private long trafficRead() {
        return StoreTraffic.bytesRead() - originRead;
    }

    private long trafficWritten() {
        return StoreTraffic.bytesWritten() - originWritten;
    }

    private int row(String name) {
        Integer known = rowByName.get(name);
        if (known != null) {
            return known;
        }
        int row = rows.size();
        rows.add(name);
        rowByName.put(name, row);
        runningLayer = Arrays.copyOf(runningLayer, row + 1);
        runningSince = Arrays.copyOf(runningSince, row + 1);
        runningLayer[row] = -1;
        return row;
    }

    /** The row of a worker number; a scheduler whose workers join late (an executor added to a cluster) gets "worker N" rows. */
    private int rowOf(int worker) {
        if (worker >= rowOfWorker.length) {
            int known = rowOfWorker.length;
            rowOfWorker = Arrays.copyOf(rowOfWorker, worker + 1);
            for (int added = known; added <= worker; added++) {
                rowOfWorker[added] = row("worker " + added);
            }
        }
        return rowOfWorker[worker];
    }

    private int layerOf(Key key) {
        String keyName = key.name();
        Integer known = layerOfKeyName.get(keyName);
        if (known != null) {
            return known;
        }
        String layerName = LayerNames.of(keyName);
        Integer layer = layerByName.get(layerName);
        if (layer == null) {
            layer = layers.size();
            layers.add(layerName);
            layerByName.put(layerName, layer);
            if (layer == layerTotal.length) {
                layerTotal = Arrays.copyOf(layerTotal, layer * 2);
                layerDone = Arrays.copyOf(layerDone, layer * 2);
                layerFailed = Arrays.copyOf(layerFailed, layer * 2);
            }
        }
        layerOfKeyName.put(keyName, layer);
        return layer;
    }

    /** How far a reader has got: the tasks and samples it has already been sent. */
    static final class Cursor {
        boolean sentAll;
        int tasksSent;
        int samplesSent;
    }

    /**
     * The state as JSON: every figure, the running tasks, and the tasks and samples the cursor has
     * not seen (all of them for a new cursor). The cursor then moves past them.
     */
    String json(Cursor cursor) {
        String state;
        String[] rowNames;
        String[] layerNames;
        long[] totals;
        long[] done;
        long[] failed;
        long[] runningPerLayer;
        int[] runningRows;
        long[] since;
        long[] newTasks;
        long[] newSamples;
        long clock;
        long elapsed;
        int computationCount;
        long budgetBytes;
        synchronized (this) {
            clock = now();
            // From the first start to now, or to the last finish once nothing runs: idle time before is not the computation's.
            elapsed = firstStart < 0 ? 0 : (running > 0 ? clock : lastFinish) - firstStart;
            state = computations == 0 ? "waiting" : running > 0 ? "running" : anyFailed ? "failed" : "finished";
            computationCount = computations;
            budgetBytes = budget;
            rowNames = rows.toArray(String[]::new);
            layerNames = layers.toArray(String[]::new);
            totals = Arrays.copyOf(layerTotal, layerNames.length);
            done = Arrays.copyOf(layerDone, layerNames.length);
            failed = Arrays.copyOf(layerFailed, layerNames.length);
            runningPerLayer = new long[layerNames.length];
            runningRows = runningLayer.clone();
            for (int layer : runningRows) {
                if (layer >= 0) {
                    runningPerLayer[layer]++;
                }
            }
            since = runningSince.clone();
            newTasks = tasks.since(cursor.tasksSent);
            cursor.tasksSent = tasks.size();
            newSamples = samples.since(cursor.samplesSent);
            cursor.samplesSent = samples.size();
        }
        long allTotal = Arrays.stream(totals).sum();
        long allDone = Arrays.stream(done).sum();
        long allFailed = Arrays.stream(failed).sum();
        boolean full = !cursor.sentAll;
        cursor.sentAll = true;
        StringBuilder json = new StringBuilder(256 + newTasks.length * 8 + newSamples.length * 12);
        json.append("{\"full\":").append(full)
                .append(",\"now\":").append(clock)
                .append(",\"elapsed\":").append(elapsed)
                .append(",\"state\":").append(JsonStrings.quoted(state))
                .append(",\"computations\":").append(computationCount)
                .append(",\"total\":").append(allTotal)
                .append(",\"done\":").append(allDone)
                .append(",\"failed\":").append(allFailed)
                .append(",\"budget\":").append(budgetBytes < 0 ? "null" : Long.toString(budgetBytes))
                .append(",\"held\":").append(heldBytes)
                .append(",\"live\":").append(liveResults)
                .append(",\"peak\":").append(peakHeldBytes)
                .append(",\"spills\":").append(spills)
                .append(",\"spilledBytes\":").append(spilledBytes)
                .append(",\"read\":").append(trafficRead())
                .append(",\"written\":").append(trafficWritten());
        json.append(",\"workers\":[");
        for (int row = 0; row < rowNames.length; row++) {
            json.append(row == 0 ? "" : ",").append(JsonStrings.quoted(rowNames[row]));
        }
        json.append("],\"layers\":[");
        for (int layer = 0; layer < layerNames.length; layer++) {
            json.append(layer == 0 ? "" : ",").append("{\"name\":").append(JsonStrings.quoted(layerNames[layer]))
                    .append(",\"total\":").append(totals[layer]).append(",\"done\":").append(done[layer])
                    .append(",\"running\":").append(runningPerLayer[layer]).append(",\"failed\":").append(failed[layer]).append('}');
        }
        json.append("],\"running\":[");
        boolean first = true;
        for (int row = 0; row < runningRows.length; row++) {
            if (runningRows[row] >= 0) {
                json.append(first ? "" : ",").append('[').append(row).append(',').append(runningRows[row]).append(',').append(since[row]).append(']');
                first = false;
            }
        }
        json.append("],\"tasks\":[");
        Json.appendTuples(json, newTasks, Table.FIELDS);
        json.append("],\"samples\":[");
        Json.appendTuples(json, newSamples, Table.FIELDS);
        return json.append("]}").toString();
    }

    /**
     * Rows of five longs in one growing array: the finished tasks (row, layer, start, end, failed)
     * and the samples (time, bytes held, results held, bytes read, bytes written).
     */
    private static final class Table {
        static final int FIELDS = 5;
        private long[] values = new long[FIELDS * 1024];
        private int size;

        void add(long first, long second, long third, long fourth, long fifth) {
            if ((size + 1) * FIELDS > values.length) {
                values = Arrays.copyOf(values, values.length * 2);
            }
            int at = size * FIELDS;
            values[at] = first;
            values[at + 1] = second;
            values[at + 2] = third;
            values[at + 3] = fourth;
            values[at + 4] = fifth;
            size++;
        }

        int size() {
            return size;
        }

        long[] since(int first) {
            return Arrays.copyOfRange(values, first * FIELDS, size * FIELDS);
        }
    }
}
