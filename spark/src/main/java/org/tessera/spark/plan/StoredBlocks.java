package org.tessera.spark.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.tessera.graph.GraphException;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskGraph;

/**
 * Finds the {@link StoredBlock}s of a graph and turns them into what they stand for: a key read
 * from Spark storage. A key whose task is just its own stored block leaves the graph (its block is
 * already computed); a stored block inlined into another task (the inlining pass copies literals
 * into their readers) becomes a reference to the stored key.
 *
 * @param graph  the graph without stored blocks
 * @param stored the stored blocks read, by key
 */
public record StoredBlocks(TaskGraph graph, Map<Key, StoredBlock> stored) {

    public static StoredBlocks extract(TaskGraph graph) {
        Map<Key, StoredBlock> stored = new LinkedHashMap<>();
        Map<Key, Task> tasks = new LinkedHashMap<>();
        boolean changed = false;
        for (Map.Entry<Key, Task> entry : graph.tasks().entrySet()) {
            Task task = entry.getValue();
            if (task instanceof Task.Literal(StoredBlock block) && block.key().equals(entry.getKey())) {
                remember(stored, block);
                changed = true;
                continue;
            }
            Task replaced = replace(task, stored);
            changed |= replaced != task;
            tasks.put(entry.getKey(), replaced);
        }
        List<Key> clashes = new ArrayList<>();
        for (Key key : stored.keySet()) {
            if (tasks.containsKey(key)) {
                clashes.add(key);
            }
        }
        if (!clashes.isEmpty()) {
            throw new GraphException("keys " + clashes + " are both stored in Spark and computed by the graph", clashes);
        }
        return new StoredBlocks(changed ? TaskGraph.of(tasks) : graph, stored);
    }

    private static void remember(Map<Key, StoredBlock> stored, StoredBlock block) {
        StoredBlock earlier = stored.putIfAbsent(block.key(), block);
        if (earlier != null && !earlier.equals(block)) {
            throw new GraphException("key " + block.key() + " is stored twice: " + earlier + " and " + block, List.of(block.key()));
        }
    }

    /** The task with each stored block replaced by a reference; the same object when it has none. */
    private static Task replace(Task task, Map<Key, StoredBlock> stored) {
        return switch (task) {
            case Task.Literal(StoredBlock block) -> {
                remember(stored, block);
                yield Task.ref(block.key());
            }
            case Task.Literal literal -> literal;
            case Task.Ref ref -> ref;
            case Task.TaskList list -> {
                List<Task> items = replaceAll(list.items(), stored);
                yield items == list.items() ? list : new Task.TaskList(items);
            }
            case Task.Call call -> {
                List<Task> arguments = replaceAll(call.arguments(), stored);
                yield arguments == call.arguments() ? call : new Task.Call(call.function(), arguments);
            }
        };
    }

    private static List<Task> replaceAll(List<Task> tasks, Map<Key, StoredBlock> stored) {
        List<Task> replaced = null;
        for (int position = 0; position < tasks.size(); position++) {
            Task item = replace(tasks.get(position), stored);
            if (item != tasks.get(position) && replaced == null) {
                replaced = new ArrayList<>(tasks.subList(0, position));
            }
            if (replaced != null) {
                replaced.add(item);
            }
        }
        return replaced == null ? tasks : replaced;
    }
}
