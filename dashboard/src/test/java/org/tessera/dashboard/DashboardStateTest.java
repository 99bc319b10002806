package org.tessera.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.schedule.TaskFailedException;
import org.tessera.graph.schedule.ThreadedScheduler;

/** The state the page is fed, from real computations of the threaded scheduler, and the server's edges. */
class DashboardStateTest {

    @Test
    void layerNamesDropTheTokenOnly() {
        assertEquals("sum-aggregate", LayerNames.of("sum-aggregate-3f2a19c0d4e5b6a7"));
        assertEquals("random", LayerNames.of("random-00000000"));
        assertEquals("add-beef", LayerNames.of("add-beef"));
        assertEquals("x", LayerNames.of("x"));
        assertEquals("stage-3f2a19c0d4e5b6aZ", LayerNames.of("stage-3f2a19c0d4e5b6aZ"));
    }

    @Test
    void stateCountsEveryTaskOfEachLayerAndTheFailure() {
        TaskFunction inc = TaskFunction.<Integer>unary("inc", value -> value + 1);
        TaskFunction boom = TaskFunction.<Integer>unary("boom", value -> {
            throw new IllegalStateException("boom at " + value);
        });
        TaskGraph.Builder builder = TaskGraph.builder();
        for (int block = 0; block < 6; block++) {
            builder.put(Key.of("ones-0123456789abcdef", block), Task.literal(1));
            builder.put(Key.of("inc-fedcba9876543210", block), Task.call(inc, Task.ref(Key.of("ones-0123456789abcdef", block))));
        }
        builder.put(Key.of("fails-0011223344556677"), Task.call(boom, Task.ref(Key.of("inc-fedcba9876543210", 0))));
        TaskGraph graph = builder.build();
        try (Dashboard dashboard = Dashboard.open(0)) {
            ThreadedScheduler scheduler = ThreadedScheduler.builder().workers(1).callback(dashboard).build();
            scheduler.run(graph, java.util.stream.IntStream.range(0, 6).mapToObj(block -> Key.of("inc-fedcba9876543210", block)).toList());
            String finished = dashboard.stateJson();
            assertEquals("finished", field(finished, "state"));
            assertEquals("12", field(finished, "done"));
            assertTrue(finished.contains("{\"name\":\"inc\",\"total\":6,\"done\":6,\"running\":0,\"failed\":0}"), finished);

            assertThrows(TaskFailedException.class, () -> scheduler.run(graph, java.util.List.of(Key.of("fails-0011223344556677"))));
            String failed = dashboard.stateJson();
            assertEquals("failed", field(failed, "state"));
            assertEquals("2", field(failed, "computations"));
            assertEquals("1", field(failed, "failed"));
            assertTrue(failed.contains("{\"name\":\"fails\",\"total\":1,\"done\":0,\"running\":0,\"failed\":1}"), failed);
        }
    }

    @Test
    void theEventStreamStartsWithEverythingSoFar() throws Exception {
        TaskGraph graph = TaskGraph.builder().put("a", 1).put("b", Task.call(TaskFunction.<Integer>unary("double", value -> value * 2), Task.ref(Key.of("a")))).build();
        try (Dashboard dashboard = Dashboard.open(0)) {
            ThreadedScheduler.builder().callback(dashboard).build().run(graph, java.util.List.of(Key.of("b")));
            HttpURLConnection events = (HttpURLConnection) dashboard.url().resolve("events").toURL().openConnection();
            assertEquals("text/event-stream; charset=utf-8", events.getContentType());
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(events.getInputStream(), StandardCharsets.UTF_8))) {
                String first = lines.readLine();
                assertTrue(first.startsWith("data: {\"full\":true,"), first);
                assertEquals("2", field(first, "done"));
                // Two bars, one per task, each [row, layer, start, end, failed].
                assertEquals(2, Pattern.compile("\\[\\d+,\\d+,\\d+,\\d+,0]").matcher(first.substring(first.indexOf("\"tasks\""), first.indexOf("\"samples\""))).results().count(), first);
            } finally {
                events.disconnect();
            }
        }
    }

    @Test
    void aPortInUseIsNamed() {
        try (Dashboard first = Dashboard.open(0)) {
            int taken = first.url().getPort();
            UncheckedIOException failure = assertThrows(UncheckedIOException.class, () -> Dashboard.open(taken));
            assertTrue(failure.getMessage().contains("port " + taken), failure.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Dashboard.open(70000));
    }

    /** A program that opens a dashboard and never closes it. */
    static final class OpenAndForget {
        public static void main(String[] arguments) {
            System.out.println("dashboard at " + Dashboard.open(0).url());
        }
    }

    @Test
    void aDashboardNeverClosedDoesNotKeepTheProgramAlive() throws Exception {
        Process program = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
                OpenAndForget.class.getName()).redirectErrorStream(true).start();
        boolean ended = program.waitFor(30, TimeUnit.SECONDS);
        if (!ended) {
            program.destroyForcibly();
        }
        String output = new String(program.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ended, "the program still ran 30 s after main returned: " + output);
        assertEquals(0, program.exitValue(), output);
        assertTrue(output.startsWith("dashboard at http://127.0.0.1:"), output);
    }

    private static String field(String json, String name) {
        Matcher match = Pattern.compile("\"" + name + "\":\"?([^,\"}]*)").matcher(json);
        assertTrue(match.find(), name + " in " + json);
        return match.group(1);
    }
}
