package org.tessera.dashboard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.BlockMaker;
import org.tessera.array.creation.Creation;
import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.metrics.StoreTraffic;
import org.tessera.graph.schedule.Computation;
import org.tessera.graph.schedule.ExecutionStatistics;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.NDArray;

/**
 * The dashboard as a person sees it: a real chunked computation under a memory budget, watched in
 * headless Chromium while it runs, then the figures of the finished page compared with the
 * computation's own statistics, and the saved page read back with no server. The screenshot and the
 * saved page stay in {@code target/dashboard-test/} to be looked at.
 */
class DashboardBrowserTest {
    private static final Path ARTEFACTS = Path.of("target", "dashboard-test");
    private static final long SEED = 42;
    /** 16 x 16 blocks of 100 x 100 doubles: 256 blocks, each made twice (for x and x.T), in 336 tasks. */
    private static final long SIDE = 1600;
    private static final long BLOCK = 100;
    /**
     * The graph optimisation fuses making the blocks, x + x.T and the per-block sums into one task
     * per block, so the results held are the partial column sums (100 doubles, about 900 bytes
     * each) on their way to the tree reduction: about 21 kB of them at most with no budget. Half
     * that makes some spill.
     */
    private static final long BUDGET_BYTES = 12_000;
    /** Each block takes this long to make, so the run lasts a few seconds on two workers. */
    private static final long MILLIS_PER_BLOCK = 12;
    /** Blocks made before the gate: after them, making waits until the page has been seen running. */
    private static final int BLOCKS_BEFORE_GATE = 24;

    private static final AtomicInteger BLOCKS_MADE = new AtomicInteger();
    private static volatile CountDownLatch pageSeenRunning = new CountDownLatch(0);

    /**
     * Uniform random blocks, one generator per block, made slowly; after {@link #BLOCKS_BEFORE_GATE}
     * blocks each waits (at most 30 s) for the test to have seen the live page, so the page is
     * seen running however slow the browser is to start.
     */
    private record SlowRandomBlocks(long seed) implements BlockMaker {
        @Override
        public NDArray make(int[] blockIndex, long[] blockShape, long[] blockStart) {
            try {
                if (BLOCKS_MADE.incrementAndGet() > BLOCKS_BEFORE_GATE) {
                    pageSeenRunning.await(HeadlessChromium.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                }
                Thread.sleep(MILLIS_PER_BLOCK);
            } catch (InterruptedException interrupt) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted making block " + Arrays.toString(blockIndex), interrupt);
            }
            SplittableRandom random = new SplittableRandom(seed * 1_000_003 + Arrays.hashCode(blockIndex));
            NDArray block = NDArray.zeros(DType.FLOAT64, blockShape);
            for (long row = 0; row < blockShape[0]; row++) {
                for (long column = 0; column < blockShape[1]; column++) {
                    block.setDouble(random.nextDouble(), row, column);
                }
            }
            return block;
        }
    }

