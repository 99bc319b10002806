package org.tessera.graph;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * What a key computes: a literal value, a reference to another key, a list of tasks, or a call of a
 * function on argument tasks. These four kinds are the whole specification, as in Dask's original
 * design; everything else (layers, optimisation, schedulers) is built on them.
 */
public sealed interface Task extends Serializable {

    /** A value used as it is. */
    record Literal(Object value) implements Task {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    /** The result of another key. */
    record Ref(Key key) implements Task {
        @Serial
        private static final long serialVersionUID = 1L;

        public Ref {
            Objects.requireNonNull(key, "a reference needs a key");
        }
    }

    /**
     * A list whose items are evaluated; its value is a {@code List<Object>}. A value class rather
     * than a record only to remember whether any item reads a key (see {@link Call}).
     */
    final class TaskList implements Task {
        @Serial
        private static final long serialVersionUID = 1L;

        private final List<Task> items;
        private final boolean readsKeys;

        public TaskList(List<Task> items) {
            this.items = List.copyOf(items);
            this.readsKeys = anyReadsKeys(this.items);
        }

        public List<Task> items() {
            return items;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof TaskList that && items.equals(that.items);
        }

        @Override
        public int hashCode() {
            return items.hashCode();
        }

        @Override
        public String toString() {
            return "TaskList[items=" + items + "]";
        }
    }

    /**
     * A function applied to evaluated arguments. It remembers whether any argument, however deeply
     * nested, reads a key: a task that computes 64 blocks inline (a fused tree reduction) is then
     * known to read nothing without a walk over its 64 calls in every pass and in the ordering.
     */
    final class Call implements Task {
        @Serial
        private static final long serialVersionUID = 1L;

        private final TaskFunction function;
        private final List<Task> arguments;
        private final boolean readsKeys;

        public Call(TaskFunction function, List<Task> arguments) {
            this.function = Objects.requireNonNull(function, "a call needs a function");
            this.arguments = List.copyOf(arguments);
            this.readsKeys = anyReadsKeys(this.arguments);
        }

        public TaskFunction function() {
            return function;
        }

        public List<Task> arguments() {
            return arguments;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Call that && function.equals(that.function) && arguments.equals(that.arguments);
        }

        @Override
        public int hashCode() {
            return 31 * function.hashCode() + arguments.hashCode();
        }

        @Override
        public String toString() {
            return "Call[" + function.displayName() + ", " + arguments + "]";
        }
    }

    /** Whether {@code task} reads any key, directly or in a nested list or call. */
    static boolean readsKeys(Task task) {
        // Type tests rather than a pattern switch here and in collectDependencies and evaluate: a
        // switch over types links a classifier of its own at each site, which the JIT compiles only
        // after its callers are hot, and these run over every block of the first, cold computation.
        if (task instanceof Call call) {
            return call.readsKeys;
        }
        if (task instanceof TaskList list) {
            return list.readsKeys;
        }
        return task instanceof Ref;
    }

    private static boolean anyReadsKeys(List<Task> tasks) {
        for (int position = 0; position < tasks.size(); position++) {
            if (readsKeys(tasks.get(position))) {
                return true;
            }
        }
        return false;
    }

    static Task literal(Object value) {
        return new Literal(value);
    }

    static Task ref(Key key) {
        return new Ref(key);
    }

    static Task ref(String name, int... index) {
        return new Ref(Key.of(name, index));
    }

    /**
     * A call whose arguments may be given loosely: a {@link Task} stays as it is, a {@link Key}
     * becomes a reference, a {@link List} becomes a list of tasks (recursively), anything else a
     * literal. This is what makes {@code call(add, ref("y"), 10)} read like Dask's {@code (add, "y", 10)}.
     */
    static Task call(TaskFunction function, Object... arguments) {
        List<Task> tasks = new ArrayList<>(arguments.length);
        for (Object argument : arguments) {
            tasks.add(from(argument));
        }
        return new Call(function, tasks);
    }

    /** The task that an argument given loosely stands for (see {@link #call}). */
    static Task from(Object argument) {
        return switch (argument) {
            case Task task -> task;
            case Key key -> new Ref(key);
            case List<?> list -> new TaskList(list.stream().map(Task::from).toList());
            case null, default -> new Literal(argument);
        };
    }

    /** The keys this task reads, in first-use order, without duplicates. */
    default Set<Key> dependencies() {
        Set<Key> keys = new LinkedHashSet<>();
        collectDependencies(keys);
        return keys;
    }

    /** Adds the keys this task reads to {@code keys}. */
    default void collectDependencies(Collection<Key> keys) {
        // Indexed loops: every optimisation pass and the ordering walk every task of a 100,000-block
        // graph through here, and an iterator or lambda per list is most of what they allocate.
        if (this instanceof Ref ref) {
            keys.add(ref.key());
        } else if (this instanceof Call call && call.readsKeys) {
            collectAll(call.arguments(), keys);
        } else if (this instanceof TaskList list && list.readsKeys) {
            collectAll(list.items(), keys);
        }
    }

