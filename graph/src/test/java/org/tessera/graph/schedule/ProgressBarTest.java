package org.tessera.graph.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;

class ProgressBarTest {
    @Test
    void theLineShowsPercentCountsElapsedAndEta() {
        assertEquals("[###############               ] 50% 5/10 tasks, 2.0 s elapsed, ETA 2.0 s", ProgressBar.line(5, 10, 2_000_000_000L));
        assertEquals("[                              ] 0% 0/10 tasks, 0.0 s elapsed, ETA ?", ProgressBar.line(0, 10, 0));
        assertTrue(ProgressBar.line(1, 100, 90_000_000_000L).endsWith("1 min 30 s elapsed, ETA 148 min 30 s"));
    }

    @Test
    void aForcedBarDrawsWhileTasksRunAndEndsAtAHundredPercent() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        AtomicLong clock = new AtomicLong();
        ProgressBar bar = ProgressBar.forced(new PrintStream(bytes, true, StandardCharsets.UTF_8), () -> clock.addAndGet(30_000_000L));
        TaskGraph graph = SchedulerFixtures.treeSum(100, 10);
        new SynchronousScheduler(bar).get(graph, Key.of("total"));
        String drawn = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(drawn.contains("100% 111/111 tasks"), drawn);
        assertTrue(drawn.split("\r").length > 10, "expected redraws while running: " + drawn);
        assertTrue(drawn.endsWith(System.lineSeparator()));
    }

    @Test
    void theTerminalBarIsSilentWhenOutputIsNotATerminal() {
        // Surefire runs tests without a terminal.
        assertFalse(ProgressBar.onTerminal().isEnabled());
    }

    @Test
    void theProfilerWritesChromeTraceJson() throws Exception {
        Profiler profiler = new Profiler();
        new SynchronousScheduler(profiler).get(SchedulerFixtures.treeSum(20, 5), Key.of("total"));
        StringWriter json = new StringWriter();
        profiler.writeChromeTrace(json);
        String trace = json.toString();
        assertTrue(trace.startsWith("{\"traceEvents\":["), trace);
        assertEquals(25, trace.split("\"ph\":\"X\"").length - 1);
        assertTrue(trace.contains("\"name\":\"sum total\""), trace);
        assertTrue(trace.contains("\"name\":\"thread_name\""), trace);
        assertEquals("\"a\\\"b\\\\c\\n\\u003c/script>\"", org.tessera.graph.render.JsonStrings.quoted("a\"b\\c\n</script>"));
    }
}
