package org.tessera.graph.render;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.tessera.graph.Task.call;
import static org.tessera.graph.Task.ref;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;

class DotTest {
    static final TaskGraph GRAPH = TaskGraph.builder()
            .put("x", 1)
            .put("y", call(TaskFunction.unary("inc", (Integer value) -> value + 1), ref("x")))
            .put("z", call(TaskFunction.binary("add", (Integer left, Integer right) -> left + right), ref("y"), 10))
            .build();

    @Test
    void keysAreBoxesCallsAreEllipsesAndDataFlowsUp() {
        String dot = Dot.toDot(GRAPH);
        assertTrue(dot.startsWith("digraph tessera {"), dot);
        assertTrue(dot.contains("k1 [shape=box, label=\"y\"];"), dot);
        assertTrue(dot.contains("k1f [shape=ellipse, label=\"inc\"];"), dot);
        assertTrue(dot.contains("k0 -> k1f;") && dot.contains("k1 -> k2f;") && dot.contains("k2f -> k2;"), dot);
    }

    @Test
    void graphvizDrawsSvgWhereItIsInstalled(@TempDir Path directory) throws Exception {
        assumeTrue(Dot.isDotInstalled(), "Graphviz's dot is not installed (apt-get install graphviz)");
        Path svg = directory.resolve("graph.svg");
        Dot.writeSvg(GRAPH, svg);
        String drawn = Files.readString(svg);
        assertTrue(drawn.contains("<svg") && drawn.contains(">inc<") && drawn.contains(">add<"), drawn);
    }
}
