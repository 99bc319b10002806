package org.tessera.graph.optimize;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.Deferring;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskGraph;

/**
 * Inlines cheap tasks into their readers, as Dask's {@code inline}: a literal (or a list of
 * literals), an alias of another key, or a call of a function marked {@link org.tessera.graph.TaskFunction#isCheap() cheap} costs
 * less to recompute in each reader than to schedule and hold as a result. So does a call that defers
 * cheaply (a random block made box by box, a slice of one) in readers that take it deferred: each
 * computes only what it reads, and no block is held for readers scattered through the computation.
 */
public final class Inlining {
    private Inlining() {
    }

    /** Whether the pass inlines {@code task}. */
    public static boolean isCheap(Task task) {
        return switch (task) {
            case Task.Literal literal -> true;
            case Task.Ref ref -> true;
            case Task.TaskList list -> list.items().stream().allMatch(item -> item instanceof Task.Literal || item instanceof Task.TaskList && isCheap(item));
            // A cheap function over an expensive nested call (what linear fusion makes) is not cheap:
            // inlined, every reader would compute the nested call again.
            case Task.Call call -> call.function().isCheap() && call.arguments().stream().allMatch(argument -> argument instanceof Task.Ref || isCheap(argument));
        };
    }

    /**
     * Whether the task's value costs nothing until a part of it is asked: a call of a function that
     * {@link Deferring#defersCheaply() defers cheaply}, whose arguments at the positions it takes
     * deferred, and the items of the lists whose items it takes deferred, are such calls themselves
     * (a computed block there could be computed on at once), and whose other arguments are keys or cheap.
     */
    static boolean defersCheaply(Task task) {
        if (!(task instanceof Task.Call call) || !(call.function() instanceof Deferring deferring) || !deferring.defersCheaply()) {
            return false;
        }
        for (int position = 0; position < call.arguments().size(); position++) {
            Task argument = call.arguments().get(position);
            boolean deferred = deferring.acceptsDeferred(position) ? defersCheaply(argument)
                    : deferring.acceptsDeferredItems(position) && argument instanceof Task.TaskList list
                            ? list.items().stream().allMatch(Inlining::defersCheaply)
                            : argument instanceof Task.Ref || isCheap(argument);
            if (!deferred) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code key}, a call of a deferring function that reads no other task's result (a stored
     * block read, a generated one, and what is fused onto them), has one reader, which reads it once,
     * where it takes it deferred: moved into that reader, it is computed only as far as the reader
     * asks (the last row of a scanned stored block, say), where as a task of its own it would be made
     * whole and held until the reader's other inputs were ready. The reader holds nothing more for
     * it, since it reads no key. Only a reader that also waits for another kind of input (the carry
     * of a scan) takes it: a reader whose inputs are all such tasks, a partial sum of the gathers of
     * W6, keeps them as tasks that run in parallel (moved in, W6 took 0.2 s longer, much of it in
     * moving 18,000 tasks), and a reader of one input is linear fusion's.
     */
    private static boolean soleReaderTakesItDeferred(TaskGraph graph, Map<Key, Task> changed, Key key, Task task) {
        if (!readsNoKey(task) || graph.dependents(key).size() != 1) {
            return false;
        }
        Key readerKey = graph.dependents(key).iterator().next();
        boolean waitsForOther = false;
        for (Key input : graph.dependencies(readerKey)) {
            waitsForOther |= !input.equals(key) && !readsNoKey(Rewrites.current(graph, changed, input));
        }
        Task reader = Rewrites.current(graph, changed, readerKey);
        return waitsForOther && Rewrites.referenceCount(reader, key) == 1 && readsOnlyDeferred(reader, key);
    }

    /** Whether the task is a call of a deferring function that reads no key. */
    private static boolean readsNoKey(Task task) {
        return task instanceof Task.Call call && call.function() instanceof Deferring && !Task.readsKeys(call);
    }

    private static boolean readersTakeItDeferred(TaskGraph graph, Map<Key, Task> changed, Key key) {
        for (Key reader : graph.dependents(key)) {
            if (!readsOnlyDeferred(Rewrites.current(graph, changed, reader), key)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether every read of {@code key} in {@code task} is an argument that its call takes deferred,
     * or an item of a list argument whose items it takes deferred: there an inlined call that defers
     * cheaply is asked only for what the reader reads, so repeating it in every reader costs nothing.
     */
    static boolean readsOnlyDeferred(Task task, Key key) {
        if (task instanceof Task.Ref ref) {
            return !ref.key().equals(key);
        }
        if (task instanceof Task.TaskList list) {
            return list.items().stream().allMatch(item -> readsOnlyDeferred(item, key));
        }
        if (!(task instanceof Task.Call call) || !Task.readsKeys(call)) {
            return true;
        }
        Deferring deferring = call.function() instanceof Deferring function ? function : null;
        for (int position = 0; position < call.arguments().size(); position++) {
            Task argument = call.arguments().get(position);
            boolean deferred = argument instanceof Task.Ref ref && ref.key().equals(key)
                    ? deferring != null && deferring.acceptsDeferred(position)
                    : argument instanceof Task.TaskList list && deferring != null && deferring.acceptsDeferredItems(position)
                            ? list.items().stream().allMatch(item -> item instanceof Task.Ref ref && ref.key().equals(key) || readsOnlyDeferred(item, key))
                            : readsOnlyDeferred(argument, key);
            if (!deferred) {
                return false;
            }
        }
        return true;
    }

    /**
     * The graph with cheap tasks copied into their readers, and tasks that defer cheaply into readers
     * that take them deferred; keys in {@code keep} stay as keys.
     */
    public static TaskGraph inline(TaskGraph graph, Collection<Key> keep) {
        Set<Key> kept = Set.copyOf(keep);
        // Many graphs have no task to move outside the kept keys: then the topological order is not needed.
        boolean anyCheap = false;
        for (Map.Entry<Key, Task> entry : graph.tasks().entrySet()) {
            if (!kept.contains(entry.getKey()) && (isCheap(entry.getValue()) || defersCheaply(entry.getValue()) || readsNoKey(entry.getValue()))) {
                anyCheap = true;
                break;
            }
        }
        if (!anyCheap) {
            return graph;
        }
        Map<Key, Task> changed = new HashMap<>();
        Set<Key> removed = new java.util.HashSet<>();
        for (Key key : graph.topologicalOrder()) {
            Task task = Rewrites.current(graph, changed, key);
            if (kept.contains(key) || graph.dependents(key).isEmpty() || !isCheap(task) && !(defersCheaply(task) && readersTakeItDeferred(graph, changed, key))
                    && !soleReaderTakesItDeferred(graph, changed, key, task)) {
                continue;
            }
            for (Key reader : graph.dependents(key)) {
                changed.put(reader, Rewrites.current(graph, changed, reader).substitute(key, task));
            }
            removed.add(key);
        }
        return Rewrites.rebuild(graph, changed, removed);
    }
}
