package org.tessera.graph.optimize;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.layer.HighLevelGraph;

/**
 * The default optimisation before a computation, in Dask's order: cull the layers, fuse blockwise
 * layers while they are still symbolic (and into a large reader that reads each of their blocks
 * once, see {@link ReaderFusion}), build the tasks, then fuse linear chains and inline cheap tasks
 * among them. The requested keys keep their names throughout.
 */
public final class Optimization {
    private Optimization() {
    }

    public static TaskGraph optimize(HighLevelGraph graph, Collection<Key> outputs) {
        return fuseTasks(fuseLayers(graph, outputs).materialize(), outputs);
    }

    /** The passes over layers: culling, blockwise fusion and reader fusion, each fused layer with the footprints of what it absorbed. */
    public static HighLevelGraph fuseLayers(HighLevelGraph graph, Collection<Key> outputs) {
        Set<String> outputLayers = new LinkedHashSet<>();
        outputs.forEach(output -> outputLayers.add(output.name()));
        return ReaderFusion.fuse(BlockwiseFusion.fuse(graph.cull(outputs), outputLayers), outputLayers);
    }

    /**
     * The passes over tasks, on the tasks of {@link #fuseLayers}: linear fusion, inlining, then the
     * merging of tasks that read the same stored blocks ({@link SharedReads}).
     */
    public static TaskGraph fuseTasks(TaskGraph tasks, Collection<Key> outputs) {
        return SharedReads.share(Inlining.inline(LinearFusion.fuse(tasks, outputs), outputs), outputs);
    }

    /**
     * Whether {@code task} reads {@code key} only where its function takes the value deferred, so
     * a deferred block given there is asked for parts instead of forced whole.
     */
    public static boolean readsOnlyDeferred(Task task, Key key) {
        return Inlining.readsOnlyDeferred(task, key);
    }
}
