package org.tessera.array.plan;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.tessera.graph.Key;
import org.tessera.graph.layer.HighLevelGraph;

/**
 * Those who want the plan of every computation as it starts (a benchmark that reports projected
 * against measured memory, a log). Planning costs a pass over the graph, so it happens only while
 * someone observes.
 */
public final class PlanObservers {
    private static final List<Consumer<Plan>> OBSERVERS = new CopyOnWriteArrayList<>();

    private PlanObservers() {
    }

    /** Calls {@code observer} with the plan of each computation that starts until the returned handle is closed. */
    public static AutoCloseable observe(Consumer<Plan> observer) {
        OBSERVERS.add(observer);
        return () -> OBSERVERS.remove(observer);
    }

    /** A computation of {@code outputs} of {@code graph} on {@code workers} workers starts. */
    public static void computing(HighLevelGraph graph, List<Key> outputs, int workers) {
        if (OBSERVERS.isEmpty()) {
            return;
        }
        Plan plan = Plan.of(graph, outputs, outputs.stream().map(Key::name).distinct().toList(), workers, Budget.standard());
        OBSERVERS.forEach(observer -> observer.accept(plan));
    }
}