    private static void collectAll(List<Task> tasks, Collection<Key> keys) {
        for (int position = 0; position < tasks.size(); position++) {
            tasks.get(position).collectDependencies(keys);
        }
    }

    /** The task with every reference to {@code key} replaced by {@code replacement}. */
    default Task substitute(Key key, Task replacement) {
        return switch (this) {
            case Literal literal -> literal;
            case Ref ref -> ref.key().equals(key) ? replacement : ref;
            case TaskList list -> !list.readsKeys ? list
                    : new TaskList(list.items().stream().map(item -> item.substitute(key, replacement)).toList());
            case Call call -> !call.readsKeys ? call
                    : new Call(call.function(), call.arguments().stream().map(argument -> argument.substitute(key, replacement)).toList());
        };
    }

    /**
     * Passes the read-ahead hint of {@link TaskFunction#prefetch} to every call in this task whose
     * arguments are all literals, so a function that reads a remote store can start fetching before
     * the task runs. Calls whose arguments are not yet known get no hint.
     */
    default void prefetch() {
        if (this instanceof Call call) {
            List<Task> arguments = call.arguments();
            boolean wanted = call.function().prefetches();
            List<Object> values = wanted ? new ArrayList<>(arguments.size()) : null;
            boolean known = true;
            for (int position = 0; position < arguments.size(); position++) {
                Task argument = arguments.get(position);
                if (argument instanceof Literal literal) {
                    if (wanted) {
                        values.add(literal.value());
                    }
                } else {
                    known = false;
                    argument.prefetch();
                }
            }
            if (wanted && known) {
                call.function().prefetch(values);
            }
        } else if (this instanceof TaskList list) {
            list.items().forEach(Task::prefetch);
        }
    }

    /** Evaluates the task, taking the values of referenced keys from {@code results}. */
    default Object evaluate(Function<Key, Object> results) throws Exception {
        if (this instanceof Call call) {
            // A function that asks for a scope gets the whole call in it, the calls nested in its arguments included.
            Scoping scoping = call.function().scoping();
            return scoping == null ? evaluateCall(call, results) : scoping.scope(() -> evaluateCall(call, results));
        }
        if (this instanceof Literal literal) {
            return literal.value();
        }
        if (this instanceof Ref ref) {
            return results.apply(ref.key());
        }
        return evaluateAll(((TaskList) this).items(), results);
    }

    private static Object evaluateCall(Call call, Function<Key, Object> results) throws Exception {
        return call.function() instanceof Deferring deferring ? Deferred.force(evaluateDeferring(call, deferring, results))
                : call.function().apply(evaluateAll(call.arguments(), results));
    }

    /**
     * A call of a {@link Deferring} function, whose result may stay deferred: a nested call of
     * another at a position it accepts deferred (a chain that linear fusion built) hands over its
     * deferred result, as blockwise fusion does, so the reader computes only what it reads of it.
     */
    private static Object evaluateDeferring(Call call, Deferring deferring, Function<Key, Object> results) throws Exception {
        List<Task> arguments = call.arguments();
        List<Object> values = new ArrayList<>(arguments.size());
        for (int position = 0; position < arguments.size(); position++) {
            Task argument = arguments.get(position);
            if (deferring.acceptsDeferred(position)) {
                values.add(evaluateKeepingDeferred(argument, results));
            } else if (argument instanceof TaskList list && deferring.acceptsDeferredItems(position)) {
                List<Object> items = new ArrayList<>(list.items().size());
                for (Task item : list.items()) {
                    items.add(evaluateKeepingDeferred(item, results));
                }
                values.add(items);
            } else {
                values.add(argument.evaluate(results));
            }
        }
        return deferring.applyDeferring(values);
    }

    /** The value of an argument that may be deferred: a call of a deferring function keeps its result as it is. */
    private static Object evaluateKeepingDeferred(Task argument, Function<Key, Object> results) throws Exception {
        return argument instanceof Call nested && nested.function() instanceof Deferring producer ? evaluateDeferring(nested, producer, results)
                : argument.evaluate(results);
    }

    private static List<Object> evaluateAll(List<Task> tasks, Function<Key, Object> results) throws Exception {
        List<Object> values = new ArrayList<>(tasks.size());
        for (int position = 0; position < tasks.size(); position++) {
            values.add(tasks.get(position).evaluate(results));
        }
        return values;
    }

    /** A short description for error messages, progress and drawings: the function name of a call. */
    default String label() {
        return switch (this) {
            case Literal literal -> "literal";
            case Ref ref -> "alias of " + ref.key();
            case TaskList list -> "list of " + list.items().size();
            case Call call -> call.function().displayName();
        };
    }
}
