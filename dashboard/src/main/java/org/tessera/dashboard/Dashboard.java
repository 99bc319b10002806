package org.tessera.dashboard;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.schedule.Callback;

/**
 * A live dashboard of the computations a scheduler runs, served on a loopback HTTP port: progress
 * per layer (done, running, waiting), the task stream (a row per worker, a bar per task coloured by
 * layer), the bytes of results held against the memory budget, store reads and writes per second,
 * and spills. It is a {@link Callback}, so any scheduler that takes callbacks feeds it:
 *
 * <pre>{@code
 * try (Dashboard dashboard = Dashboard.open(8787)) {
 *     System.out.println("dashboard at " + dashboard.url());
 *     NDArray result = x.sum().compute(ThreadedScheduler.builder().callback(dashboard).build());
 *     dashboard.saveHtml(Path.of("run.html"));
 * }
 * }</pre>
 *
 * <p>The page needs no build step and no network: one HTML file in this jar, updated by server-sent
 * events four times a second. After a run it stays readable until {@link #close()} or the end of
 * the program (its threads are daemons, so a dashboard never closed does not keep a program alive),
 * and {@link #saveHtml} writes it as one self-contained file. Computations watched one after
 * another add up, as on Dask's dashboard.
 */
public final class Dashboard implements Callback, AutoCloseable {
    /** The port Dask's dashboard uses, and so the one its users look at first. */
    public static final int DEFAULT_PORT = 8787;
    private static final long SAMPLE_MILLIS = 100;

    private final RunRecord record = new RunRecord();
    private final DashboardServer server;
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "tessera-dashboard-sampler");
        thread.setDaemon(true);
        return thread;
    });

    private Dashboard(int port) {
        server = new DashboardServer(record, port);
        sampler.scheduleAtFixedRate(record::sample, SAMPLE_MILLIS, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Serves a dashboard on {@code port} of the loopback interface; 0 takes a free port.
     *
     * @throws java.io.UncheckedIOException naming the port when it cannot be listened on (in use)
     */
    public static Dashboard open(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("a dashboard port must be in [0, 65535], got " + port);
        }
        return new Dashboard(port);
    }

    /** The address to open in a browser. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.port() + "/");
    }

    /** The state as JSON, as the page receives it: the figures, the layers and every task so far. */
    public String stateJson() {
        return record.json(new RunRecord.Cursor());
    }

    /** Writes the page with the whole state built in: one file that shows the run with no server. */
    public void saveHtml(Path file) throws IOException {
        Files.writeString(file, server.selfContainedPage());
    }

    @Override
    public void configured(List<String> workers, MemoryBudget budget) {
        record.configured(workers, budget);
    }

    @Override
    public void start(TaskGraph graph) {
        record.start(graph);
    }

    @Override
    public void beforeTask(Key key, int worker) {
        record.beforeTask(key, worker);
    }

    @Override
    public void afterTask(Key key, int worker, Throwable failure) {
        record.afterTask(key, worker, failure != null);
    }

    @Override
    public void resultsHeld(long bytesInMemory, int liveResults) {
        record.resultsHeld(bytesInMemory, liveResults);
    }

    @Override
    public void spilled(Key key, long bytes) {
        record.spilled(bytes);
    }

    @Override
    public void finish(boolean succeeded) {
        record.finish(succeeded);
    }

    /** Stops serving; the page's live feed ends. */
    @Override
    public void close() {
        sampler.shutdownNow();
        server.close();
    }
}
