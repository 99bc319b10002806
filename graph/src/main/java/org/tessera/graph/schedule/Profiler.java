package org.tessera.graph.schedule;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.render.JsonStrings;

/**
 * Records when each task ran and on which thread, and writes the record as Chrome trace JSON,
 * which Perfetto (ui.perfetto.dev) and chrome://tracing open: one row per worker thread, one bar
 * per task, named by its function and key.
 */
public final class Profiler implements Callback {
    /** One task's run. Times are nanoseconds of {@link System#nanoTime()}. */
    public record TaskRecord(Key key, String label, String thread, long startNanos, long endNanos, boolean failed) {
    }

    private final Map<Key, Long> starts = new ConcurrentHashMap<>();
    private final List<TaskRecord> records = new ArrayList<>();
    private volatile TaskGraph graph;

    @Override
    public void start(TaskGraph started) {
        this.graph = started;
    }

    @Override
    public void beforeTask(Key key, int worker) {
        starts.put(key, System.nanoTime());
    }

    @Override
    public void afterTask(Key key, int worker, Throwable failure) {
        long end = System.nanoTime();
        Long start = starts.remove(key);
        String label = graph == null ? "" : graph.task(key).label();
        TaskRecord record = new TaskRecord(key, label, Thread.currentThread().getName(), start == null ? end : start, end, failure != null);
        synchronized (records) {
            records.add(record);
        }
    }

    /** The tasks recorded so far, in the order they ended. */
    public List<TaskRecord> records() {
        synchronized (records) {
            return List.copyOf(records);
        }
    }

    /** Writes the Chrome trace event format ("X" complete events, microseconds from the first start). */
    public void writeChromeTrace(Writer writer) throws IOException {
        List<TaskRecord> recorded = records();
        long origin = recorded.stream().mapToLong(TaskRecord::startNanos).min().orElse(0);
        Map<String, Integer> threadIds = new ConcurrentHashMap<>();
        writer.write("{\"traceEvents\":[");
        for (int position = 0; position < recorded.size(); position++) {
            TaskRecord record = recorded.get(position);
            int threadId = threadIds.computeIfAbsent(record.thread(), name -> threadIds.size() + 1);
            writer.write(position == 0 ? "\n" : ",\n");
            writer.write("{\"name\":" + JsonStrings.quoted(record.label() + " " + record.key()) + ",\"cat\":" + JsonStrings.quoted(record.failed() ? "failed" : "task")
                    + ",\"ph\":\"X\",\"pid\":1,\"tid\":" + threadId
                    + ",\"ts\":" + micros(record.startNanos() - origin) + ",\"dur\":" + micros(record.endNanos() - record.startNanos())
                    + ",\"args\":{\"key\":" + JsonStrings.quoted(record.key().toString()) + ",\"thread\":" + JsonStrings.quoted(record.thread()) + "}}");
        }
        for (Map.Entry<String, Integer> thread : threadIds.entrySet()) {
            writer.write(",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + thread.getValue()
                    + ",\"args\":{\"name\":" + JsonStrings.quoted(thread.getKey()) + "}}");
        }
        writer.write("\n],\"displayTimeUnit\":\"ms\"}\n");
        writer.flush();
    }

    public void writeChromeTrace(Path file) throws IOException {
        try (Writer writer = Files.newBufferedWriter(file)) {
            writeChromeTrace(writer);
        }
    }

    private static String micros(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.3f", nanos / 1000.0);
    }
}
