package org.tessera.spark.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.tessera.graph.GraphException;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;

class StagePlannerTest {
    private static final TaskFunction SOURCE = TaskFunction.named("source", arguments -> 1);
    private static final TaskFunction COMBINE = TaskFunction.named("combine", arguments -> arguments.size());

    /** x: a 2 x 2 grid of sources; y(i, j) = f(x(i, j)); t(i, j) = g(x(j, i)); s = h(y..) */
    private static TaskGraph gridGraph() {
        TaskGraph.Builder graph = TaskGraph.builder();
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 2; j++) {
                graph.put(Key.of("x", i, j), Task.call(SOURCE));
                graph.put(Key.of("y", i, j), Task.call(COMBINE, Key.of("x", i, j)));
                graph.put(Key.of("t", i, j), Task.call(COMBINE, Key.of("x", j, i)));
            }
        }
        graph.put(Key.of("s"), Task.call(COMBINE, List.of(Key.of("y", 0, 0), Key.of("y", 1, 1), Key.of("t", 0, 1))));
        return graph.build();
    }

    @Test
    void eachLayerAtEachDepthIsOneStageAfterTheStagesItReads() {
        StagePlan plan = StagePlanner.plan(gridGraph(), List.of(Key.of("s")), Map.of(), 100);
        assertEquals(List.of("x", "y", "t", "s"), plan.stages().stream().map(Stage::layer).toList());
        for (Route route : plan.routes()) {
            assertTrue(route.producer() < route.consumer(), "route " + route + " goes backwards");
        }
        assertEquals(3, plan.stage(0).partitionCount(), "x culled to the three blocks s needs");
        assertEquals(1, plan.stage(3).partitionCount());
    }

    @Test
    void elementwiseLayerOnTheSameGridReadsEveryBlockInPlace() {
        StagePlan plan = StagePlanner.plan(gridGraph(), List.of(Key.of("y", 0, 0), Key.of("y", 0, 1), Key.of("y", 1, 0), Key.of("y", 1, 1)), Map.of(), 100);
        Route route = plan.routesInto(1).getFirst();
        assertEquals(4, route.localKeys().size());
        assertTrue(route.moves().isEmpty(), "an elementwise layer moves no block, but moves " + route.moves());
    }

    @Test
    void transposedReadMovesOnlyTheOffDiagonalBlocks() {
        StagePlan plan = StagePlanner.plan(gridGraph(), List.of(Key.of("t", 0, 1), Key.of("t", 1, 0), Key.of("t", 0, 0), Key.of("t", 1, 1)), Map.of(), 100);
        Route route = plan.routesInto(1).getFirst();
        assertEquals(Set.of(Key.of("x", 0, 0), Key.of("x", 1, 1)), route.localKeys());
        assertEquals(Set.of(Key.of("x", 0, 1), Key.of("x", 1, 0)), route.moves().keySet());
        Stage transposed = plan.stage(1);
        assertEquals(Set.of(transposed.partition(Key.of("t", 1, 0))), route.moves().get(Key.of("x", 0, 1)));
    }

    @Test
    void chainWithinOneLayerBecomesAStagePerDepth() {
        TaskGraph graph = TaskGraph.builder()
                .put(Key.of("scan", 0), Task.call(SOURCE))
                .put(Key.of("scan", 1), Task.call(COMBINE, Key.of("scan", 0)))
                .put(Key.of("scan", 2), Task.call(COMBINE, Key.of("scan", 1)))
                .build();
        StagePlan plan = StagePlanner.plan(graph, List.of(Key.of("scan", 2)), Map.of(), 100);
        assertEquals(3, plan.stages().size());
        assertEquals(List.of(Key.of("scan", 1)), plan.stage(1).keys());
    }

    @Test
    void partitionsAreCappedAndSpreadOverTheGrid() {
        Map<Key, Integer> placement = StagePlanner.placement(List.of(Key.of("a", 0, 0), Key.of("a", 0, 1), Key.of("a", 1, 0), Key.of("a", 1, 1), Key.of("a", 2, 0), Key.of("a", 2, 1)), 4);
        assertEquals(List.of(0, 1, 2, 3, 0, 1), List.copyOf(placement.values()));
    }

    @Test
    void storedBlocksFormAStageOfTheirDataset() {
        TaskGraph graph = TaskGraph.builder().put(Key.of("sum"), Task.call(COMBINE, Key.of("p", 0), Key.of("p", 1))).build();
        Map<Key, StoredPlacement> stored = Map.of(Key.of("p", 0), new StoredPlacement(7, 2, 0), Key.of("p", 1), new StoredPlacement(7, 2, 1));
        StagePlan plan = StagePlanner.plan(graph, List.of(Key.of("sum")), stored, 100);
        assertTrue(plan.stage(0).isStored());
        assertEquals(7, plan.stage(0).storedDataset());
        assertEquals("sum", plan.stage(1).layer());
    }

    @Test
    void missingInputIsNamedWithItsReader() {
        TaskGraph graph = TaskGraph.builder().put(Key.of("y"), Task.call(COMBINE, Key.of("nowhere", 3))).build();
        GraphException failure = assertThrows(GraphException.class, () -> StagePlanner.plan(graph, List.of(Key.of("y")), Map.of(), 10));
        assertTrue(failure.getMessage().contains("('nowhere', 3) (read by y)"), failure.getMessage());
        assertEquals(List.of(Key.of("nowhere", 3)), failure.keys());
    }

    @Test
    void storedLiteralInlinedIntoATaskBecomesAReference() {
        StoredBlock block = new StoredBlock("app", 3, Key.of("p", 0));
        TaskGraph graph = TaskGraph.builder()
                .put(Key.of("p", 1), Task.literal(new StoredBlock("app", 3, Key.of("p", 1))))
                .put(Key.of("sum"), Task.call(COMBINE, Task.literal(block), Key.of("p", 1)))
                .build();
        StoredBlocks extracted = StoredBlocks.extract(graph);
        assertEquals(Set.of(Key.of("sum")), extracted.graph().keys());
        assertEquals(Set.of(Key.of("p", 0), Key.of("p", 1)), extracted.graph().dependencies(Key.of("sum")));
        assertEquals(block, extracted.stored().get(Key.of("p", 0)));
    }
}
