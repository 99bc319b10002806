package org.tessera.graph;

import java.io.Serial;
import java.io.Serializable;
import java.util.List;

/**
 * The function of a {@link Task.Call}. Serializable so that a graph can travel to Spark executors;
 * it has a display name because a lambda's class name says nothing in a progress bar, a profile or a
 * DOT drawing.
 */
@FunctionalInterface
public interface TaskFunction extends Serializable {

    /** Applies the function to the evaluated arguments, in order. */
    Object apply(List<Object> arguments) throws Exception;

    /** The name shown for tasks that call this function. */
    default String displayName() {
        String name = getClass().getSimpleName();
        int lambdaMarker = name.indexOf("$$Lambda");
        return lambdaMarker > 0 ? name.substring(0, lambdaMarker) + ".lambda" : name;
    }

    /**
     * Whether a call of this function costs less than scheduling it: the inlining pass copies such
     * calls into their dependents (as Dask inlines getters and constructors).
     */
    default boolean isCheap() {
        return false;
    }

    /**
     * The scope a task calling this function runs in, where the function asks for one (see
     * {@link Scoping}); a fused function answers for the function it ends with. Null for none.
     */
    default Scoping scoping() {
        return this instanceof Scoping scoping ? scoping : null;
    }

    /**
     * A hint that this function will soon be applied to {@code arguments}, given by the threaded
     * scheduler ahead of the call where the arguments are known before the task runs: a function
     * that reads a remote store starts fetching what it will read, so requests are in flight while
     * the workers compute. It must return at once, never fail, and change no result; an argument
     * it does not expect (null where another function's result will go) means no hint.
     */
    default void prefetch(List<Object> arguments) {
    }

    /**
     * Whether {@link #prefetch} does anything: the scheduler asks before it builds the arguments
     * of a hint, so that the tasks of a graph with nothing to fetch (a hundred thousand generated
     * blocks) cost nothing more.
     */
    default boolean prefetches() {
        return false;
    }

    /** A function with a display name. */
    static TaskFunction named(String name, TaskFunction function) {
        return new Named(name, function, false);
    }

    /** A named function that the inlining pass may copy into its dependents. */
    static TaskFunction cheap(String name, TaskFunction function) {
        return new Named(name, function, true);
    }

    /** A named function of one argument. */
    @SuppressWarnings("unchecked")
    static <A> TaskFunction unary(String name, Unary<A> function) {
        return named(name, arguments -> function.apply((A) arguments.get(0)));
    }

    /** A named function of two arguments. */
    @SuppressWarnings("unchecked")
    static <A, B> TaskFunction binary(String name, Binary<A, B> function) {
        return named(name, arguments -> function.apply((A) arguments.get(0), (B) arguments.get(1)));
    }

    @FunctionalInterface
    interface Unary<A> extends Serializable {
        Object apply(A argument) throws Exception;
    }

    @FunctionalInterface
    interface Binary<A, B> extends Serializable {
        Object apply(A first, B second) throws Exception;
    }

    /** A function with its display name and cost hint. */
    record Named(String name, TaskFunction function, boolean cheap) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) throws Exception {
            return function.apply(arguments);
        }

        @Override
        public String displayName() {
            return name;
        }

        @Override
        public boolean isCheap() {
            return cheap;
        }

        @Override
        public void prefetch(List<Object> arguments) {
            function.prefetch(arguments);
        }

        @Override
        public boolean prefetches() {
            return function.prefetches();
        }
    }
}
