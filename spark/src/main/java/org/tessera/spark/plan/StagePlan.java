package org.tessera.spark.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.Key;
import org.tessera.graph.Task;

/**
 * A graph cut into stages in dependency order, with the routes that carry blocks between them:
 * what the Spark scheduler turns into RDDs, one per stage.
 *
 * @param stages  in order: a stage reads only stages before it
 * @param routes  every (producer, consumer) pair of stages with blocks flowing between them
 * @param tasks   the tasks of the computed stages
 * @param outputs the requested keys
 */
public record StagePlan(List<Stage> stages, List<Route> routes, Map<Key, Task> tasks, Set<Key> outputs) {

    public StagePlan {
        stages = List.copyOf(stages);
        routes = List.copyOf(routes);
        tasks = Collections.unmodifiableMap(tasks);
        outputs = Collections.unmodifiableSet(new LinkedHashSet<>(outputs));
    }

    public Stage stage(int id) {
        return stages.get(id);
    }

    /** The routes into {@code consumer}, in the order of their producers. */
    public List<Route> routesInto(int consumer) {
        List<Route> into = new ArrayList<>();
        for (Route route : routes) {
            if (route.consumer() == consumer) {
                into.add(route);
            }
        }
        return into;
    }

    /** The requested keys that {@code stage} holds. */
    public Set<Key> outputsOf(Stage stage) {
        Set<Key> held = new LinkedHashSet<>();
        for (Key output : outputs) {
            if (stage.partitions().containsKey(output)) {
                held.add(output);
            }
        }
        return held;
    }

    /**
     * How many times the stage's data set is read: once per kind of route out of it (blocks kept in
     * place, blocks moved) and once more when it holds outputs. Read more than once, it is worth
     * keeping in Spark storage rather than computing again.
     */
    public int readCount(Stage stage) {
        int reads = outputsOf(stage).isEmpty() ? 0 : 1;
        for (Route route : routes) {
            if (route.producer() == stage.id()) {
                reads += (route.hasLocalKeys() ? 1 : 0) + (route.hasMoves() ? 1 : 0);
            }
        }
        return reads;
    }
}
