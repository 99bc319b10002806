package org.tessera.graph.optimize;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.Layer;
import org.tessera.graph.memory.Footprint;

/**
 * What the passes share: rebuilding a task graph in its original key order, and replacing a
 * layer by its fusion with a producer it read.
 */
final class Rewrites {
    private Rewrites() {
    }

    /**
     * {@code graph}'s keys minus {@code removed}, each with its task from {@code changed} where it
     * changed and from {@code graph} otherwise. The passes record only what they change: a graph of
     * 100,000 blocks with one chain fused is then copied once, not three times.
     */
    static TaskGraph rebuild(TaskGraph graph, Map<Key, Task> changed, Set<Key> removed) {
        if (removed.isEmpty() && changed.isEmpty()) {
            return graph;
        }
        TaskGraph.Builder result = TaskGraph.builder();
        graph.tasks().forEach((key, task) -> {
            if (!removed.contains(key)) {
                result.put(key, changed.getOrDefault(key, task));
            }
        });
        return result.build();
    }

    /** The task of {@code key} as the pass has left it so far. */
    static Task current(TaskGraph graph, Map<Key, Task> changed, Key key) {
        Task task = changed.get(key);
        return task != null ? task : graph.task(key);
    }

    /** How many times {@code task} refers to {@code key}. */
    static int referenceCount(Task task, Key key) {
        java.util.List<Key> references = new java.util.ArrayList<>();
        task.collectDependencies(references);
        return (int) references.stream().filter(key::equals).count();
    }

    /**
     * {@code graph} with {@code fused} (named as the reader it replaces) reading what the reader and
     * {@code producer} read. The producer goes unless {@code producerStillRead}: a reader that reads
     * it at other positions too keeps it as an input. Layers keep their order, a topological one.
     */
    static HighLevelGraph fuseLayer(HighLevelGraph graph, String producer, Layer fused, boolean producerStillRead) {
        Set<String> fusedInputs = new LinkedHashSet<>(graph.dependencies(fused.name()));
        if (!producerStillRead) {
            fusedInputs.remove(producer);
        }
        fusedInputs.addAll(graph.dependencies(producer));
        HighLevelGraph rebuilt = HighLevelGraph.empty();
        for (Layer layer : graph.layers().values()) {
            if (layer.name().equals(producer) && !producerStillRead) {
                continue;
            }
            boolean isReader = layer.name().equals(fused.name());
            rebuilt = rebuilt.with(isReader ? fused : layer, isReader ? fusedInputs : graph.dependencies(layer.name()));
        }
        return rebuilt.withFootprintsOf(graph).withFootprint(fused.name(), fusedFootprint(graph, fused, producer));
    }

    /** The fused layer's footprint: the reader's with the producer's tasks inside; undeclared where either was. */
    private static Footprint fusedFootprint(HighLevelGraph graph, Layer fused, String producer) {
        String reader = fused.name();
        Footprint readerFootprint = graph.footprint(reader);
        Footprint producerFootprint = graph.footprint(producer);
        if (readerFootprint == null && producerFootprint == null) {
            return null;
        }
        Footprint results = readerFootprint != null ? readerFootprint : Footprint.undeclared(Footprint.uniform(0, 0));
        Footprint produced = producerFootprint != null ? producerFootprint : Footprint.undeclared(Footprint.uniform(0, 0));
        return passesDeferred(fused) ? Footprint.absorbingDeferred(results, graph.layer(reader), fused, producer, produced)
                : Footprint.absorbing(results, graph.layer(reader), fused, producer, produced);
    }

    /** Whether a fused layer's function hands its producer's result to its reader deferred. */
    private static boolean passesDeferred(Layer fused) {
        return fused instanceof BlockwiseLayer blockwise && blockwise.function() instanceof BlockwiseFusion.Fused function && function.passesDeferred();
    }
}
