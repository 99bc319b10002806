package org.tessera.graph.optimize;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import org.tessera.graph.Deferred;
import org.tessera.graph.Deferring;
import org.tessera.graph.Key;
import org.tessera.graph.Scoping;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;

/**
 * Tasks that read the same stored blocks run as one task that reads each block once. Blockwise
 * fusion puts a stored block's read into every task that reads it, so {@code (y + y.T).mean(0)}
 * reads block (i, j) in the task of its own output block and again, transposed, in that of block
 * (j, i), and a diagonal task reads its block twice. Here the fused tasks whose stored reads are
 * the same set become one task (under the first one's key; the readers of all of them take their
 * shares of its result through {@link Item}): it reads each block that its parts read more
 * than once whole, once, in memory that lasts while the parts run, and the parts' reads of it
 * take that block ({@link #lookup}). Tasks whose sets differ (the neighbours of a stencil) are left
 * alone, so no task gathers more than what its parts read together.
 *
 * <p>A stored read is a producer whose function {@linkplain TaskFunction#prefetches prefetches}:
 * one that reads a store, the only kind whose repetition costs a decode.
 */
public final class SharedReads {
    private SharedReads() {
    }

    /** The reads a task in {@link Together} shares, bound while its parts run. */
    private static final ScopedValue<Map<ProducerCall, Object>> SHARED = ScopedValue.newInstance();

    /** A producer applied to its arguments: equal when the function is and the arguments hold the same values. */
    public record ProducerCall(TaskFunction function, List<Object> arguments) implements java.io.Serializable {
        @Override
        public boolean equals(Object other) {
            return other instanceof ProducerCall that && function.equals(that.function) && Arrays.deepEquals(arguments.toArray(), that.arguments.toArray());
        }

        @Override
        public int hashCode() {
            return function.hashCode() * 31 + Arrays.deepHashCode(arguments.toArray());
        }

        Object apply() throws Exception {
            return function instanceof Deferring deferring ? deferring.applyDeferring(arguments) : function.apply(arguments);
        }
    }

    /** The value of a read that the running task shares, or null. */
    static Object lookup(TaskFunction producer, List<Object> arguments) {
        if (!SHARED.isBound()) {
            return null;
        }
        Map<ProducerCall, Object> shared = SHARED.get();
        return shared.isEmpty() ? null : shared.get(new ProducerCall(producer, arguments));
    }

    /** {@code graph} with the tasks that read the same stored blocks merged; the keys in {@code keep} keep their values. */
    public static TaskGraph share(TaskGraph graph, Collection<Key> keep) {
        Set<Key> kept = Set.copyOf(keep);
        Map<Key, List<ProducerCall>> readsOf = new HashMap<>();
        Map<Set<ProducerCall>, List<Key>> groups = new LinkedHashMap<>();
        graph.tasks().forEach((key, task) -> {
            List<ProducerCall> reads = reads(task);
            if (!reads.isEmpty()) {
                readsOf.put(key, reads);
                groups.computeIfAbsent(new HashSet<>(reads), ignored -> new ArrayList<>()).add(key);
            }
        });
        Map<Key, Task> changed = new HashMap<>();
        Set<Key> removed = new HashSet<>();
        for (List<Key> keys : groups.values()) {
            Map<ProducerCall, Integer> counts = new LinkedHashMap<>();
            for (Key key : keys) {
                readsOf.get(key).forEach(read -> counts.merge(read, 1, Integer::sum));
            }
            List<ProducerCall> shared = counts.entrySet().stream().filter(entry -> entry.getValue() > 1).map(Map.Entry::getKey).toList();
            Key host = keys.stream().filter(key -> !kept.contains(key)).findFirst().orElse(null);
            if (shared.isEmpty() || host == null) {
                continue;
            }
            List<Task> parts = keys.stream().map(graph::task).toList();
            Scoping enclosing = parts.getFirst() instanceof Task.Call first ? first.function().scoping() : null;
            changed.put(host, Task.call(new Together(shared, enclosing, List.copyOf(keys)), parts.toArray()));
            for (int share = 0; share < keys.size(); share++) {
                Key key = keys.get(share);
                Task item = Task.call(new Item(share), Task.ref(host));
                if (key.equals(host) || !kept.contains(key)) {
                    // Readers take the share themselves: a task of its own would be a tiny one beside the merged tasks of its
                    // layer, and the scheduler takes tiny tasks of a layer in batches, merged ones then too.
                    for (Key reader : graph.dependents(key)) {
                        changed.put(reader, Rewrites.current(graph, changed, reader).substitute(key, item));
                    }
                    if (!key.equals(host)) {
                        removed.add(key);
                    }
                } else {
                    changed.put(key, item);
                }
            }
        }
        return Rewrites.rebuild(graph, changed, removed);
    }

    /**
     * The keys of the tasks merged into {@code task} (its own among them), or none where it is not
     * a merged task: a memory plan counts their work in it rather than in their readers.
     */
    public static List<Key> mergedKeys(Task task) {
        return task instanceof Task.Call call && call.function() instanceof Together together ? together.parts() : List.of();
    }

    /** The stored reads inside a fused task that reads no key, in order, repeats included. */
    private static List<ProducerCall> reads(Task task) {
        if (!(task instanceof Task.Call call) || !(call.function() instanceof BlockwiseFusion.Fused fused) || Task.readsKeys(call)) {
            return List.of();
        }
        List<Object> values = new ArrayList<>(call.arguments().size());
        for (Task argument : call.arguments()) {
            if (!(argument instanceof Task.Literal literal)) {
                return List.of();
            }
            values.add(literal.value());
        }
        List<ProducerCall> reads = new ArrayList<>();
        fused.collectReads(values, reads);
        return reads;
    }

    /**
     * The merged task: its arguments are its parts, each evaluated in its own scope; around them, in
     * a scope of the first part's kind, the shared reads are made whole once.
     */
    record Together(List<ProducerCall> shared, Scoping enclosing, List<Key> parts) implements TaskFunction, Scoping {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            return new ArrayList<>(arguments);
        }

        @Override
        public Object scope(Callable<Object> task) throws Exception {
            Callable<Object> run = () -> shareWhile(task);
            return enclosing == null ? run.call() : enclosing.enclose(run);
        }

        private Object shareWhile(Callable<Object> task) throws Exception {
            Map<ProducerCall, Object> values = new LinkedHashMap<>();
            for (ProducerCall read : shared) {
                Object value = read.apply();
                if (value instanceof Deferred deferred) {
                    deferred.keepWhole();
                }
                values.put(read, value);
            }
            return ScopedValue.where(SHARED, values).call(task::call);
        }

        @Override
        public String displayName() {
            return "shared-reads";
        }
    }

    /** The share of a merged task that one of its parts computed. */
    record Item(int share) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            return ((List<?>) arguments.getFirst()).get(share);
        }

        @Override
        public boolean isCheap() {
            return true;
        }

        @Override
        public String displayName() {
            return "share";
        }
    }
}