    @Test
    void showsALiveComputationAsItsStatisticsSayAndSavesItAsOnePage() throws Exception {
        long testStart = System.nanoTime();
        Files.createDirectories(ARTEFACTS);
        BLOCKS_MADE.set(0);
        pageSeenRunning = new CountDownLatch(1);
        long readBefore = StoreTraffic.bytesRead();
        long writtenBefore = StoreTraffic.bytesWritten();
        ExecutorService runner = Executors.newSingleThreadExecutor(task -> Thread.ofPlatform().daemon().name("dashboard-test-computation").unstarted(task));
        try (HeadlessChromium browser = HeadlessChromium.start(ARTEFACTS)) {
            long browserReady = System.nanoTime();
            Dashboard dashboard = Dashboard.open(0);
            Future<Computation> running = null;
            try {
                ChunkedArray x = Creation.fromFunction(new SlowRandomBlocks(SEED), new long[] {SIDE, SIDE}, DType.FLOAT64, ChunkSpec.size(BLOCK), "slow-random");
                ChunkedArray y = x.add(x.T()).sum(0);
                TaskGraph graph = y.optimizedGraph();
                List<Key> outputs = y.flatKeys();
                ThreadedScheduler scheduler = ThreadedScheduler.builder().workers(2).memoryBudget(MemoryBudget.ofBytes(BUDGET_BYTES)).callback(dashboard).build();
                long runStart = System.nanoTime();
                running = runner.submit(() -> scheduler.run(graph, outputs));

                // The live page, while the computation runs.
                browser.navigate(dashboard.url());
                browser.awaitTrue("the live page to show the computation running with task bars", () -> "running".equals(dataValue(browser, "state"))
                        && Integer.parseInt(browser.evaluate("document.querySelectorAll('svg#task-stream rect.task').length")) > 0
                        && Long.parseLong(browser.evaluate("document.getElementById('task-stream').dataset.count")) > 0);
                // The gate keeps the computation from finishing until these are read: this is the page of a running computation.
                String stateWhileRunning = dataValue(browser, "state");
                long barsWhileRunning = Long.parseLong(browser.evaluate("document.querySelectorAll('svg#task-stream rect.task').length"));
                long percentWhileRunning = number(browser, "progress-percent");
                long doneWhileRunning = number(browser, "tasks-done");
                long totalWhileRunning = number(browser, "tasks-total");
                Map<String, Long> layersWhileRunning = layerSums(browser);
                pageSeenRunning.countDown();
                long seenRunning = System.nanoTime();

                assertEquals("running", stateWhileRunning);
                assertTrue(barsWhileRunning > 0, "task bars drawn while running");
                assertTrue(percentWhileRunning >= 0 && percentWhileRunning < 100, "progress while running: " + percentWhileRunning + "%");
                assertTrue(doneWhileRunning > 0 && doneWhileRunning < totalWhileRunning, doneWhileRunning + " of " + totalWhileRunning + " tasks while running");
                assertEquals(doneWhileRunning, layersWhileRunning.get("done"), "the layer rows' done add up to the tasks done while running");
                assertTrue(layersWhileRunning.get("waiting") > 0, "tasks waiting while running: " + layersWhileRunning);
                assertEquals(BUDGET_BYTES, number(browser, "memory-budget"));

                Computation computation = running.get(120, TimeUnit.SECONDS);
                long runEnd = System.nanoTime();
                ExecutionStatistics statistics = computation.statistics();
                assertEquals(outputs.size(), computation.results().size());
                assertTrue(statistics.spilledResults() > 0, "the budget of " + BUDGET_BYTES + " bytes made results spill: " + statistics);

                // The finished page against the computation's own statistics.
                browser.awaitTrue("the page to show the computation finished", () -> "finished".equals(dataValue(browser, "state"))
                        && number(browser, "progress-percent") == 100 && number(browser, "tasks-done") == statistics.tasksRun());
                // The picture first, so that it is there to look at whatever fails below.
                byte[] png = browser.screenshot();
                assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4), "a PNG");
                Files.write(ARTEFACTS.resolve("dashboard.png"), png);
                long tasks = statistics.tasksRun();
                assertEquals(tasks, number(browser, "tasks-done"));
                assertEquals(tasks, number(browser, "tasks-total"));
                assertEquals(0, number(browser, "tasks-failed"));
                assertEquals(1, number(browser, "computations"));
                assertEquals(BUDGET_BYTES, number(browser, "memory-budget"));
                assertEquals(statistics.spilledResults(), number(browser, "spills"), "spills shown");
                assertEquals(outputs.size(), number(browser, "memory-live"), "results held at the end: the outputs");
                assertEquals(StoreTraffic.bytesRead() - readBefore, number(browser, "bytes-read"));
                assertEquals(StoreTraffic.bytesWritten() - writtenBefore, number(browser, "bytes-written"));
                assertTrue(number(browser, "read-rate") >= 0 && number(browser, "write-rate") >= 0);
                Map<String, Long> layers = layerSums(browser);
                assertEquals(tasks, layers.get("done"), "the layer rows' done add up to the tasks done: " + layers);
                assertEquals(0, layers.get("running") + layers.get("waiting") + layers.get("failed"), "nothing running, waiting or failed: " + layers);
                assertTrue(layers.get("rows") >= 3, "a row per layer (the fused sum-chunk, sum-partial, sum-aggregate): " + browser.evaluate(LAYER_NAMES));
                assertEquals(tasks, Long.parseLong(browser.evaluate("document.getElementById('task-stream').dataset.count")), "a bar per task");
                assertEquals(tasks, Long.parseLong(browser.evaluate("document.querySelectorAll('svg#task-stream rect.task').length")));
                assertEquals("tessera-worker-0,tessera-worker-1",
                        browser.evaluate("[...document.querySelectorAll('#worker-labels div.worker')].map(d => d.textContent).join(',')"));
                // Bars are in microseconds; the viewBox is the time range the chart shows.
                assertEquals("true", browser.evaluate("(() => { const [from, , span] = document.getElementById('task-stream').getAttribute('viewBox').split(' ').map(Number);"
                        + " return [...document.querySelectorAll('svg#task-stream rect.task')].every(r => +r.getAttribute('y') < 36"
                        + " && +r.getAttribute('x') >= from && +r.getAttribute('x') + +r.getAttribute('width') <= from + span); })()"),
                        "every bar in a worker row and in the chart's time range");
                assertEquals("true", browser.evaluate("document.querySelector('#memory-chart polyline').getAttribute('points').split(' ').length > 2"),
                        "the memory chart has a line");
                assertNothingBroken(browser);
                long peakShown = number(browser, "memory-peak");

                // The saved page, with the dashboard closed: everything comes from the file.
                Path saved = ARTEFACTS.resolve("dashboard.html").toAbsolutePath();
                dashboard.saveHtml(saved);
                URI live = dashboard.url();
                dashboard.close();
                HttpClient http = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).connectTimeout(Duration.ofSeconds(5)).build();
                assertThrows(IOException.class, () -> http.send(HttpRequest.newBuilder(live).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()),
                        "the dashboard stopped serving");
                browser.navigate(saved.toUri());
                browser.awaitTrue("the saved page to show the finished computation", () -> number(browser, "tasks-done") == tasks);
                assertEquals("finished", dataValue(browser, "state"));
                assertEquals(100, number(browser, "progress-percent"));
                assertEquals(tasks, number(browser, "tasks-total"));
                assertEquals(statistics.spilledResults(), number(browser, "spills"));
                assertEquals(tasks, layerSums(browser).get("done"));
                assertEquals(tasks, Long.parseLong(browser.evaluate("document.getElementById('task-stream').dataset.count")));
                assertEquals(tasks, Long.parseLong(browser.evaluate("document.querySelectorAll('svg#task-stream rect.task').length")));
                assertEquals("null", browser.evaluate("document.getElementById('save')"), "no link to save what is already saved");
                assertNothingBroken(browser);
                Files.write(ARTEFACTS.resolve("dashboard-saved.png"), browser.screenshot());
                assertEquals(List.of(), browser.errors(), "errors on the pages");
                assertEquals(peakShown, number(browser, "memory-peak"), "the saved page shows the peak the live page showed");
                System.out.printf("dashboard browser test: browser up in %.1f s, run %.1f s (seen running after %.1f s), %d tasks, %d spills (%d B on disk, page: %d B), peak %d B (page: %d B), whole test %.1f s%n",
                        seconds(browserReady - testStart), seconds(runEnd - runStart), seconds(seenRunning - runStart), tasks, statistics.spilledResults(),
                        statistics.spilledBytes(), number(browser, "spilled-bytes"), statistics.peakResultBytes(), peakShown, seconds(System.nanoTime() - testStart));
                // Checked last, so that everything else is checked whatever it says: the peak against the most bytes the scheduler held.
                assertEquals(statistics.peakResultBytes(), peakShown, "peak memory shown");

            } finally {
                pageSeenRunning.countDown();
                if (running != null && !running.isDone()) {
                    try {
                        running.get(60, TimeUnit.SECONDS);
                    } catch (Exception ignored) {
                        // The assertion that failed says what went wrong; this only lets the run end before the dashboard closes.
                    }
                }
                dashboard.close();
            }
        } finally {
            runner.shutdownNow();
        }
    }

    private static final String LAYER_NAMES = "[...document.querySelectorAll('#layers tr.layer')].map(r => r.dataset.layer).join(',')";

    /** The data-value of element {@code id}. */
    private static String dataValue(HeadlessChromium browser, String id) {
        return browser.evaluate("document.getElementById('" + id + "').dataset.value");
    }

    private static long number(HeadlessChromium browser, String id) {
        String value = dataValue(browser, id);
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException notANumber) {
            throw new AssertionError("#" + id + " has data-value \"" + value + "\", not a whole number", notANumber);
        }
    }

    /** The sums over the layer table's rows of each column, and the row count. */
    private static Map<String, Long> layerSums(HeadlessChromium browser) {
        String json = browser.evaluate("JSON.stringify((() => { const rows = [...document.querySelectorAll('#layers tr.layer')];"
                + " const sum = c => rows.reduce((s, r) => s + Number(r.querySelector('td.' + c).textContent), 0);"
                + " return {rows: rows.length, done: sum('done'), running: sum('running'), waiting: sum('waiting'), failed: sum('failed')}; })())");
        Map<?, ?> sums = (Map<?, ?>) HeadlessChromium.MiniJson.parse(json);
        return Map.of("rows", whole(sums.get("rows")), "done", whole(sums.get("done")), "running", whole(sums.get("running")),
                "waiting", whole(sums.get("waiting")), "failed", whole(sums.get("failed")));
    }

    private static long whole(Object number) {
        double value = ((Number) number).doubleValue();
        assertEquals(Math.rint(value), value, "a whole number in the layer table");
        return (long) value;
    }

    /** No NaN, undefined or Infinity in the text or the charts, and no empty figure. */
    private static void assertNothingBroken(HeadlessChromium browser) {
        String text = browser.evaluate("document.body.innerText");
        String charts = browser.evaluate("['memory-chart', 'io-chart', 'task-stream'].map(id => document.getElementById(id).outerHTML).join('\\n')");
        for (String broken : List.of("NaN", "undefined", "Infinity")) {
            assertFalse(text.contains(broken), "\"" + broken + "\" in the page's text:\n" + text);
            assertFalse(charts.contains(broken), "\"" + broken + "\" in the charts");
        }
        assertEquals("", browser.evaluate("[...document.querySelectorAll('[data-value]')].filter(e => e.textContent.trim() === '').map(e => e.id).join(',')"),
                "figures with no text");
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
