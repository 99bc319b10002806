package org.tessera.graph.render;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskGraph;

/**
 * Draws a task graph in Graphviz DOT, as Dask's {@code visualize}: a box per key, an ellipse per
 * function call, arrows in the direction data flows. {@link #writeSvg} runs the {@code dot} program
 * when it is installed.
 */
public final class Dot {
    private Dot() {
    }

    public static String toDot(TaskGraph graph) {
        StringBuilder dot = new StringBuilder("digraph tessera {\n  rankdir=BT;\n");
        Map<Key, String> ids = new HashMap<>();
        for (Key key : graph.keys()) {
            ids.put(key, "k" + ids.size());
        }
        for (Key key : graph.keys()) {
            String id = ids.get(key);
            dot.append("  ").append(id).append(" [shape=box, label=").append(quoted(key.toString())).append("];\n");
            Task task = graph.task(key);
            if (task instanceof Task.Call) {
                dot.append("  ").append(id).append("f [shape=ellipse, label=").append(quoted(task.label())).append("];\n");
                dot.append("  ").append(id).append("f -> ").append(id).append(";\n");
            }
            String target = task instanceof Task.Call ? id + "f" : id;
            for (Key input : graph.dependencies(key)) {
                String source = ids.get(input);
                if (source != null) {
                    dot.append("  ").append(source).append(" -> ").append(target).append(";\n");
                }
            }
        }
        return dot.append("}\n").toString();
    }

    /** Whether Graphviz's {@code dot} program can be run. */
    public static boolean isDotInstalled() {
        try {
            Process process = new ProcessBuilder("dot", "-V").redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException notFound) {
            return false;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Writes {@code graph} as SVG through {@code dot -Tsvg}. */
    public static void writeSvg(TaskGraph graph, Path file) throws IOException {
        Path source = Files.createTempFile("tessera-graph-", ".dot");
        try {
            Files.writeString(source, toDot(graph));
            Process process = new ProcessBuilder("dot", "-Tsvg", "-o", file.toString(), source.toString()).redirectErrorStream(true).start();
            String messages = new String(process.getInputStream().readAllBytes());
            if (process.waitFor() != 0) {
                throw new IOException("dot -Tsvg failed for " + file + ": " + messages);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while dot drew " + file, interrupted);
        } finally {
            Files.deleteIfExists(source);
        }
    }

    private static String quoted(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
