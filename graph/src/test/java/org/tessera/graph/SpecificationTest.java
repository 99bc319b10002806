package org.tessera.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.graph.Task.call;
import static org.tessera.graph.Task.ref;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.tessera.graph.schedule.SynchronousScheduler;

class SpecificationTest {
    static final TaskFunction INC = TaskFunction.unary("inc", (Integer value) -> value + 1);
    static final TaskFunction ADD = TaskFunction.binary("add", (Integer left, Integer right) -> left + right);
    static final TaskFunction SUM = TaskFunction.unary("sum", (List<Integer> values) -> values.stream().mapToInt(Integer::intValue).sum());

    @Test
    void theClassicExampleWrittenByHand() {
        // Dask: {"x": 1, "y": (inc, "x"), "z": (add, "y", 10)}
        TaskGraph graph = TaskGraph.builder()
                .put("x", 1)
                .put("y", call(INC, ref("x")))
                .put("z", call(ADD, ref("y"), 10))
                .build();
        assertEquals(12, new SynchronousScheduler().get(graph, Key.of("z")));
    }

    @Test
    void argumentsNestReferencesInsideLists() {
        TaskGraph graph = TaskGraph.builder()
                .put(Key.of("x", 0), 1).put(Key.of("x", 1), 2).put(Key.of("x", 2), 3)
                .put("total", call(SUM, List.of(Key.of("x", 0), Key.of("x", 1), Key.of("x", 2))))
                .put("alias", ref("total"))
                .build();
        assertEquals(6, new SynchronousScheduler().get(graph, Key.of("alias")));
        assertEquals(List.of(Key.of("x", 0), Key.of("x", 1), Key.of("x", 2)), List.copyOf(graph.dependencies(Key.of("total"))));
    }

    @Test
    void keysAreValuesPrintedAsDaskPrintsThem() {
        assertEquals(Key.of("x", 0, 1), Key.of("x", 0, 1));
        assertEquals(Key.of("x", 0, 1).hashCode(), Key.of("x", 0, 1).hashCode());
        assertNotEquals(Key.of("x", 0, 1), Key.of("x", 1, 0));
        assertNotEquals(Key.of("x"), Key.of("x", 0));
        assertEquals("('x', 0, 1)", Key.of("x", 0, 1).toString());
        assertEquals("x", Key.of("x").toString());
        assertTrue(Key.of("x", 0, 2).compareTo(Key.of("x", 1, 0)) < 0);
        assertThrows(IllegalArgumentException.class, () -> Key.of("x", -1));
    }

    @Test
    void aMissingDependencyIsNamedWithItsReader() {
        TaskGraph graph = TaskGraph.builder().put("y", call(INC, ref("x"))).build();
        GraphException error = assertThrows(GraphException.class, graph::validate);
        assertEquals(List.of(Key.of("x")), error.keys());
        assertTrue(error.getMessage().contains("x (read by y)"), error.getMessage());
        assertThrows(GraphException.class, () -> new SynchronousScheduler().get(graph, Key.of("y")));
    }

    @Test
    void aCycleIsNamedKeyByKey() {
        TaskGraph graph = TaskGraph.builder()
                .put("start", 0)
                .put("a", call(ADD, ref("start"), ref("c")))
                .put("b", call(INC, ref("a")))
                .put("c", call(INC, ref("b")))
                .build();
        GraphException error = assertThrows(GraphException.class, graph::validate);
        assertEquals(3, error.keys().size());
        assertTrue(error.keys().containsAll(List.of(Key.of("a"), Key.of("b"), Key.of("c"))), error.keys().toString());
        assertTrue(error.getMessage().contains("cycle"), error.getMessage());
    }

    @Test
    void tasksAndFunctionsSurviveJavaSerialization() throws Exception {
        TaskGraph graph = TaskGraph.builder().put("x", 41).put("y", call(INC, ref("x"))).build();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream output = new ObjectOutputStream(bytes)) {
            output.writeObject(new java.util.LinkedHashMap<>(graph.tasks()));
        }
        @SuppressWarnings("unchecked")
        Map<Key, Task> copy = (Map<Key, Task>) new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray())).readObject();
        assertEquals(42, new SynchronousScheduler().get(TaskGraph.of(copy), Key.of("y")));
        assertEquals("inc", ((Task.Call) copy.get(Key.of("y"))).function().displayName());
    }
}
