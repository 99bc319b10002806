package org.tessera.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * An immutable map from keys to tasks: the low-level graph that schedulers run. Dependencies and
 * dependents are derived once, on first use.
 */
public final class TaskGraph {
    private final Map<Key, Task> tasks;
    private Map<Key, Set<Key>> dependencies;
    private Map<Key, Set<Key>> dependents;

    private TaskGraph(Map<Key, Task> tasks) {
        this.tasks = Collections.unmodifiableMap(tasks);
    }

    /** A graph of the given tasks (copied). */
    public static TaskGraph of(Map<Key, ? extends Task> tasks) {
        return new TaskGraph(new LinkedHashMap<>(tasks));
    }

    public static Builder builder() {
        return new Builder();
    }

    public Map<Key, Task> tasks() {
        return tasks;
    }

    public Set<Key> keys() {
        return tasks.keySet();
    }

    public int size() {
        return tasks.size();
    }

    public boolean contains(Key key) {
        return tasks.containsKey(key);
    }

    /** The task of {@code key}; a {@link GraphException} names the key when the graph lacks it. */
    public Task task(Key key) {
        Task task = tasks.get(key);
        if (task == null) {
            throw new GraphException("the graph has no key " + key, List.of(key));
        }
        return task;
    }

    /** The keys that {@code key}'s task reads. */
    public Set<Key> dependencies(Key key) {
        return dependencyMap().getOrDefault(key, Set.of());
    }

    /** The keys whose tasks read {@code key}. */
    public Set<Key> dependents(Key key) {
        return dependentMap().getOrDefault(key, Set.of());
    }

    public synchronized Map<Key, Set<Key>> dependencyMap() {
        if (dependencies == null) {
            Map<Key, Set<Key>> map = HashMap.newHashMap(tasks.size());
            tasks.forEach((key, task) -> map.put(key, Collections.unmodifiableSet(task.dependencies())));
            dependencies = Collections.unmodifiableMap(map);
        }
        return dependencies;
    }

    public synchronized Map<Key, Set<Key>> dependentMap() {
        if (dependents == null) {
            Map<Key, Set<Key>> map = HashMap.newHashMap(tasks.size());
            dependencyMap().forEach((key, reads) -> reads.forEach(read -> map.computeIfAbsent(read, k -> new HashSet<>(2)).add(key)));
            dependents = Collections.unmodifiableMap(map);
        }
        return dependents;
    }

    /** The graph with tasks added or replaced. */
    public TaskGraph with(Map<Key, ? extends Task> more) {
        Map<Key, Task> merged = new LinkedHashMap<>(tasks);
        merged.putAll(more);
        return new TaskGraph(merged);
    }

    /**
     * Checks that every referenced key exists and that no key depends on itself through others.
     *
     * @throws GraphException naming the missing keys (with a key that reads each), or the keys of a cycle in order
     */
    public TaskGraph validate() {
        List<Key> missing = new ArrayList<>();
        List<String> readers = new ArrayList<>();
        dependencyMap().forEach((key, reads) -> {
            for (Key read : reads) {
                if (!tasks.containsKey(read)) {
                    missing.add(read);
                    readers.add(read + " (read by " + key + ")");
                }
            }
        });
        if (!missing.isEmpty()) {
            throw new GraphException("the graph lacks keys its tasks read: " + String.join(", ", readers), missing);
        }
        topologicalOrder();
        return this;
    }

    /**
     * Keys in an order where every key comes after the keys it reads.
     *
     * @throws GraphException naming the keys of a cycle
     */
    public List<Key> topologicalOrder() {
        return postOrder(tasks.keySet(), key -> dependencies(key).iterator());
    }

    /**
     * A depth-first post-order from {@code roots}: each key after the keys it reads, with the inputs
     * of a key visited in the order {@code inputOrder} gives. Only keys reachable from the roots are
     * listed, so this also culls; keys the graph lacks are skipped (validation names them).
     *
     * @throws GraphException if the walk meets a cycle, naming its keys in order
     */
    public List<Key> postOrder(Iterable<Key> roots, Function<Key, Iterator<Key>> inputOrder) {
        List<Key> order = new ArrayList<>();
        // false while a key is on the current path, true once it is listed
        Map<Key, Boolean> listed = new HashMap<>();
        for (Key root : roots) {
            if (!tasks.containsKey(root) || listed.putIfAbsent(root, Boolean.FALSE) != null) {
                continue;
            }
            // An explicit stack: chains of a million tasks must not overflow the thread stack.
            Deque<Iterator<Key>> stack = new ArrayDeque<>();
            Deque<Key> path = new ArrayDeque<>();
            path.push(root);
            stack.push(inputOrder.apply(root));
            while (!stack.isEmpty()) {
                Iterator<Key> reads = stack.peek();
                if (reads.hasNext()) {
                    Key next = reads.next();
                    if (!tasks.containsKey(next)) {
                        continue;
                    }
                    Boolean state = listed.putIfAbsent(next, Boolean.FALSE);
                    if (state == null) {
                        path.push(next);
                        stack.push(inputOrder.apply(next));
                    } else if (!state) {
                        List<Key> cycle = cycleEndingAt(next, path);
                        throw new GraphException("the graph has a cycle: " + cycleText(cycle), cycle);
                    }
                } else {
                    stack.pop();
                    Key finished = path.pop();
                    listed.put(finished, Boolean.TRUE);
                    order.add(finished);
                }
            }
        }
        return order;
    }

    private static String cycleText(List<Key> cycle) {
        StringBuilder path = new StringBuilder();
        for (Key key : cycle) {
            path.append(key).append(" -> ");
        }
        return path.append(cycle.getFirst()).toString();
    }

    private static List<Key> cycleEndingAt(Key start, Collection<Key> pathFromTop) {
        List<Key> cycle = new ArrayList<>();
        for (Key key : pathFromTop) {
            cycle.add(key);
            if (key.equals(start)) {
                break;
            }
        }
        return cycle.reversed();
    }

    @Override
    public String toString() {
        return "TaskGraph" + tasks;
    }

    /** Builds a graph in a few lines, as one writes a Dask graph by hand. A builder builds once. */
    public static final class Builder {
        private Map<Key, Task> tasks = new LinkedHashMap<>();

        /** Adds {@code key}; the task may be given loosely as in {@link Task#from}. */
        public Builder put(Key key, Object task) {
            requireOpen().put(key, Task.from(task));
            return this;
        }

        public Builder put(String name, Object task) {
            return put(Key.of(name), task);
        }

        /** Adds every task of {@code more}. */
        public Builder putAll(Map<Key, ? extends Task> more) {
            requireOpen().putAll(more);
            return this;
        }

        private Map<Key, Task> requireOpen() {
            if (tasks == null) {
                throw new IllegalStateException("this builder already built its graph");
            }
            return tasks;
        }

        /** The graph; it takes over the builder's map rather than copying it. */
        public TaskGraph build() {
            TaskGraph graph = new TaskGraph(requireOpen());
            tasks = null;
            return graph;
        }
    }
}
